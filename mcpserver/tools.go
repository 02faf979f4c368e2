package mcpserver

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/capability"
)

// newTool describes capability c as an MCP tool. The schemas are raw JSON,
// which the SDK sends as they are; Server.AddTool does not validate
// arguments against them, so the engine stays the one validator.
func newTool(c *capability.Capability) (*mcp.Tool, error) {
	input, err := inputSchema(c)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: capability %s: input schema: %w", c.ID, err)
	}
	output, err := outputSchema(c)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: capability %s: output schema: %w", c.ID, err)
	}
	a := c.Annotations
	return &mcp.Tool{
		Name:         c.ID,
		Title:        a.Title,
		Description:  c.Description,
		InputSchema:  input,
		OutputSchema: output,
		Annotations: &mcp.ToolAnnotations{
			Title:           a.Title,
			ReadOnlyHint:    a.ReadOnly,
			IdempotentHint:  a.Idempotent,
			DestructiveHint: &a.Destructive,
			OpenWorldHint:   &a.OpenWorld,
		},
	}, nil
}

// outputSchema describes the structuredContent of a successful result: an
// object with one property per declared output, every one of them present.
// The official TypeScript client checks structuredContent against it.
func outputSchema(c *capability.Capability) (json.RawMessage, error) {
	props := make(map[string]any, len(c.Output))
	required := make([]string, 0, len(c.Output))
	for _, p := range c.Output {
		props[p.Name] = map[string]any{"type": p.Type, "description": p.Description}
		required = append(required, p.Name)
	}
	return json.Marshal(map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	})
}
