package xmlfile

import (
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
)

// rootTag is a descriptor's root element.
const rootTag = "mobile-mcp-capabilities"

// ParseError is a problem that stops Parse: malformed XML, or a document
// that is not a descriptor.
type ParseError struct {
	// Line and Column locate the problem, 1-based (Column in bytes).
	Line, Column int
	// Msg says what is wrong.
	Msg string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Load reads the XML text of a descriptor, or of any XML document, into
// its element tree, which descriptor.Read checks; what is deeper than
// descriptor.MaxDepth is left out, as the Tool SDK leaves it out of a
// compiled resource. It fails only when data is not well-formed XML.
func Load(data []byte) (*descriptor.Element, error) {
	t, fatal := open(data)
	if fatal != nil {
		return nil, &ParseError{Line: fatal.Line, Column: fatal.Column, Msg: fatal.Message}
	}
	return t.element(t.root, 1), nil
}

// TreeJSON returns the JSON form of the element tree of data, a
// descriptor's XML text (see descriptor.DecodeTree): what the Tool SDK
// hands the engine once Android has compiled the file into a resource,
// which keeps each element's line and each name's namespace, but no
// namespace declaration, prefix or column. Tests, benchmarks and tools
// that start an engine from a descriptor's text use it. It fails when
// data is not well-formed XML.
func TreeJSON(data []byte) ([]byte, error) {
	root, err := Load(data)
	if err != nil {
		return nil, err
	}
	var compiled func(e *descriptor.Element) *descriptor.Element
	compiled = func(e *descriptor.Element) *descriptor.Element {
		out := &descriptor.Element{Name: e.Name, Space: e.Space, Line: e.Line}
		for _, a := range e.Attrs {
			if a.Prefix != "xmlns" && !(a.Prefix == "" && a.Name == "xmlns") {
				out.Attrs = append(out.Attrs, a)
			}
		}
		for _, c := range e.Children {
			out.Children = append(out.Children, compiled(c))
		}
		return out
	}
	return json.Marshal(compiled(root))
}

// Parse reads a descriptor. It fails only when data is not well-formed XML
// or its root element is not <mobile-mcp-capabilities>; otherwise it reads
// what the file says without judging it (a missing attribute is empty, a
// required other than "true" is false). Use [Lint] to judge it.
func Parse(data []byte) (*descriptor.File, error) {
	root, err := Load(data)
	if err != nil {
		return nil, err
	}
	file, findings := descriptor.Lint("", root, nil)
	for _, f := range findings {
		if f.Rule == "root-element" || f.Rule == ruleNotDescriptor.ID {
			return nil, &ParseError{Line: f.Line, Column: f.Column, Msg: f.Message}
		}
	}
	return file, nil
}

// ParseChecked parses data, the descriptor called name in messages, and
// refuses one with lint errors, listing them as mobilemcp lint does (see
// descriptor.Check).
func ParseChecked(name string, data []byte) (*descriptor.File, error) {
	root, err := Load(data)
	if err != nil {
		return nil, fmt.Errorf("its descriptor has errors:\n  %s", Lint(name, data, nil)[0])
	}
	return descriptor.Check(name, root, &descriptor.ReadOptions{Pattern: CheckPattern})
}

// CheckPattern reports why pattern, an mcp:pattern value, is not a
// regular expression (Go's, RE2's syntax), or nil. Lint, the gateway and
// the tool engine of the host tests check patterns with it
// (descriptor.ReadOptions).
func CheckPattern(pattern string) error {
	_, err := regexp.Compile(pattern)
	return err
}
