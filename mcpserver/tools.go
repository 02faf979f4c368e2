package mcpserver

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/mcptool"
)

// newTool describes capability c as an MCP tool: the descriptor package's
// conversion, which is also what 'mobilemcp tools' prints, plus its output
// schema and the title repeated in the annotations. The schemas go to the
// SDK as raw JSON, which it sends as they are; Server.AddTool does not
// validate arguments against them, so the engine stays the one validator.
// The official TypeScript client checks structuredContent against the
// output schema.
func newTool(c *capability.Capability) (*mcp.Tool, error) {
	d := mcptool.NewTool(c)
	input, err := json.Marshal(d.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: capability %s: input schema: %w", c.ID, err)
	}
	output, err := json.Marshal(mcptool.OutputSchema(c))
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
