package main

import (
	"fmt"

	"github.com/mobilemcp/mobilemcp/descriptor"
	"github.com/mobilemcp/mobilemcp/internal/plural"
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
  - an input schema has every maxLength and pattern the Go capability
    declares, also those its descriptor does not carry;
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
	path := paths[0]
	if code, ok := checkExists(e, fs, path); !ok {
		return code
	}
	data, err := descriptor.ReadFile(path)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp tools: %v\n", err)
		return exitFailure
	}
	findings := descriptor.Lint(path, data, nil)
	for _, f := range findings {
		fmt.Fprintln(e.stderr, f)
	}
	if errs, _ := count(findings); errs > 0 {
		fmt.Fprintf(e.stderr, "mobilemcp tools: %s has %s; fix the descriptor first\n", path, plural.Count(errs, "error"))
		return exitFailure
	}
	d, err := descriptor.Parse(data)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp tools: %s: %v\n", path, err)
		return exitFailure
	}
	writeJSON(e.stdout, struct {
		Tools []descriptor.Tool `json:"tools"`
	}{descriptor.Tools(d.Capabilities())})
	return exitOK
}
