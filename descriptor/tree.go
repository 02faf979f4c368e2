package descriptor

import (
	"bytes"
	"iter"
	"math"
	"strings"

	"github.com/beevik/etree"
)

// tree is a loaded XML document: an etree element tree plus where each
// element starts in the source. etree does not record positions, and lint
// findings need them, so load builds the tree itself from one pass of the
// package's own XML scanner (xmlscan.go) and notes each start tag on the
// way. The scanner replaced encoding/xml, whose byte-at-a-time reads and
// per-token allocations were most of the time of a lint.
//
// The positions are in a slice in document order rather than a map keyed
// by element: a walk carries each element's index in a [node], which
// costs nothing, where a map costs a hash and an entry per element.
//
// The attributes of the elements carry no back-pointer to their element
// (load sets them directly, because etree's CreateAttr is linear in the
// number of attributes), so Attr.Element and Attr.NamespaceURI must not be
// used on them; namespaceOf resolves prefixes instead. Names and most
// values are substrings of one copy of the document, so the tree, and
// whatever keeps one of its strings, keeps that copy alive.
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

// load parses data into a tree. It fails on malformed XML: what the
// scanner rejects, and what only the whole document shows, which is
// mismatched or unclosed tags, duplicate attributes, a second root
// element, text outside the root and a DOCTYPE after it.
func load(data []byte) (*tree, *xmlError) {
	if len(data) > math.MaxInt32 {
		return nil, &xmlError{1, 1, "the file is larger than 2 GiB"}
	}
	s := newScanner(data)
	// Every element starts with a '<', so their count bounds the spans:
	// counting them is much cheaper than growing the slice.
	t := &tree{data: data, spans: make([]span, 0, strings.Count(s.src, "<"))}
	var open []node
	doctype := false
	for {
		kind, err := s.next()
		if err != nil {
			return nil, err
		}
		switch kind {
		case tokStart:
			if len(open) == 0 && t.root.Element != nil {
				return nil, s.errAt(s.start, "a second root element <%s> follows </%s>; an XML document has exactly one root", s.qname, t.root.FullTag())
			}
			e, err := s.element()
			if err != nil {
				return nil, err
			}
			n := node{e, len(t.spans)}
			line, col := s.position(s.start)
			t.spans = append(t.spans, span{off: int32(s.start), end: int32(s.pos), line: int32(line), col: int32(col), size: 1})
			if len(open) == 0 {
				t.root = n
			} else {
				open[len(open)-1].AddChild(e)
			}
			if !s.empty {
				open = append(open, n)
			}
		case tokEnd:
			if len(open) == 0 {
				return nil, s.errAt(s.start, "</%s> closes an element that was never opened", s.qname)
			}
			top := open[len(open)-1]
			if top.Space != s.name.space || top.Tag != s.name.local {
				return nil, s.errAt(s.start, "<%s> (line %d) is closed by </%s>", top.FullTag(), t.spans[top.i].line, s.qname)
			}
			t.spans[top.i].size = int32(len(t.spans) - top.i)
			open = open[:len(open)-1]
		case tokText:
			// Text inside elements means nothing in a descriptor or a
			// manifest, so it is not kept. Outside the root it is an error.
			if len(open) == 0 && !s.space {
				return nil, s.errAt(s.start, "text outside the root element")
			}
		case tokDoctype:
			if t.root.Element != nil || doctype {
				return nil, s.errAt(s.start, "a DOCTYPE may only come once, before the root element")
			}
			doctype = true
		case tokEOF:
			if len(open) > 0 {
				top := open[len(open)-1]
				return nil, s.errAt(len(s.src), "the file ends before <%s> (line %d) is closed", top.FullTag(), t.spans[top.i].line)
			}
			if t.root.Element == nil {
				return nil, &xmlError{1, 1, "the file has no root element"}
			}
			return t, nil
		}
	}
}

// element makes an unattached element of the start tag s has read. It
// rejects a repeated attribute, which XML forbids and the scanner, which
// sees one attribute at a time, does not check.
func (s *scanner) element() (*etree.Element, *xmlError) {
	e := etree.NewElement(s.qname) // which splits it as s.name is
	e.Attr = make([]etree.Attr, len(s.attrs))
	var seen map[xmlName]bool // only for elements with many attributes
	if len(s.attrs) > 8 {
		seen = make(map[xmlName]bool, len(s.attrs))
	}
	for i, a := range s.attrs {
		dup := false
		if seen != nil {
			dup = seen[a.name]
			seen[a.name] = true
		} else {
			for _, b := range s.attrs[:i] {
				dup = dup || b.name == a.name
			}
		}
		if dup {
			return nil, s.errAt(a.off, "attribute %s appears twice in <%s>; keep one", a.name, s.qname)
		}
		e.Attr[i] = etree.Attr{Space: a.name.space, Key: a.name.local, Value: a.value}
	}
	return e, nil
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
// load has accepted. It steps over quoted values, so text inside
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
	s := newScanner(data)
	for {
		kind, err := s.next()
		switch {
		case err != nil || kind == tokEOF:
			return ""
		case kind == tokStart:
			return s.qname
		}
	}
}
