package descriptor

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"strings"

	"github.com/beevik/etree"
)

// tree is a loaded XML document: an etree element tree plus where each
// element starts in the source. etree does not record positions, and lint
// findings need them, so load builds the tree itself from one pass of
// encoding/xml and notes each start tag on the way.
//
// The positions are in a slice in document order rather than a map keyed
// by element: a walk carries each element's index in a [node], which
// costs nothing, where a map costs a hash and an entry per element.
//
// The attributes of the elements carry no back-pointer to their element
// (load appends them directly, because etree's CreateAttr is linear in the
// number of attributes), so Attr.Element and Attr.NamespaceURI must not be
// used on them; namespaceOf resolves prefixes instead.
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
// because load refuses larger files, which halves the size of a span.
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

// load parses data into a tree. It fails on malformed XML, including what
// encoding/xml's raw tokens let through: mismatched or unclosed tags,
// duplicate attributes, a second root element and text outside the root.
func load(data []byte) (*tree, *xmlError) {
	if len(data) > math.MaxInt32 {
		return nil, &xmlError{1, 1, "the file is larger than 2 GiB"}
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = func(string, io.Reader) (io.Reader, error) {
		// Android's resource compiler reads UTF-8; so does this reader.
		return nil, errors.New(`only UTF-8 is supported; save the file as UTF-8 and declare encoding="utf-8"`)
	}
	t := &tree{data: data}
	var open []node
	for {
		off := int32(d.InputOffset())
		line, col := d.InputPos()
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, decodeError(d, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if len(open) == 0 && t.root.Element != nil {
				return nil, &xmlError{line, col, fmt.Sprintf("a second root element <%s> follows </%s>; an XML document has exactly one root", qname(tok.Name), t.root.FullTag())}
			}
			e, err := newElement(tok)
			if err != nil {
				return nil, &xmlError{line, col, err.Error()}
			}
			n := node{e, len(t.spans)}
			t.spans = append(t.spans, span{off: off, end: int32(d.InputOffset()), line: int32(line), col: int32(col)})
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

// newElement makes an unattached element for a start tag. It rejects a
// repeated attribute, which XML forbids and encoding/xml lets through.
func newElement(tok xml.StartElement) (*etree.Element, error) {
	e := etree.NewElement(qname(tok.Name))
	e.Attr = make([]etree.Attr, 0, len(tok.Attr))
	var seen map[xml.Name]bool // only for elements with many attributes
	if len(tok.Attr) > 8 {
		seen = make(map[xml.Name]bool, len(tok.Attr))
	}
	for i, a := range tok.Attr {
		dup := false
		if seen != nil {
			dup = seen[a.Name]
			seen[a.Name] = true
		} else {
			for _, b := range tok.Attr[:i] {
				dup = dup || b.Name == a.Name
			}
		}
		if dup {
			return nil, fmt.Errorf("attribute %s appears twice in <%s>; keep one", qname(a.Name), qname(tok.Name))
		}
		e.Attr = append(e.Attr, etree.Attr{Space: a.Name.Space, Key: a.Name.Local, Value: a.Value})
	}
	return e, nil
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

// attrPos returns the line and column of the attribute key (written with
// its prefix, if any) in e's start tag, or the position of the tag when
// the attribute is not there.
func (t *tree) attrPos(e node, key string) (line, col int) {
	s := t.spans[e.i]
	off, ok := findAttr(t.data[s.off:s.end], key)
	if !ok {
		return int(s.line), int(s.col)
	}
	before := t.data[int(s.off) : int(s.off)+off]
	if nl := bytes.LastIndexByte(before, '\n'); nl >= 0 {
		return int(s.line) + bytes.Count(before, []byte{'\n'}), off - nl
	}
	return int(s.line), int(s.col) + off
}

// findAttr returns the offset of attribute key in a start tag that
// encoding/xml has accepted. It steps over quoted values, so text inside
// another attribute's value never matches.
func findAttr(tag []byte, key string) (int, bool) {
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
			return 0, false // at "/>" or ">"
		}
		if string(tag[start:i]) == key {
			return start, true
		}
		q := bytes.IndexAny(tag[i:], `"'`)
		if q < 0 {
			return 0, false
		}
		i += q
		end := bytes.IndexByte(tag[i+1:], tag[i])
		if end < 0 {
			return 0, false
		}
		i += end + 2
	}
	return 0, false
}

func isSpaceByte(b byte) bool { return b == ' ' || b == '\t' || b == '\r' || b == '\n' }

// namespaceOf returns the namespace URI that prefix is bound to at e, or ""
// when it is not bound.
func namespaceOf(e *etree.Element, prefix string) string {
	for ; e != nil; e = e.Parent() {
		for _, a := range e.Attr {
			if a.Space == "xmlns" && a.Key == prefix {
				return a.Value
			}
		}
	}
	return ""
}

// rootName returns the name of the root element of an XML document, as
// written, or "" when there is none before the first syntax error. It reads
// only as far as the root's start tag.
func rootName(data []byte) string {
	d := xml.NewDecoder(bytes.NewReader(data))
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
