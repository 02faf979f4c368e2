// Package descriptor reads, checks and writes mcp_capabilities.xml, the
// capability descriptor of the Mobile-MCP spec §1.2 that assistants read to
// learn what a Mobile-MCP tool can do, and converts capabilities to MCP tool
// definitions:
//
//	for _, f := range descriptor.Lint("res/xml/mcp_capabilities.xml", data, nil) {
//		fmt.Println(f) // res/xml/mcp_capabilities.xml:5: warning: ... [type-synonym]
//	}
//
// [Parse] reads a descriptor into [Spec]s that keep their line numbers.
// [Lint] checks a descriptor or an AndroidManifest.xml against the spec and
// reports [Finding]s. [Render] writes the descriptor of a capability
// registry, and [Tools] converts capabilities to MCP tools.
//
// The format carries only what the spec defines, plus mobilemcp's behaviour
// hints as attributes in their own XML namespace ([Namespace]), which
// other readers ignore. docs/reference/descriptor.md describes the format and the
// lint rules.
package descriptor

import (
	"fmt"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// The element names of the Mobile-MCP spec §1.2.
const (
	rootTag       = "mobile-mcp-capabilities"
	capabilityTag = "capability"
	inputTag      = "input"
	outputTag     = "output"
	paramTag      = "param"
)

// Namespace is the XML namespace of mobilemcp's extension attributes: a
// capability's title and its behaviour hints (readOnly, destructive,
// idempotent, openWorld). Render binds it to the prefix "mcp".
const Namespace = "https://mobilemcp.github.io/ns"

// File is a parsed capability descriptor.
type File struct {
	Version string // the root element's version attribute
	Specs   []Spec // in file order
}

// Spec is one <capability> element as the file declares it.
type Spec struct {
	// ID is the id attribute: the capability's id and MCP tool name.
	ID string
	// Description is the description attribute.
	Description string
	// Version is the version attribute.
	Version string
	// Input holds the <param> elements of <input>, in file order.
	Input []Param
	// Output holds the <param> elements of <output>, in file order.
	Output []Param
	// Annotations come from the mcp: attributes. A hint the file leaves
	// out takes MCP's default, which assumes the worst: destructive and
	// open-world, neither read-only nor idempotent.
	Annotations capability.Annotations
	// Timeout is the mcp:timeout deadline, or zero for the engine's default.
	Timeout time.Duration
	// Line is the line of the <capability> start tag, for findings.
	Line int
}

// Param is one <param> element. Type is canonical when the file uses a
// synonym such as "int", and as written when the type is unknown.
// MaxLength and Pattern come from mcp:maxLength and mcp:pattern.
type Param struct {
	capability.Param
	// Line is the line of the <param> start tag, for findings.
	Line int
}

// ParseError is a problem that stops Parse: malformed XML, or a document
// that is not a descriptor.
type ParseError struct {
	// Line and Column locate the problem, 1-based (Column in bytes).
	Line, Column int
	// Msg says what is wrong.
	Msg string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Parse reads a descriptor. It fails only when data is not well-formed XML
// or its root element is not <mobile-mcp-capabilities>; otherwise it reads
// what the file says without judging it (a missing attribute is empty, a
// required other than "true" is false). Use [Lint] to judge it.
func Parse(data []byte) (*File, error) {
	r, fatal := read(data)
	if fatal != nil {
		return nil, &ParseError{Line: fatal.Line, Column: fatal.Column, Msg: fatal.Message}
	}
	return r.descriptor(), nil
}

// Capability returns the capability s declares, without line numbers.
func (s *Spec) Capability() *capability.Capability {
	return &capability.Capability{
		ID:          s.ID,
		Description: s.Description,
		Version:     s.Version,
		Input:       params(s.Input),
		Output:      params(s.Output),
		Annotations: s.Annotations,
		Timeout:     s.Timeout,
	}
}

func params(ps []Param) []capability.Param {
	if ps == nil {
		return nil
	}
	out := make([]capability.Param, len(ps))
	for i, p := range ps {
		out[i] = p.Param
	}
	return out
}

// Capabilities returns the capabilities f declares, in file order.
func (f *File) Capabilities() []*capability.Capability {
	caps := make([]*capability.Capability, len(f.Specs))
	for i := range f.Specs {
		caps[i] = f.Specs[i].Capability()
	}
	return caps
}
