package xmlfile

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"regexp"
	"strings"

	"github.com/beevik/etree"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// tree is a loaded XML document: an etree element tree plus where each
// element starts in the source. etree does not record positions, and lint
// findings need them, so load builds the tree itself from one pass of
// encoding/xml's RawToken and notes each start tag on the way. The checks
// read it as a descriptor.Element tree (tree.element), which has the
// positions and each prefix's namespace.
//
// The positions are in a slice in document order rather than a map keyed
// by element: a walk carries each element's index in a [node], and
// children are found from the sizes of the subtrees before them.
type tree struct {
	data  []byte
	root  node
	spans []span // of every element, in document order
}

// node is an element of a tree and its index in document order, where its
// span is. Walks get children from tree.children, which keeps the index.
type node struct {
	*etree.Element
	i int
}

// span locates the start tag of an element. Offsets fit in 32 bits
// because load refuses larger files.
type span struct {
	off, end  int32 // byte offsets of its '<' and just past its '>'
	line, col int32 // of its '<', 1-based; col counts bytes
	size      int32 // the elements in its subtree, itself included
}

// xmlError is why a document could not be loaded, and where.
type xmlError struct {
	line, col int
	msg       string
}

const bom = "\ufeff"

// load parses data into a tree. It fails on malformed XML: what
// encoding/xml rejects; what its raw tokens let through, which is
// mismatched or unclosed tags, duplicate attributes, a second root element
// and text outside the root; and the few things encoding/xml accepts but
// Android's resource compiler (aapt2) rejects that a hand-written
// descriptor may well contain (see checkProcInst and checkStartTag).
func load(data []byte) (*tree, *xmlError) {
	if len(data) > math.MaxInt32 {
		return nil, &xmlError{1, 1, "the file is larger than 2 GiB"}
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = func(string, io.Reader) (io.Reader, error) {
		// Android's resource compiler reads UTF-8; so does this reader.
		return nil, errors.New(`only UTF-8 is supported; save the file as UTF-8 and declare encoding="utf-8"`)
	}
	// Every element starts with a '<', so their count bounds the spans;
	// counting is cheaper than growing the slice.
	t := &tree{data: data, spans: make([]span, 0, bytes.Count(data, []byte("<")))}
	var open []node
	for {
		off := d.InputOffset()
		line, col := d.InputPos()
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, decodeError(d, err)
		}
		raw := data[off:d.InputOffset()]
		switch tok := tok.(type) {
		case xml.StartElement:
			if len(open) == 0 && t.root.Element != nil {
				return nil, &xmlError{line, col, fmt.Sprintf("a second root element <%s> follows </%s>; an XML document has exactly one root", qname(tok.Name), t.root.FullTag())}
			}
			if err := checkStartTag(tok, raw, line, col); err != nil {
				return nil, err
			}
			e, err := newElement(tok)
			if err != nil {
				return nil, &xmlError{line, col, err.Error()}
			}
			n := node{e, len(t.spans)}
			t.spans = append(t.spans, span{off: int32(off), end: int32(d.InputOffset()), line: int32(line), col: int32(col)})
			if len(open) == 0 {
				t.root = n
			} else {
				open[len(open)-1].AddChild(e)
			}
			open = append(open, n)
		case xml.EndElement:
			if len(open) == 0 {
				return nil, &xmlError{line, col, fmt.Sprintf("</%s> closes an element that was never opened", qname(tok.Name))}
			}
			top := open[len(open)-1]
			if top.Space != tok.Name.Space || top.Tag != tok.Name.Local {
				return nil, &xmlError{line, col, fmt.Sprintf("<%s> (line %d) is closed by </%s>", top.FullTag(), t.spans[top.i].line, qname(tok.Name))}
			}
			t.spans[top.i].size = int32(len(t.spans) - top.i)
			open = open[:len(open)-1]
		case xml.CharData:
			// Text inside elements means nothing in a descriptor or a
			// manifest, so it is not kept. Outside the root it is an error.
			if len(open) == 0 && !isSpace(tok, off == 0) {
				return nil, &xmlError{line, col, "text outside the root element"}
			}
		case xml.ProcInst:
			if err := checkProcInst(tok, raw, off, data, line, col); err != nil {
				return nil, err
			}
		}
	}
	if len(open) > 0 {
		line, col := d.InputPos()
		top := open[len(open)-1]
		return nil, &xmlError{line, col, fmt.Sprintf("the file ends before <%s> (line %d) is closed", top.FullTag(), t.spans[top.i].line)}
	}
	if t.root.Element == nil {
		return nil, &xmlError{1, 1, "the file has no root element"}
	}
	return t, nil
}

// maxAttrs bounds the attributes of one element. Android's elements have a
// few dozen at most. It bounds what is still quadratic in them, which
// little is: the check for a repeated attribute uses a map, newElement
// does not let etree search the attributes for each new one, and the
// positions of the attributes come from one scan of the tag (tree.element).
const maxAttrs = 256

// newElement makes an unattached element for a start tag. It rejects a
// repeated attribute, which XML forbids and encoding/xml lets through
// (and etree's CreateAttr would silently merge).
func newElement(tok xml.StartElement) (*etree.Element, error) {
	if len(tok.Attr) > maxAttrs {
		return nil, fmt.Errorf("<%s> has %d attributes; lint reads elements of at most %d, and no descriptor or manifest needs more", qname(tok.Name), len(tok.Attr), maxAttrs)
	}
	e := etree.NewElement(tok.Name.Local)
	e.Space = tok.Name.Space
	e.Attr = make([]etree.Attr, 0, len(tok.Attr))
	seen := make(map[xml.Name]bool, len(tok.Attr))
	for i, a := range tok.Attr {
		if seen[a.Name] {
			return nil, fmt.Errorf("attribute %s appears twice in <%s>; keep one", qname(a.Name), qname(tok.Name))
		}
		seen[a.Name] = true
		if i == 0 {
			e.CreateAttr(qname(a.Name), a.Value)
			continue
		}
		// CreateAttr looks through the attributes for one to replace,
		// which the map has ruled out; 256 of them made that 32,000
		// comparisons an element. A copy of the first keeps what etree
		// set in it, the element that namespace lookups start from.
		attr := e.Attr[0]
		attr.Space, attr.Key, attr.Value = a.Name.Space, a.Name.Local, a.Value
		e.Attr = append(e.Attr, attr)
	}
	return e, nil
}

// xmlDeclaration is the grammar of the XML declaration: version 1.0, then
// optionally an encoding, then optionally standalone, and nothing else.
// encoding/xml only looks for version= and encoding= somewhere in it.
var xmlDeclaration = regexp.MustCompile(`^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*("1\.0"|'1\.0')` +
	`([ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*("[A-Za-z][A-Za-z0-9._-]*"|'[A-Za-z][A-Za-z0-9._-]*'))?` +
	`([ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*("(yes|no)"|'(yes|no)'))?[ \t\r\n]*\?>$`)

// checkProcInst rejects what encoding/xml accepts of an XML declaration
// and aapt2 does not: one that is not the very first thing in the file (a
// licence comment or a blank line before it is the usual cause), a
// target such as XML or Xml, and one that does not follow the grammar.
// raw is the instruction as written, off its offset in data.
func checkProcInst(tok xml.ProcInst, raw []byte, off int64, data []byte, line, col int) *xmlError {
	if !strings.EqualFold(tok.Target, "xml") {
		return nil
	}
	first := off == 0 || (off == int64(len(bom)) && bytes.HasPrefix(data, []byte(bom)))
	if tok.Target != "xml" || !first {
		return &xmlError{line, col, fmt.Sprintf(`<?%s is reserved for the XML declaration <?xml version="1.0"?>, which may only be the first thing in the file`, tok.Target)}
	}
	if !xmlDeclaration.Match(raw) {
		return &xmlError{line, col, fmt.Sprintf(`malformed XML declaration %s; write <?xml version="1.0" encoding="utf-8"?>`, text.Excerpt(string(raw)))}
	}
	return nil
}

// checkStartTag rejects what encoding/xml accepts of a start tag and aapt2
// does not: a name with a colon at its start or end, which encoding/xml
// reads as a name without a prefix (it rejects two colons itself), and
// attributes that are not separated by white space, such as
// name="to"type="string". raw is the tag as written, at line and col.
func checkStartTag(tok xml.StartElement, raw []byte, line, col int) *xmlError {
	for i := -1; i < len(tok.Attr); i++ {
		name := tok.Name
		if i >= 0 {
			name = tok.Attr[i].Name
		}
		if strings.Contains(name.Local, ":") {
			return &xmlError{line, col, fmt.Sprintf("invalid XML name %q: a colon in a name separates a namespace prefix from a local name, as in android:name", name.Local)}
		}
	}
	// encoding/xml has accepted the tag, so quotes in it only delimit
	// attribute values, and each closing quote must be followed by
	// white space, "/" or ">".
	for i := 0; ; {
		open := bytes.IndexAny(raw[i:], `"'`)
		if open < 0 {
			return nil
		}
		open += i
		i = open + 1 + bytes.IndexByte(raw[open+1:], raw[open]) + 1 // past the closing quote
		if i >= len(raw) {
			return nil // cannot happen in a tag encoding/xml accepted
		}
		if next := raw[i]; !isSpaceByte(next) && next != '/' && next != '>' {
			at, atCol := advance(line, col, raw[:i])
			name, _, _ := bytes.Cut(raw[i:], []byte("="))
			return &xmlError{at, atCol, fmt.Sprintf("attribute %s must be separated from what comes before it by white space", bytes.TrimRight(name, " \t\r\n"))}
		}
	}
}

// decodeError turns an encoding/xml error into one that names the place.
func decodeError(d *xml.Decoder, err error) *xmlError {
	line, col := d.InputPos()
	msg := err.Error()
	if se, ok := errors.AsType[*xml.SyntaxError](err); ok {
		msg = se.Msg
	}
	return &xmlError{line, col, strings.TrimPrefix(msg, "xml: ")}
}

// isSpace reports whether text is only XML white space; a byte order mark
// is allowed at the very start of the file.
func isSpace(text []byte, atStart bool) bool {
	if atStart {
		text = bytes.TrimPrefix(text, []byte(bom))
	}
	return len(bytes.Trim(text, " \t\r\n")) == 0
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// children iterates over the child elements of e. A child's index is its
// parent's plus one plus the sizes of the subtrees before it.
func (t *tree) children(e node) iter.Seq[node] {
	return func(yield func(node) bool) {
		i := e.i + 1
		for c := range e.ChildElementsSeq() {
			if !yield(node{c, i}) {
				return
			}
			i += int(t.spans[i].size)
		}
	}
}

// pos returns the line and column of e's start tag.
func (t *tree) pos(e node) (line, col int) {
	s := t.spans[e.i]
	return int(s.line), int(s.col)
}

// element returns e and its subtree as descriptor Elements: each name with
// its prefix and namespace, each start tag and attribute with its line and
// column. depth is e's, the root's 1; what is below descriptor.MaxDepth is
// left out, as the Tool SDK leaves it out of a compiled resource's tree.
func (t *tree) element(e node, depth int) *descriptor.Element {
	line, col := t.pos(e)
	out := &descriptor.Element{Name: e.Tag, Prefix: e.Space, Space: e.NamespaceURI(), Line: line, Column: col}
	if len(e.Attr) > 0 {
		out.Attrs = make([]descriptor.Attr, len(e.Attr))
		for i, a := range e.Attr {
			out.Attrs[i] = descriptor.Attr{Name: a.Key, Prefix: a.Space, Value: a.Value, Line: line, Column: col}
			switch a.Space {
			case "", "xmlns":
			case "xml": // bound by XML itself, never declared
				out.Attrs[i].Space = "http://www.w3.org/XML/1998/namespace"
			default:
				out.Attrs[i].Space = a.NamespaceURI()
			}
		}
		// The attributes of a start tag come in the order written, so the
		// i-th name in the tag is the i-th attribute.
		s := t.spans[e.i]
		tag := t.data[s.off:s.end]
		i, last := 0, 0
		forEachAttr(tag, func(_ []byte, off int) {
			if i < len(out.Attrs) {
				line, col = advance(line, col, tag[last:off])
				last = off
				out.Attrs[i].Line, out.Attrs[i].Column = line, col
				i++
			}
		})
	}
	if depth < descriptor.MaxDepth {
		for c := range t.children(e) {
			out.Children = append(out.Children, t.element(c, depth+1))
		}
	}
	return out
}

// advance returns the position just past text, which starts at line and
// col.
func advance(line, col int, text []byte) (int, int) {
	if nl := bytes.LastIndexByte(text, '\n'); nl >= 0 {
		return line + bytes.Count(text, []byte{'\n'}), len(text) - nl
	}
	return line, col + len(text)
}

// forEachAttr calls fn with the name and offset of each attribute of a
// start tag that encoding/xml has accepted, in order. It steps over quoted
// values, so text inside a value is never taken for a name.
func forEachAttr(tag []byte, fn func(key []byte, off int)) {
	i := bytes.IndexAny(tag, " \t\r\n") // past '<' and the element name
	for i >= 0 && i < len(tag) {
		for i < len(tag) && isSpaceByte(tag[i]) {
			i++
		}
		start := i
		for i < len(tag) && tag[i] != '=' && !isSpaceByte(tag[i]) && tag[i] != '/' && tag[i] != '>' {
			i++
		}
		if i == start {
			return // at "/>" or ">"
		}
		fn(tag[start:i], start)
		q := bytes.IndexAny(tag[i:], `"'`)
		if q < 0 {
			return
		}
		i += q
		end := bytes.IndexByte(tag[i+1:], tag[i])
		if end < 0 {
			return
		}
		i += end + 2
	}
}

func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// rootName returns the name of the root element of an XML document, as
// written, or "" when there is none before the first syntax error. It reads
// only as far as the root's start tag.
func rootName(r io.Reader) string {
	d := xml.NewDecoder(r)
	for {
		tok, err := d.RawToken()
		if err != nil {
			return ""
		}
		if start, ok := tok.(xml.StartElement); ok {
			return qname(start.Name)
		}
	}
}
