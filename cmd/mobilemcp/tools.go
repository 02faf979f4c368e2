package main

import (
	"github.com/mobilemcp/mobilemcp/engine/mcptool"
)

func init() {
	register(command{name: "tools", summary: "print the MCP tools/list result for a capability descriptor", run: runTools})
}

// toolsHelp says exactly how the printed tools differ from what 'mobilemcp
// serve' lists; TestToolsDiffersFromServeAsItsHelpSays holds it to that.
const toolsHelp = `Prints the result of MCP tools/list for the capability descriptor at PATH:
{"tools": [...]}, one tool per capability in file order, each with its
name, title, description, JSON Schema 2020-12 input schema and the four
behaviour hints. The Java client library makes the same tools of the
descriptor on a phone.

'mobilemcp serve' converts its capabilities the same way (from the Go
registry, not from a descriptor), and its tools/list differs thus:
  - each tool also has an outputSchema: the output params, all required;
  - the annotations repeat the title;
  - the tools are sorted by name, and keys come in the MCP SDK's order.

The descriptor is linted first. Errors are printed on stderr and stop the
command (exit 1); warnings are printed and do not.`

func runTools(e *env, args []string) int {
	fs := newFlags(e, "tools", "PATH", toolsHelp)
	paths, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if len(paths) != 1 {
		return usageError(e, fs, "name one descriptor, such as res/xml/mcp_capabilities.xml")
	}
	d, code, ok := readDescriptor(e, fs, "", paths[0])
	if !ok {
		return code
	}
	writeJSON(e.stdout, struct {
		Tools []mcptool.Tool `json:"tools"`
	}{mcptool.Tools(d.Capabilities())})
	return exitOK
}
