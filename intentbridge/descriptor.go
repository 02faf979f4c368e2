package intentbridge

import (
	"github.com/mobilemcp/mobilemcp/capability"
	"github.com/mobilemcp/mobilemcp/capability/sms"
	"github.com/mobilemcp/mobilemcp/descriptor"
)

// DescriptorXML returns the capability descriptor of what a Bridge serves,
// byte for byte as 'mobilemcp gen' writes it to
// res/xml/mcp_capabilities.xml. The app ships that file as a compiled
// resource for discovery (the Mobile-MCP spec §2); this lets Java code and tests check
// that what agents discover is what the engine runs.
//
// It returns "" if rendering fails, which a test rules out for the built-in
// set: like every function Java calls, it never lets a panic cross.
func DescriptorXML() (xml string) {
	defer func() {
		if recover() != nil {
			xml = ""
		}
	}()
	reg, err := capability.NewRegistry(sms.Capabilities(nil)...)
	if err != nil {
		return ""
	}
	return string(descriptor.Render(reg.All()))
}
