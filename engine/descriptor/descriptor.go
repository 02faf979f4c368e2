// Package descriptor is the capability descriptor of the Mobile-MCP spec
// §1.2, mcp_capabilities.xml, that assistants read to learn what a
// Mobile-MCP tool can do: what it declares (File, Spec), the rules it must
// follow (Rules, Finding), and the one reading of it (Read, Check), which
// the tool engine every app ships, the gateway and mobilemcp lint share:
//
//	root, err := descriptor.DecodeTree(treeJSON) // the Tool SDK's walk of the compiled resource
//	file, err := descriptor.Check("res/xml/mcp_capabilities.xml", root, nil)
//
// Read and Check take a descriptor already parsed into Elements, and this
// package reads no XML: on a phone the Tool SDK walks the compiled
// resource, as agents read it, and hands the engine the tree as JSON
// (DecodeTree), so that the engine every tool ships carries no XML parser.
// Package xmlfile reads and writes descriptors as XML text, and lints them
// and AndroidManifest.xml, for mobilemcp lint and gen.
//
// The format carries only what the spec defines, plus mobilemcp's behaviour
// hints as attributes in their own XML namespace ([Namespace]), which
// other readers ignore. docs/reference/descriptor.md describes the format
// and docs/reference/lint-rules.md the rules.
package descriptor

import (
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
	// Annotations come from the mcp: attributes. Every hint is set,
	// Destructive and OpenWorld never nil: one the file leaves out takes
	// MCP's default, which assumes the worst: destructive and open-world,
	// neither read-only nor idempotent.
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
