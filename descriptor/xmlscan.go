package descriptor

// This file is the XML tokenizer that load reads documents with. It
// replaced encoding/xml's Decoder.RawToken, which read a byte at a time
// through an interface, copied every name and value into a buffer and
// then into a new string, and allocated each token: about two thirds of
// the time of linting a large descriptor. The scanner here reads the
// document from memory, returns names and plain attribute values as
// substrings of a single copy of it, and counts lines only when a position
// is asked for.
//
// It accepts well-formed XML 1.0 in UTF-8: an XML declaration at the very
// start, comments, processing instructions, a DOCTYPE (skipped, see
// doctype), CDATA sections, character data, tags with attributes in single
// or double quotes, the five predefined entities and character references
// in text and attribute values, and a byte order mark at the start. It is
// stricter than encoding/xml where encoding/xml lets malformed XML
// through and Android's resource compiler (aapt2) does not:
//
//   - the XML declaration must be the first thing in the file and follow
//     its grammar (version, then encoding, then standalone);
//   - processing instruction targets xml, XML, Xml, ... are reserved for it,
//     and a target is followed by white space or ?>;
//   - <! begins only a comment, a CDATA section or a DOCTYPE;
//   - attributes are separated by white space;
//   - a colon in an element or attribute name separates a non-empty prefix
//     from a non-empty local name (encoding/xml takes ":a" and "a:" as
//     names without a prefix);
//   - comments, processing instructions and the DOCTYPE contain only
//     characters XML allows, in valid UTF-8 (encoding/xml checks only text
//     and attribute values);
//   - a character reference to a surrogate, &#xD800; to &#xDFFF;, is an
//     error (encoding/xml turns it into U+FFFD).
//
// Names may use any character of the NameChar production of XML 1.0's
// fifth edition, the current one. encoding/xml and aapt2 (expat) use the
// older tables of the earlier editions, which the fifth edition's include,
// so they reject some names this accepts, such as <Ĳ/> or <😀/>. Resource
// files have none, and lint reports one in a descriptor as an unknown
// element or attribute.
//
// The checks that need the whole document, that tags are balanced, that
// there is one root, that no text is outside it and that no attribute is
// repeated, are load's (tree.go). The fuzz test FuzzTokenizer holds all
// of this against encoding/xml.

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// tokenKind is what scanner.next found.
type tokenKind uint8

const (
	tokEOF     tokenKind = iota // the end of the document
	tokStart                    // a start tag, or an empty-element tag when scanner.empty
	tokEnd                      // an end tag
	tokText                     // character data or a CDATA section
	tokComment                  // <!-- ... -->
	tokPI                       // a processing instruction or the XML declaration
	tokDoctype                  // <!DOCTYPE ...>
)

// xmlName is an element or attribute name split at its colon, as
// encoding/xml splits it: <a:b> has the prefix "a" and the local name "b",
// <b> only the local name "b".
type xmlName struct {
	space, local string
}

func (n xmlName) String() string {
	if n.space == "" {
		return n.local
	}
	return n.space + ":" + n.local
}

// xmlAttr is an attribute of a start tag.
type xmlAttr struct {
	name  xmlName
	value string // with references replaced and line ends made "\n"
	off   int    // of its name, for messages
}

// scanner reads an XML document token by token. After next, the fields
// below describe the token found; they are overwritten by the next call,
// except that strings stay valid (they are substrings of src or new).
type scanner struct {
	// src is the document. It is a copy of the bytes given to newScanner,
	// so that names and values can be substrings of it: a string must
	// never change, and the caller's bytes might. A tree therefore keeps
	// the whole document alive while any of its strings is.
	src      string
	pos      int // where the next token starts
	docStart int // where the document starts: past a byte order mark

	kind  tokenKind
	start int       // offset of the token's first byte
	qname string    // a tag's name as written
	name  xmlName   // a tag's name, split
	attrs []xmlAttr // a start tag's attributes; reused by the next start tag
	empty bool      // a start tag is an empty-element tag, <a/>
	space bool      // a text token is only literal white space

	// Lines are counted lazily, up to the offset counted: position
	// counts the newlines between the last offset asked for and the next,
	// which strings.Count does far faster than a check of every byte.
	line, lineStart, counted int

	buf []byte // scratch for attribute values that need decoding
}

func newScanner(data []byte) *scanner {
	s := &scanner{src: string(data), line: 1}
	if strings.HasPrefix(s.src, bom) {
		s.pos, s.docStart = len(bom), len(bom)
	}
	return s
}

// next reads the next token and returns its kind, or the error that stops
// the document from being read.
func (s *scanner) next() (tokenKind, *xmlError) {
	s.start = s.pos
	rest := s.src[s.pos:]
	var err *xmlError
	switch {
	case rest == "":
		s.kind = tokEOF
	case rest[0] != '<':
		s.kind = tokText
		err = s.text()
	case strings.HasPrefix(rest, "</"):
		s.kind = tokEnd
		err = s.endTag()
	case strings.HasPrefix(rest, "<?"):
		s.kind = tokPI
		err = s.procInst()
	case strings.HasPrefix(rest, "<!--"):
		s.kind = tokComment
		s.pos, err = s.comment(s.pos)
	case strings.HasPrefix(rest, "<![CDATA["):
		s.kind = tokText
		err = s.cdata()
	case strings.HasPrefix(rest, "<!DOCTYPE"):
		s.kind = tokDoctype
		err = s.doctype()
	case strings.HasPrefix(rest, "<!"):
		for _, opener := range []string{"<!--", "<![CDATA[", "<!DOCTYPE"} {
			if strings.HasPrefix(opener, rest) {
				return s.kind, s.eof() // the file ends inside one of them
			}
		}
		err = s.errAt(s.pos, "<! begins only a comment <!--, a CDATA section <![CDATA[ or a <!DOCTYPE")
	default:
		s.kind = tokStart
		err = s.startTag()
	}
	return s.kind, err
}

// position returns the line and column of offset off, both 1-based; the
// column counts bytes, as encoding/xml's did.
func (s *scanner) position(off int) (line, col int) {
	if off < s.counted { // only for errors; count again from the start
		s.line, s.lineStart, s.counted = 1, 0, 0
	}
	seg := s.src[s.counted:off]
	if n := strings.Count(seg, "\n"); n > 0 {
		s.line += n
		s.lineStart = s.counted + strings.LastIndexByte(seg, '\n') + 1
	}
	s.counted = off
	return s.line, off - s.lineStart + 1
}

// errAt returns an error at offset off.
func (s *scanner) errAt(off int, format string, args ...any) *xmlError {
	line, col := s.position(off)
	return &xmlError{line, col, fmt.Sprintf(format, args...)}
}

// eof is the error of a document that ends inside a token. The message is
// encoding/xml's, which a test of Parse asserts.
func (s *scanner) eof() *xmlError {
	return s.errAt(len(s.src), "unexpected EOF")
}

// skipSpace returns the offset of the first byte at or after i that is
// not XML white space.
func (s *scanner) skipSpace(i int) int {
	for i < len(s.src) && isSpaceByte(s.src[i]) {
		i++
	}
	return i
}

// text reads character data up to the next '<' or the end of the file.
// It checks the characters and references but keeps nothing: load drops
// text inside the root and only needs to know whether text outside it is
// white space. That must be literal white space: a reference or a CDATA
// section is character data, which XML does not allow outside the root.
func (s *scanner) text() *xmlError {
	src, i, space := s.src, s.pos, true
	for i < len(src) {
		switch c := src[i]; {
		case c == '<':
			s.pos, s.space = i, space
			return nil
		case isSpaceByte(c):
			i++
		case c == '&':
			_, next, err := s.reference(i)
			if err != nil {
				return err
			}
			i, space = next, false
		case c == ']' && strings.HasPrefix(src[i:], "]]>"):
			return s.errAt(i, "]]> is allowed only at the end of a CDATA section; write ]]&gt;")
		default:
			n, err := s.char(i)
			if err != nil {
				return err
			}
			i, space = i+n, false
		}
	}
	s.pos, s.space = i, space
	return nil
}

// cdata reads a CDATA section, which is text without markup or references.
func (s *scanner) cdata() *xmlError {
	from := s.pos + len("<![CDATA[")
	end := strings.Index(s.src[from:], "]]>")
	if end < 0 {
		return s.errAt(len(s.src), "unexpected EOF in CDATA section")
	}
	if err := s.chars(from, from+end); err != nil {
		return err
	}
	s.pos, s.space = from+end+len("]]>"), false
	return nil
}

// comment reads the comment that starts at i, "<!--", and returns the
// offset past it. XML does not allow "--" inside a comment.
func (s *scanner) comment(i int) (int, *xmlError) {
	from := i + len("<!--")
	end := strings.Index(s.src[from:], "--")
	if end < 0 {
		return 0, s.eof()
	}
	end += from
	switch {
	case end+2 >= len(s.src):
		return 0, s.eof()
	case s.src[end+2] != '>':
		return 0, s.errAt(end, `invalid sequence "--" not allowed in comments`)
	}
	return end + len("-->"), s.chars(from, end)
}

// procInst reads a processing instruction, <?target content?>, or the XML
// declaration.
func (s *scanner) procInst() *xmlError {
	src := s.src
	from := s.pos + len("<?")
	to, err := s.readName(from)
	switch {
	case err != nil:
		return err
	case to == from && to == len(src):
		return s.eof()
	case to == from:
		return s.errAt(from, "expected target name after <?")
	}
	target := src[from:to]
	if strings.EqualFold(target, "xml") {
		if target == "xml" && s.start == s.docStart {
			return s.xmlDecl(to)
		}
		return s.errAt(s.start, "<?%s is reserved for the XML declaration <?xml version=\"1.0\"?>, which may only be the first thing in the file", target)
	}
	if strings.HasPrefix(src[to:], "?>") {
		s.pos = to + len("?>")
		return nil
	}
	if to < len(src) && !isSpaceByte(src[to]) {
		return s.errAt(to, "white space or ?> must follow the target %s of a processing instruction", target)
	}
	end := strings.Index(src[to:], "?>")
	if end < 0 {
		return s.eof()
	}
	s.pos = to + end + len("?>")
	return s.chars(to, to+end)
}

// xmlDecl reads the XML declaration, <?xml version="1.0" encoding="utf-8"
// standalone="no"?>, from i, just past "<?xml". encoding/xml looks for
// version= and encoding= anywhere in it; this holds it to the grammar, as
// aapt2 does. Only version 1.0 and UTF-8 are accepted, as before.
func (s *scanner) xmlDecl(i int) *xmlError {
	src := s.src
	end := strings.Index(src[i:], "?>")
	if end < 0 {
		return s.eof()
	}
	end += i
	malformed := func(at int) *xmlError {
		return s.errAt(at, `malformed XML declaration; write <?xml version="1.0" encoding="utf-8"?>`)
	}
	// The pseudo-attributes, in the order the grammar gives them.
	keys := [3]string{"version", "encoding", "standalone"}
	var values [3]string
	var have [3]bool
	k := 0 // the first key still allowed
	for {
		j := s.skipSpace(i)
		if j == end {
			break
		}
		if j == i { // each pseudo-attribute follows white space
			return malformed(j)
		}
		n := j
		for n < end && 'a' <= src[n] && src[n] <= 'z' {
			n++
		}
		for k < len(keys) && keys[k] != src[j:n] {
			k++
		}
		if k == len(keys) {
			return malformed(j)
		}
		n = s.skipSpace(n)
		if src[n] != '=' {
			return malformed(n)
		}
		n = s.skipSpace(n + 1)
		q := src[n]
		if q != '"' && q != '\'' {
			return malformed(n)
		}
		closing := strings.IndexByte(src[n+1:end], q)
		if closing < 0 {
			return malformed(n)
		}
		values[k], have[k] = src[n+1:n+1+closing], true
		i = n + 1 + closing + 1
		k++
	}
	version, encoding, standalone := values[0], values[1], values[2]
	switch {
	case !have[0]:
		return s.errAt(s.start, `the XML declaration has no version; write <?xml version="1.0" encoding="utf-8"?>`)
	case version != "1.0":
		return s.errAt(s.start, "unsupported version %q; only version 1.0 is supported", version)
	case have[1] && !isEncName(encoding):
		return malformed(s.start)
	case have[2] && standalone != "yes" && standalone != "no":
		return malformed(s.start)
	}
	s.pos = end + len("?>")
	if have[1] && !strings.EqualFold(encoding, "utf-8") {
		// Android's resource compiler reads UTF-8; so does this reader.
		// The message and its position, past the declaration, are those
		// of encoding/xml with load's CharsetReader, which a test asserts.
		return s.errAt(s.pos, `opening charset %q: only UTF-8 is supported; save the file as UTF-8 and declare encoding="utf-8"`, encoding)
	}
	return nil
}

// isEncName reports whether name matches the grammar of encoding names,
// [A-Za-z] ([A-Za-z0-9._] | '-')*.
func isEncName(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := 'a' <= c|0x20 && c|0x20 <= 'z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '.' || c == '_' || c == '-')) {
			return false
		}
	}
	return name != ""
}

// doctype skips a document type declaration. Nothing here reads DTDs,
// but aapt2 compiles files that have a DOCTYPE, so it is skipped rather
// than rejected, as encoding/xml skipped it. The entities it may declare
// are not defined, so a reference to one is an error, as it was with
// encoding/xml (aapt2 would expand it).
//
// It ends where encoding/xml ends it: at the first '>' outside quotes,
// comments and nested <...> declarations. A processing instruction in the
// internal subset that holds a '>' or a quote is therefore misread, by
// both; resource files have none.
func (s *scanner) doctype() *xmlError {
	src := s.src
	i := s.pos + len("<!DOCTYPE")
	j := s.skipSpace(i)
	name, err := s.readName(j)
	switch {
	case err != nil:
		return err
	case name == len(src):
		return s.eof()
	case j == i || name == j:
		return s.errAt(j, "<!DOCTYPE must be followed by white space and the name of the root element")
	}
	i = name
	depth := 0 // of the declarations <!ENTITY ...> and so on inside it
	for i < len(src) {
		switch c := src[i]; {
		case c == '"' || c == '\'':
			end := strings.IndexByte(src[i+1:], c)
			if end < 0 {
				return s.eof()
			}
			if err := s.chars(i+1, i+1+end); err != nil {
				return err
			}
			i += 1 + end + 1
		case c == '<' && strings.HasPrefix(src[i:], "<!--"):
			if i, err = s.comment(i); err != nil {
				return err
			}
		case c == '<':
			depth++
			i++
		case c == '>' && depth == 0:
			s.pos = i + 1
			return nil
		case c == '>':
			depth--
			i++
		default:
			n, err := s.char(i)
			if err != nil {
				return err
			}
			i += n
		}
	}
	return s.eof()
}

// tagName reads the name of a start or end tag at i, just past opener,
// "<" or "</", into s.qname and s.name, and returns the offset past it.
func (s *scanner) tagName(i int, opener string) (int, *xmlError) {
	name, to, err := s.qualifiedName(i)
	switch {
	case err != nil:
		return 0, err
	case to == i && i == len(s.src):
		return 0, s.eof()
	case to == i:
		return 0, s.errAt(i, "expected element name after %s", opener)
	}
	s.qname, s.name = s.src[i:to], name
	return to, nil
}

// startTag reads a start tag or an empty-element tag.
func (s *scanner) startTag() *xmlError {
	src := s.src
	i, err := s.tagName(s.pos+len("<"), "<")
	if err != nil {
		return err
	}
	s.attrs, s.empty = s.attrs[:0], false
	for {
		at := s.skipSpace(i)
		if at == len(src) {
			return s.eof()
		}
		switch src[at] {
		case '>':
			s.pos = at + 1
			return nil
		case '/':
			if strings.HasPrefix(src[at:], "/>") {
				s.pos, s.empty = at+2, true
				return nil
			}
			if at+1 == len(src) {
				return s.eof()
			}
			return s.errAt(at, "expected /> in element")
		}
		name, to, err := s.qualifiedName(at)
		switch {
		case err != nil:
			return err
		case to == at:
			return s.errAt(at, "unexpected %q in <%s>; expected an attribute, > or />", src[at], s.qname)
		case at == i:
			return s.errAt(at, "attribute %s must be separated from what comes before it by white space", src[at:to])
		}
		i = s.skipSpace(to)
		if i == len(src) {
			return s.eof()
		}
		if src[i] != '=' {
			return s.errAt(i, `attribute %s has no value; write %s="…"`, src[at:to], src[at:to])
		}
		i = s.skipSpace(i + 1)
		if i == len(src) {
			return s.eof()
		}
		if q := src[i]; q != '"' && q != '\'' {
			return s.errAt(i, "the value of attribute %s must be in quotes", src[at:to])
		}
		value, next, err := s.attrValue(i)
		if err != nil {
			return err
		}
		s.attrs = append(s.attrs, xmlAttr{name, value, at})
		i = next
	}
}

// endTag reads an end tag.
func (s *scanner) endTag() *xmlError {
	src := s.src
	to, err := s.tagName(s.pos+len("</"), "</")
	if err != nil {
		return err
	}
	end := s.skipSpace(to)
	switch {
	case end == len(src):
		return s.eof()
	case src[end] != '>':
		r, _ := utf8.DecodeRuneInString(src[end:]) // not a name's, so may be any character
		return s.errAt(end, "unexpected %q in </%s>; expected >", r, s.qname)
	}
	s.pos = end + 1
	return nil
}

// attrValue reads the quoted attribute value that starts at i and returns
// it with its references replaced and its line ends made "\n" (as
// encoding/xml does; it does not turn other white space into spaces, and
// neither does this), and the offset past its closing quote.
//
// Most values have nothing to replace, and those are returned as
// substrings of the document, which allocates nothing. Only a value with
// a reference or a carriage return is built, in s.buf, and copied.
func (s *scanner) attrValue(i int) (string, int, *xmlError) {
	src := s.src
	quote := src[i]
	from := i + 1
	i = from
	decoding := false // whether s.buf holds the value up to done
	done := from
	for {
		// The fast path: characters that need no attention.
		for i < len(src) && attrPlain[src[i]] {
			i++
		}
		if i == len(src) {
			return "", 0, s.eof()
		}
		switch c := src[i]; {
		case c == quote:
			if !decoding {
				return src[from:i], i + 1, nil
			}
			s.buf = append(s.buf, src[done:i]...)
			return string(s.buf), i + 1, nil
		case c == '"' || c == '\'':
			i++ // the other quote
		case c == '<':
			return "", 0, s.errAt(i, "unescaped < inside quoted string")
		case c == '&' || c == '\r':
			if !decoding {
				s.buf, decoding = s.buf[:0], true
			}
			s.buf = append(s.buf, src[done:i]...)
			if c == '&' {
				r, next, err := s.reference(i)
				if err != nil {
					return "", 0, err
				}
				s.buf = utf8.AppendRune(s.buf, r)
				i = next
			} else { // "\r\n" and a lone "\r" are both "\n"
				s.buf = append(s.buf, '\n')
				i++
				if i < len(src) && src[i] == '\n' {
					i++
				}
			}
			done = i
		default:
			n, err := s.char(i)
			if err != nil {
				return "", 0, err
			}
			i += n
		}
	}
}

// attrPlain marks the bytes that an attribute value can hold as they are:
// printable ASCII but for the quotes, '<' and '&', and tabs and newlines.
// Carriage returns, other control characters and non-ASCII bytes need a
// closer look.
var attrPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\'' && c != '<' && c != '&'
	}
	t['\t'], t['\n'] = true, true
	return t
}()

// reference reads the entity or character reference at i, where src has
// '&', and returns the character it stands for and the offset past it.
// XML predefines five entities. A DOCTYPE may declare others, but DOCTYPEs
// are skipped, so they are errors, as with encoding/xml.
func (s *scanner) reference(i int) (rune, int, *xmlError) {
	src := s.src
	j := i + 1
	if j < len(src) && src[j] == '#' {
		j++
		base := rune(10)
		if j < len(src) && src[j] == 'x' {
			base = 16
			j++
		}
		digits := j
		var r rune
		for ; j < len(src); j++ {
			d := digitValue(src[j])
			if d >= base {
				break
			}
			if r <= utf8.MaxRune { // beyond it, r stays too large without overflowing
				r = r*base + d
			}
		}
		if j == digits || j == len(src) || src[j] != ';' {
			return 0, 0, s.badReference(i, j)
		}
		if !isXMLChar(r) {
			return 0, 0, s.errAt(i, "%s refers to a character that XML does not allow", src[i:j+1])
		}
		return r, j + 1, nil
	}
	for j < len(src) && (src[j] >= utf8.RuneSelf || isNameByte[src[j]]) {
		j++
	}
	if j < len(src) && src[j] == ';' {
		switch src[i+1 : j] {
		case "lt":
			return '<', j + 1, nil
		case "gt":
			return '>', j + 1, nil
		case "amp":
			return '&', j + 1, nil
		case "apos":
			return '\'', j + 1, nil
		case "quot":
			return '"', j + 1, nil
		}
	}
	if j == i+1 {
		return 0, 0, s.errAt(i, "& begins no entity or character reference; write &amp; for &")
	}
	return 0, 0, s.badReference(i, j)
}

// badReference is the error of a malformed or unknown reference from i,
// its '&', to j, where it stopped making sense.
func (s *scanner) badReference(i, j int) *xmlError {
	semicolon := j < len(s.src) && s.src[j] == ';'
	switch {
	case s.src[i+1] == '#':
		if semicolon {
			j++
		}
		return s.errAt(i, "invalid character reference %s: write &#N; with decimal digits or &#xH; with hexadecimal ones", abbreviate(s.src[i:j]))
	case semicolon:
		return s.errAt(i, "unknown entity %s: XML predefines only &lt; &gt; &amp; &apos; and &quot;, and &#N; or &#xH; stand for any character", abbreviate(s.src[i:j+1]))
	}
	// encoding/xml's wording
	return s.errAt(i, "invalid character entity %s (no semicolon)", abbreviate(s.src[i:j]))
}

// abbreviate shortens text quoted in a message.
func abbreviate(text string) string {
	const max = 40
	if len(text) <= max {
		return text
	}
	return strings.ToValidUTF8(text[:max], "") + "…"
}

// digitValue returns the value of the hexadecimal digit c, or 16 when c
// is not one.
func digitValue(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return 16
}

// char checks the character at i and returns its length in bytes.
func (s *scanner) char(i int) (int, *xmlError) {
	c := s.src[i]
	if c < utf8.RuneSelf {
		if c < 0x20 && !isSpaceByte(c) {
			return 0, s.errAt(i, "the control character %U is not allowed in XML", c)
		}
		return 1, nil
	}
	r, n := utf8.DecodeRuneInString(s.src[i:])
	switch {
	case r == utf8.RuneError && n == 1:
		return 0, s.errAt(i, "invalid UTF-8; save the file as UTF-8")
	case !isXMLChar(r):
		return 0, s.errAt(i, "the character %U is not allowed in XML", r)
	}
	return n, nil
}

// chars checks the characters from i to end.
func (s *scanner) chars(i, end int) *xmlError {
	for i < end {
		if c := s.src[i]; 0x20 <= c && c < utf8.RuneSelf {
			i++
			continue
		}
		n, err := s.char(i)
		if err != nil {
			return err
		}
		i += n
	}
	return nil
}

// isXMLChar reports whether XML allows r: the Char production.
func isXMLChar(r rune) bool {
	switch {
	case r < 0x20:
		return r == '\t' || r == '\n' || r == '\r'
	case r <= 0xD7FF:
		return true
	case r < 0xE000: // surrogates
		return false
	case r <= 0xFFFD:
		return true
	}
	return 0x10000 <= r && r <= utf8.MaxRune
}

// readName reads the name at i and returns the offset past it, which is i
// when no name starts there. A name ends at the first ASCII byte that
// cannot be in one. Non-ASCII characters are taken first and checked
// after, as encoding/xml does, so that a stray "×" or no-break space is
// reported as part of an invalid name rather than as a puzzling
// delimiter.
func (s *scanner) readName(i int) (int, *xmlError) {
	src := s.src
	to, ascii := i, true
	for ; to < len(src); to++ {
		if c := src[to]; c >= utf8.RuneSelf {
			ascii = false
		} else if !isNameByte[c] {
			break
		}
	}
	switch {
	case to == i:
		return i, nil
	case ascii:
		if c := src[i]; '0' <= c && c <= '9' || c == '-' || c == '.' {
			return 0, s.errAt(i, "invalid XML name %q: a name cannot begin with %q", src[i:to], c)
		}
		return to, nil
	}
	for j := i; j < to; {
		r, n := utf8.DecodeRuneInString(src[j:to])
		if r == utf8.RuneError && n == 1 {
			return 0, s.errAt(j, "invalid UTF-8; save the file as UTF-8")
		}
		if !isNameRune(r) || j == i && !isNameStartRune(r) {
			return 0, s.errAt(i, "invalid XML name %q: it cannot have %q there", src[i:to], r)
		}
		j += n
	}
	return to, nil
}

// qualifiedName reads an element or attribute name at i and splits it at
// its colon. Namespaces in XML allow one colon at most, with something on
// both sides; encoding/xml rejects two colons but takes ":a" and "a:"
// whole, without a prefix, and aapt2 rejects them too.
func (s *scanner) qualifiedName(i int) (xmlName, int, *xmlError) {
	to, err := s.readName(i)
	if err != nil || to == i {
		return xmlName{}, to, err
	}
	name := s.src[i:to]
	prefix, local, found := strings.Cut(name, ":")
	if !found {
		return xmlName{local: name}, to, nil
	}
	if prefix == "" || local == "" || strings.Contains(local, ":") {
		return xmlName{}, 0, s.errAt(i, "invalid XML name %q: a colon in a name separates a namespace prefix from a local name, as in android:name", name)
	}
	return xmlName{prefix, local}, to, nil
}

// isNameByte marks the ASCII bytes that names may contain.
var isNameByte = func() (t [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
			c == '_' || c == ':' || c == '.' || c == '-'
	}
	return t
}()

// isNameStartRune reports whether a name may begin with r: the
// NameStartChar production of XML 1.0, fifth edition.
func isNameStartRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isNameByte[r] && !('0' <= r && r <= '9' || r == '-' || r == '.')
	}
	switch {
	case 0xC0 <= r && r <= 0xD6, 0xD8 <= r && r <= 0xF6, 0xF8 <= r && r <= 0x2FF,
		0x370 <= r && r <= 0x37D, 0x37F <= r && r <= 0x1FFF, 0x200C <= r && r <= 0x200D,
		0x2070 <= r && r <= 0x218F, 0x2C00 <= r && r <= 0x2FEF, 0x3001 <= r && r <= 0xD7FF,
		0xF900 <= r && r <= 0xFDCF, 0xFDF0 <= r && r <= 0xFFFD, 0x10000 <= r && r <= 0xEFFFF:
		return true
	}
	return false
}

// isNameRune reports whether a name may contain r after its first
// character: the NameChar production of XML 1.0, fifth edition.
func isNameRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isNameByte[r]
	}
	return isNameStartRune(r) || r == 0xB7 || 0x300 <= r && r <= 0x36F || 0x203F <= r && r <= 0x2040
}
