package mcpserver

import (
	"encoding/json"

	"github.com/mobilemcp/mobilemcp/capability"
)

// INTERIM: the descriptor package owns the conversion from capability
// parameters to an MCP inputSchema and is being written on its own branch.
// This stand-in exists only so the server can be built and tested before
// that lands; it is replaced by the descriptor conversion plus the extra
// constraints (pattern, maxLength) and must not be merged as it is.
func inputSchema(c *capability.Capability) (json.RawMessage, error) {
	props := make(map[string]any, len(c.Input))
	required := []string{}
	for _, p := range c.Input {
		prop := map[string]any{"type": p.Type, "description": p.Description}
		if p.Pattern != "" {
			prop["pattern"] = p.Pattern
		}
		if p.MaxLength > 0 {
			prop["maxLength"] = p.MaxLength
		}
		props[p.Name] = prop
		if p.Required {
			required = append(required, p.Name)
		}
	}
	return json.Marshal(map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	})
}
