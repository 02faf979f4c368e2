package xmlfile_test

import (
	"fmt"

	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

// Lint checks a descriptor as 'mobilemcp lint' does and returns every
// finding with its place and stable rule id. This descriptor gives a
// capability no mcp:readOnly hint, so the engine treats it as changing
// state, and declares a type by a synonym, which the engine reads but
// lint flags.
func ExampleLint() {
	xml := []byte(`<?xml version="1.0" encoding="utf-8"?>
<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
  <capability id="set_alarm" description="Sets an alarm." version="1.0">
    <input>
      <param name="minutes" type="int" required="true" description="Minutes from now."/>
    </input>
  </capability>
</mobile-mcp-capabilities>
`)
	for _, f := range xmlfile.Lint("res/xml/mcp_capabilities.xml", xml, nil) {
		fmt.Println(f)
	}
	// Output:
	// res/xml/mcp_capabilities.xml:3: warning: capability "set_alarm" has no mcp:readOnly, so it is taken to change state: callers need the user's consent and a binding, and Intent-only agents such as the Mobile-MCP spec authors' prototype are refused; if it only reads, add mcp:readOnly="true", else mcp:readOnly="false" [missing-read-only]
	// res/xml/mcp_capabilities.xml:5: warning: input param "minutes" has type "int"; write type="integer", the name every reader knows [type-synonym]
}
