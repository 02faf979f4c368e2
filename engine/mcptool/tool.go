// Package mcptool converts capabilities to MCP tool definitions, as an MCP
// server's tools/list returns them: the name, title and description, the
// JSON Schema of the arguments (InputSchema) and of the structured result
// (OutputSchema), and the behaviour hints in MCP's names.
//
//	tools := mcptool.Tools(registry.All())
//	data, _ := json.Marshal(map[string]any{"tools": tools})
//
// The MCP server and mobilemcp tools use it, and the Java client library's
// conversion is held equal to it. It is apart from the descriptor package
// so that the engine every tool app ships, which serves no MCP, does not
// carry the JSON Schema library.
package mcptool

import (
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// Tool is an MCP tool definition, as tools/list returns it.
type Tool struct {
	// Name is the capability's id.
	Name string `json:"name"`
	// Title is the capability's title for people, when it has one.
	Title string `json:"title,omitempty"`
	// Description is the capability's description.
	Description string `json:"description"`
	// InputSchema is the JSON Schema of its arguments.
	InputSchema Schema `json:"inputSchema"`
	// Annotations are its behaviour hints, in MCP's names.
	Annotations ToolAnnotations `json:"annotations"`
}

// Schema is the JSON Schema of a tool's arguments or of its structured
// result: an object with exactly the declared properties, in JSON Schema
// 2020-12, MCP's dialect. It names no "$schema": MCP reads a schema
// without one as 2020-12, and Gemini's function declarations refuse the
// keyword (docs/reference/descriptor.md, "Schemas that models accept").
//
// The properties are jsonschema-go schemas, but the object is not one: a
// jsonschema.Schema leaves out an empty "required", which the Android SMS
// MCP server's tools/list writes as [].
type Schema struct {
	// Type is always "object".
	Type string `json:"type"`
	// Properties are the declared params, in their declared order.
	Properties Properties `json:"properties"`
	// Required is never nil, so it is written as [] when nothing is
	// required, as the Android SMS MCP server writes it.
	Required []string `json:"required"`
	// AdditionalProperties is false: the engine rejects unknown
	// arguments, so a misspelt name fails rather than being ignored.
	AdditionalProperties bool `json:"additionalProperties"`
}

// Property is one property of a Schema: a param's name and its schema.
type Property struct {
	// Name is the param's name.
	Name string
	// Schema is the param's JSON Schema: its type, description and limits.
	Schema *jsonschema.Schema
}

// ToolAnnotations are MCP's behaviour hints. All four are always written,
// because MCP reads an absent destructiveHint or openWorldHint as true.
type ToolAnnotations struct {
	// ReadOnlyHint is capability.Annotations.ReadOnly.
	ReadOnlyHint bool `json:"readOnlyHint"`
	// DestructiveHint is capability.Annotations.IsDestructive.
	DestructiveHint bool `json:"destructiveHint"`
	// IdempotentHint is capability.Annotations.Idempotent.
	IdempotentHint bool `json:"idempotentHint"`
	// OpenWorldHint is capability.Annotations.IsOpenWorld.
	OpenWorldHint bool `json:"openWorldHint"`
}

// NewTool converts a capability to its MCP tool, with the input schema
// of [InputSchema]. The tool has no output schema: the Java client
// library's conversion, which must equal this one, has none. The MCP
// server adds [OutputSchema].
//
// What a model reads of it holds no character a person cannot see: the
// title is made one line and the descriptions, the param descriptions
// too, lose their invisible characters (internal/text), which could
// carry instructions that the user never reads.
func NewTool(c *capability.Capability) Tool {
	a := c.Annotations
	return Tool{
		Name:        c.ID,
		Title:       VisibleTitle(a.Title),
		Description: text.StripInvisible(c.Description),
		InputSchema: InputSchema(c),
		Annotations: ToolAnnotations{
			ReadOnlyHint:    a.ReadOnly,
			DestructiveHint: a.IsDestructive(),
			IdempotentHint:  a.Idempotent,
			OpenWorldHint:   a.IsOpenWorld(),
		},
	}
}

// InputSchema is the schema of c's arguments: its input params as
// properties in declaration order, each with its type, description,
// MaxLength and Pattern, and the required ones in Required.
func InputSchema(c *capability.Capability) Schema {
	return objectSchema(c.Input, func(p capability.Param) bool { return p.Required })
}

// OutputSchema is the schema of the structured result of a successful
// call of c: its output params, every one of them required, because a
// handler returns exactly the declared outputs.
func OutputSchema(c *capability.Capability) Schema {
	return objectSchema(c.Output, func(capability.Param) bool { return true })
}

// objectSchema is the one conversion of params to a schema, for inputs
// and outputs alike.
func objectSchema(params []capability.Param, required func(capability.Param) bool) Schema {
	s := Schema{Type: "object", Properties: Properties{}, Required: []string{}}
	for _, p := range params {
		prop := &jsonschema.Schema{Type: string(p.Type), Description: text.StripInvisible(p.Description), Pattern: p.Pattern}
		if p.MaxLength > 0 {
			prop.MaxLength = &p.MaxLength
		}
		if p.Type == capability.Array {
			prop.Items = itemsSchema(p.Items)
		}
		s.Properties = append(s.Properties, Property{Name: p.Name, Schema: prop})
		if required(p) {
			s.Required = append(s.Required, p.Name)
		}
	}
	return s
}

// itemsSchema is the items of an array whose elements are of type t:
// {"type": t}, or the empty schema, any value, when t is "" (written as
// {}, see Properties.MarshalJSON). Every array has items, because models'
// function calling (Gemini's and OpenAI's strict mode) refuses an array
// without them, and with it the whole tool list; an array of arrays has
// items in turn.
func itemsSchema(t capability.Type) *jsonschema.Schema {
	items := &jsonschema.Schema{Type: string(t)}
	if t == capability.Array {
		items.Items = &jsonschema.Schema{}
	}
	return items
}

// VisibleTitle is title as a model may read it: on one line, without
// invisible characters, and trimmed.
func VisibleTitle(title string) string {
	return strings.TrimSpace(text.InvisibleLine(title))
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
