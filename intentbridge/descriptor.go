package intentbridge

import (
	"github.com/mobilemcp/mobilemcp/capability"
	"github.com/mobilemcp/mobilemcp/capability/sms"
	"github.com/mobilemcp/mobilemcp/descriptor"
)

// DescriptorXML returns the capability descriptor of what a Bridge serves,
// byte for byte as 'mobilemcp gen' writes it to
// res/xml/mcp_capabilities.xml. The app ships that file as a compiled
// resource for discovery (seed 004 §2); this lets Java code and tests check
// that what agents discover is what the engine runs.
func DescriptorXML() string {
	reg, err := capability.NewRegistry(sms.Capabilities(nil)...)
	if err != nil {
		// The set is fixed and a test renders it; no panic may reach Java.
		return ""
	}
	return string(descriptor.Render(reg.All()))
}
