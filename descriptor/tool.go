package descriptor

import (
	"github.com/mobilemcp/mobilemcp/capability"
)

// SchemaDialect is the JSON Schema dialect of input schemas: 2020-12, MCP's
// default, named explicitly so that no client has to assume it.
const SchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// Tool is an MCP tool definition, as tools/list returns it.
type Tool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description"`
	InputSchema Schema          `json:"inputSchema"`
	Annotations ToolAnnotations `json:"annotations"`
}

// Schema is the JSON Schema of a tool's arguments: an object with exactly
// the declared properties.
type Schema struct {
	Schema     string     `json:"$schema"`
	Type       string     `json:"type"`
	Properties Properties `json:"properties"`
	// Required is never nil, so it is written as [] when nothing is
	// required, as the Android SMS MCP server writes it.
	Required []string `json:"required"`
	// AdditionalProperties is false: the engine rejects unknown
	// arguments, so a misspelt name fails rather than being ignored.
	AdditionalProperties bool `json:"additionalProperties"`
}

// Property is the schema of one argument.
type Property struct {
	Name        string          `json:"-"`
	Type        capability.Type `json:"type"`
	Description string          `json:"description,omitempty"`
	MaxLength   int             `json:"maxLength,omitempty"`
	Pattern     string          `json:"pattern,omitempty"`
}

// ToolAnnotations are MCP's behaviour hints. All four are always written,
// because MCP reads an absent destructiveHint or openWorldHint as true.
type ToolAnnotations struct {
	ReadOnlyHint    bool `json:"readOnlyHint"`
	DestructiveHint bool `json:"destructiveHint"`
	IdempotentHint  bool `json:"idempotentHint"`
	OpenWorldHint   bool `json:"openWorldHint"`
}

// NewTool converts a capability to its MCP tool. Inputs become properties
// in declaration order, with the capability's MaxLength and Pattern when
// it has them; outputs are not part of a tool's input schema.
func NewTool(c *capability.Capability) Tool {
	s := Schema{Schema: SchemaDialect, Type: "object", Required: []string{}}
	for _, p := range c.Input {
		s.Properties = append(s.Properties, Property{
			Name: p.Name, Type: p.Type, Description: p.Description,
			MaxLength: p.MaxLength, Pattern: p.Pattern,
		})
		if p.Required {
			s.Required = append(s.Required, p.Name)
		}
	}
	a := c.Annotations
	return Tool{
		Name:        c.ID,
		Title:       a.Title,
		Description: c.Description,
		InputSchema: s,
		Annotations: ToolAnnotations{
			ReadOnlyHint:    a.ReadOnly,
			DestructiveHint: a.Destructive,
			IdempotentHint:  a.Idempotent,
			OpenWorldHint:   a.OpenWorld,
		},
	}
}

// Tools converts capabilities to MCP tools, in the order given: a
// registry's (Registry.All) or a parsed descriptor's
// (File.Capabilities).
func Tools(caps []*capability.Capability) []Tool {
	tools := make([]Tool, len(caps))
	for i, c := range caps {
		tools[i] = NewTool(c)
	}
	return tools
}
