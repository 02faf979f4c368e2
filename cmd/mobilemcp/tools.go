package main

import (
	"github.com/mobilemcp/mobilemcp/descriptor"
)

func init() {
	register(command{name: "tools", summary: "print the MCP tools/list result for a capability descriptor", run: runTools})
}

func runTools(e *env, args []string) int {
	fs := newFlags(e, "tools", "PATH",
		`Prints the result of MCP tools/list for the capability descriptor at PATH:
{"tools": [...]}, one tool per capability, each with its JSON Schema
2020-12 input schema and behaviour hints. This is what an MCP client sees
when the descriptor's capabilities are served over MCP.

The descriptor is linted first. Errors are printed on stderr and stop the
command (exit 1); warnings are printed and do not.`)
	paths, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if len(paths) != 1 {
		return usageError(e, fs, "name one descriptor, such as res/xml/mcp_capabilities.xml")
	}
	d, code, ok := readDescriptor(e, fs, paths[0])
	if !ok {
		return code
	}
	writeJSON(e.stdout, struct {
		Tools []descriptor.Tool `json:"tools"`
	}{descriptor.Tools(d.Capabilities())})
	return exitOK
}
