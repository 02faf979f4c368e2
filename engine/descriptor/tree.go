package descriptor

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Element is one element of a descriptor's document, as a parser read it.
// The checks of Read work on Elements, whoever parsed them, so that a
// descriptor means the same, and gets the same findings, however it was
// read:
//
//   - on a phone, the Tool SDK walks the compiled resource with Android's
//     XmlResourceParser, which agents read it with too, and hands the
//     engine the tree as JSON (DecodeTree);
//   - mobilemcp lint, gen and the tests read XML text (package xmlfile).
//
// A compiled resource keeps each start tag's line, and the namespace of
// each name, but no prefix and no column: DecodeTree gives its namespaces
// the prefixes the messages use (mcp for Namespace), and the findings of
// such a tree have no column.
type Element struct {
	// Name is the element's local name, such as "capability".
	Name string `json:"name"`
	// Space is the element's namespace URI; "" for the format's elements.
	Space string `json:"ns,omitempty"`
	// Prefix is the element's prefix as written, or "".
	Prefix string `json:"-"`
	// Line and Column locate the start tag, 1-based (Column in bytes);
	// Column is 0 when the parser does not know it.
	Line   int `json:"line"`
	Column int `json:"-"`
	// Attrs are the attributes of the start tag, in order. XML text's
	// namespace declarations (xmlns:mcp="…") are among them.
	Attrs []Attr `json:"attrs,omitempty"`
	// Children are the child elements, in order.
	Children []*Element `json:"children,omitempty"`
}

// Attr is one attribute of an Element.
type Attr struct {
	// Name is the attribute's local name, such as "readOnly".
	Name string `json:"name"`
	// Space is its namespace URI: Namespace for mobilemcp's own, "" for
	// the format's. It is also "" for a prefix that no declaration binds,
	// which only XML text can have.
	Space string `json:"ns,omitempty"`
	// Prefix is its prefix as written (mcp in mcp:readOnly), or "".
	Prefix string `json:"-"`
	// Value is its value.
	Value string `json:"value"`
	// Line and Column locate it, as Element's do; a compiled resource
	// places every attribute at its element's start tag.
	Line   int `json:"-"`
	Column int `json:"-"`
}

// FullKey is the attribute's name as written: prefix:name, or name.
func (a Attr) FullKey() string {
	if a.Prefix == "" {
		return a.Name
	}
	return a.Prefix + ":" + a.Name
}

// FullTag is the element's name as written: prefix:name, or name.
func (e *Element) FullTag() string {
	if e.Prefix == "" {
		return e.Name
	}
	return e.Prefix + ":" + e.Name
}

// The namespaces XML reserves: xmlns, which declares prefixes, and xml, of
// attributes such as xml:lang.
const (
	xmlnsNS = "http://www.w3.org/2000/xmlns/"
	xmlNS   = "http://www.w3.org/XML/1998/namespace"
	// androidNS is the namespace of Android's own attributes.
	androidNS = "http://schemas.android.com/apk/res/android"
)

// reserved reports whether a belongs to XML itself, a namespace
// declaration or an attribute such as xml:lang, rather than to the format.
func (a Attr) reserved() bool {
	return a.Prefix == "xmlns" || (a.Prefix == "" && a.Name == "xmlns") || a.Prefix == "xml" ||
		a.Space == xmlnsNS || a.Space == xmlNS
}

// MaxTreeBytes bounds the JSON that DecodeTree reads: a descriptor of
// 10,000 capabilities is some 9 MB of XML, and no descriptor is near it.
const MaxTreeBytes = 16 << 20

// MaxDepth bounds how deep the elements of a tree nest, the root being at
// depth 1. The format has four levels (the root, capability, input or
// output, param), and the checks look at one below them, to report an
// element that does not belong there, but never at what such an element
// holds: the Tool SDK and package xmlfile leave out what is deeper.
const MaxDepth = 5

// DecodeTree reads the JSON form of a descriptor's element tree, the form
// in which the Tool SDK hands the engine a compiled resource:
//
//	{"name":"mobile-mcp-capabilities","line":2,
//	 "attrs":[{"name":"version","value":"1.0"}],
//	 "children":[{"name":"capability","line":3,"attrs":[{"ns":"https://mobilemcp.github.io/ns","name":"readOnly","value":"true"}, …]}]}
//
// Each element has its name, its namespace URI ("ns", left out when
// empty), the line of its start tag, its attributes, each with its
// namespace, name and value, and its children. It gives every namespace
// the prefix that messages name it by: mcp for Namespace, android for
// Android's, ns1, ns2 … for others, in the order they first appear, and
// declares them on the root, as the source file would. It fails on data
// that is not such a tree, or is larger than MaxTreeBytes or nested deeper
// than five elements.
func DecodeTree(data []byte) (*Element, error) {
	if len(data) > MaxTreeBytes {
		return nil, fmt.Errorf("the descriptor's tree is %d bytes, over the limit of %d", len(data), MaxTreeBytes)
	}
	var root *Element
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("the descriptor's tree is not the JSON of an element: %w", err)
	}
	if root == nil || root.Name == "" {
		return nil, errors.New("the descriptor's tree has no root element")
	}
	prefixes := map[string]string{} // namespace URI → prefix
	var declare []Attr
	prefix := func(uri string) string {
		if uri == "" {
			return ""
		}
		p, ok := prefixes[uri]
		if !ok {
			switch uri {
			case Namespace:
				p = "mcp"
			case androidNS:
				p = "android"
			default:
				p = "ns" + strconv.Itoa(len(prefixes)+1)
			}
			prefixes[uri] = p
			declare = append(declare, Attr{Space: xmlnsNS, Prefix: "xmlns", Name: p, Value: uri})
		}
		return p
	}
	var walk func(e *Element, depth int) error
	walk = func(e *Element, depth int) error {
		if depth > MaxDepth {
			return fmt.Errorf("the descriptor's tree nests <%s> deeper than %d elements", e.Name, MaxDepth)
		}
		if e.Name == "" {
			return fmt.Errorf("an element of the descriptor's tree at line %d has no name", e.Line)
		}
		e.Prefix = prefix(e.Space)
		for i := range e.Attrs {
			a := &e.Attrs[i]
			a.Prefix = prefix(a.Space)
			a.Line = e.Line
		}
		for _, c := range e.Children {
			if c == nil {
				return fmt.Errorf("<%s> at line %d of the descriptor's tree has a null child", e.Name, e.Line)
			}
			if err := walk(c, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, 1); err != nil {
		return nil, err
	}
	for i := range declare {
		declare[i].Line = root.Line
	}
	root.Attrs = slices.Concat(declare, root.Attrs)
	return root, nil
}

// namespacePrefix returns a prefix that e or one of its ancestors (from
// the root down, in path) binds to uri, or "".
func namespacePrefix(path []*Element, uri string) string {
	for i := len(path) - 1; i >= 0; i-- {
		for _, a := range path[i].Attrs {
			if a.Prefix == "xmlns" && a.Value == uri {
				return a.Name
			}
		}
	}
	return ""
}
