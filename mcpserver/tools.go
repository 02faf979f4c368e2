package mcpserver

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/capability"
	"github.com/mobilemcp/mobilemcp/descriptor"
)

// newTool describes capability c as an MCP tool: the descriptor package's
// conversion, which is also what 'mobilemcp tools' prints, plus an output
// schema. The schemas go to the SDK as raw JSON, which it sends as they
// are; Server.AddTool does not validate arguments against them, so the
// engine stays the one validator.
func newTool(c *capability.Capability) (*mcp.Tool, error) {
	d := descriptor.NewTool(c)
	input, err := json.Marshal(d.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: capability %s: input schema: %w", c.ID, err)
	}
	output, err := json.Marshal(outputSchema(c))
	if err != nil {
		return nil, fmt.Errorf("mcpserver: capability %s: output schema: %w", c.ID, err)
	}
	return &mcp.Tool{
		Name:         d.Name,
		Title:        d.Title,
		Description:  d.Description,
		InputSchema:  json.RawMessage(input),
		OutputSchema: json.RawMessage(output),
		Annotations: &mcp.ToolAnnotations{
			Title:           d.Title,
			ReadOnlyHint:    d.Annotations.ReadOnlyHint,
			IdempotentHint:  d.Annotations.IdempotentHint,
			DestructiveHint: &d.Annotations.DestructiveHint,
			OpenWorldHint:   &d.Annotations.OpenWorldHint,
		},
	}, nil
}

// outputSchema describes the structuredContent of a successful result: an
// object with one property per declared output, every one of them present,
// since the handlers return them all. The official TypeScript client
// checks structuredContent against it.
func outputSchema(c *capability.Capability) descriptor.Schema {
	s := descriptor.Schema{Schema: descriptor.SchemaDialect, Type: "object", Required: []string{}}
	for _, p := range c.Output {
		s.Properties = append(s.Properties, descriptor.Property{Name: p.Name, Type: p.Type, Description: p.Description})
		s.Required = append(s.Required, p.Name)
	}
	return s
}
