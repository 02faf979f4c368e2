package descriptor

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/beevik/etree"
)

// The scanner is tested against encoding/xml: stdLoad is load as it was
// before the scanner, encoding/xml's RawToken with the same checks on top.
// On every document both accept, they must build the same tree with the
// same positions. The scanner may reject a document stdLoad accepts only
// for one of the deliberate differences listed in xmlscan.go, which
// stricterRule recognizes; stdLoad may reject a document the scanner
// accepts only for a name with characters encoding/xml's older tables
// lack.

// stdLoad parses data as load did with encoding/xml.
func stdLoad(data []byte) (*tree, *xmlError) {
	if len(data) > 1<<31-1 {
		return nil, &xmlError{1, 1, "the file is larger than 2 GiB"}
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.CharsetReader = func(string, io.Reader) (io.Reader, error) {
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
			line, col := d.InputPos()
			msg := err.Error()
			if se, ok := errors.AsType[*xml.SyntaxError](err); ok {
				msg = se.Msg
			}
			return nil, &xmlError{line, col, strings.TrimPrefix(msg, "xml: ")}
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if len(open) == 0 && t.root.Element != nil {
				return nil, &xmlError{line, col, "a second root element"}
			}
			e := etree.NewElement(stdName(tok.Name))
			for i, a := range tok.Attr {
				for _, b := range tok.Attr[:i] {
					if a.Name == b.Name {
						return nil, &xmlError{line, col, "a repeated attribute"}
					}
				}
				e.Attr = append(e.Attr, etree.Attr{Space: a.Name.Space, Key: a.Name.Local, Value: a.Value})
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
				return nil, &xmlError{line, col, "an end tag without a start"}
			}
			top := open[len(open)-1]
			if top.Space != tok.Name.Space || top.Tag != tok.Name.Local {
				return nil, &xmlError{line, col, "mismatched tags"}
			}
			t.spans[top.i].size = int32(len(t.spans) - top.i)
			open = open[:len(open)-1]
		case xml.CharData:
			text := []byte(tok)
			if off == 0 {
				text = bytes.TrimPrefix(text, []byte(bom))
			}
			if len(open) == 0 && len(bytes.Trim(text, " \t\r\n")) != 0 {
				return nil, &xmlError{line, col, "text outside the root element"}
			}
		}
	}
	if len(open) > 0 {
		line, col := d.InputPos()
		return nil, &xmlError{line, col, "unclosed tags"}
	}
	if t.root.Element == nil {
		return nil, &xmlError{1, 1, "the file has no root element"}
	}
	return t, nil
}

func stdName(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// treeDiff describes the first difference between two trees, or returns
// "": the elements in document order, their names, attributes, number of
// children and spans.
func treeDiff(got, want *tree) string {
	if len(got.spans) != len(want.spans) {
		return fmt.Sprintf("%d elements, want %d", len(got.spans), len(want.spans))
	}
	var flat func(e *etree.Element, out []*etree.Element) []*etree.Element
	flat = func(e *etree.Element, out []*etree.Element) []*etree.Element {
		out = append(out, e)
		for c := range e.ChildElementsSeq() {
			out = flat(c, out)
		}
		return out
	}
	g, w := flat(got.root.Element, nil), flat(want.root.Element, nil)
	if len(g) != len(got.spans) || len(w) != len(want.spans) {
		return fmt.Sprintf("the trees have %d and %d elements, the spans %d", len(g), len(w), len(got.spans))
	}
	for i := range g {
		a, b := g[i], w[i]
		switch {
		case a.Space != b.Space || a.Tag != b.Tag:
			return fmt.Sprintf("element %d is %q:%q, want %q:%q", i, a.Space, a.Tag, b.Space, b.Tag)
		case len(a.Child) != len(b.Child):
			return fmt.Sprintf("element %d <%s> has %d children, want %d", i, a.FullTag(), len(a.Child), len(b.Child))
		case len(a.Attr) != len(b.Attr):
			return fmt.Sprintf("element %d <%s> has %d attributes, want %d", i, a.FullTag(), len(a.Attr), len(b.Attr))
		case got.spans[i] != want.spans[i]:
			return fmt.Sprintf("element %d <%s> has span %+v, want %+v", i, a.FullTag(), got.spans[i], want.spans[i])
		}
		for j := range a.Attr {
			x, y := a.Attr[j], b.Attr[j]
			if x.Space != y.Space || x.Key != y.Key || x.Value != y.Value {
				return fmt.Sprintf("element %d <%s> attribute %d is %q:%q=%q, want %q:%q=%q", i, a.FullTag(), j, x.Space, x.Key, x.Value, y.Space, y.Key, y.Value)
			}
		}
	}
	return ""
}

var (
	// xmlDeclGrammar is the XML declaration with version 1.0 and an
	// encoding name, which stdLoad has already required to be UTF-8.
	xmlDeclGrammar = regexp.MustCompile(`^<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*("1\.0"|'1\.0')` +
		`([ \t\r\n]+encoding[ \t\r\n]*=[ \t\r\n]*("[A-Za-z][A-Za-z0-9._-]*"|'[A-Za-z][A-Za-z0-9._-]*'))?` +
		`([ \t\r\n]+standalone[ \t\r\n]*=[ \t\r\n]*("(yes|no)"|'(yes|no)'))?[ \t\r\n]*\?>$`)
	// doctypeStart is the start of a DOCTYPE directive with an ASCII name.
	doctypeStart = regexp.MustCompile(`^DOCTYPE[ \t\r\n]+[A-Za-z_:][A-Za-z0-9_:.-]*([^A-Za-z0-9_:.\-\x80-\xff]|$)`)
	charRef      = regexp.MustCompile(`&#(x[0-9a-fA-F]+|[0-9]+);`)
)

// stricterRule returns the deliberate difference from encoding/xml that
// makes load reject data, or "" when data has none. It is asked only about
// documents stdLoad accepts, and reads them with encoding/xml, so it does
// not depend on the scanner it judges.
func stricterRule(data []byte) string {
	start := 0
	if bytes.HasPrefix(data, []byte(bom)) {
		start = len(bom)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	depth, root, doctypes := 0, false, 0
	for {
		off := int(d.InputOffset())
		tok, err := d.RawToken()
		if err != nil {
			break
		}
		raw := data[off:d.InputOffset()]
		switch tok := tok.(type) {
		case xml.ProcInst:
			rest := raw[len("<?")+len(tok.Target):]
			switch {
			case strings.EqualFold(tok.Target, "xml") && (tok.Target != "xml" || off != start):
				return "an XML declaration that is not the first thing in the file"
			case tok.Target == "xml" && !xmlDeclGrammar.Match(raw):
				return "an XML declaration that does not follow the grammar"
			case !bytes.HasPrefix(rest, []byte("?>")) && !isSpaceByte(rest[0]):
				return "no white space after the target of a processing instruction"
			case !validXMLChars(tok.Inst):
				return "a character XML does not allow in a processing instruction"
			}
		case xml.Comment:
			if !validXMLChars(tok) {
				return "a character XML does not allow in a comment"
			}
		case xml.Directive:
			switch {
			case !doctypeStart.Match(tok):
				return "a <! declaration that is not a DOCTYPE with an ASCII name"
			case root || doctypes > 0:
				return "a DOCTYPE after the root element, or a second one"
			case bytes.Contains(raw, []byte("<!--")) || !validXMLChars(raw):
				return "a comment or a character XML does not allow in a DOCTYPE"
			}
			doctypes++
		case xml.StartElement:
			root = true
			depth++
			if strings.Contains(tok.Name.Local, ":") {
				return "a name with a colon at its start or end"
			}
			for _, a := range tok.Attr {
				if strings.Contains(a.Name.Local, ":") {
					return "a name with a colon at its start or end"
				}
			}
			if attributesRunTogether(raw) {
				return "attributes not separated by white space"
			}
		case xml.EndElement:
			depth--
			if strings.Contains(tok.Name.Local, ":") {
				return "a name with a colon at its start or end"
			}
		case xml.CharData:
			if depth == 0 && (bytes.HasPrefix(raw, []byte("<![CDATA[")) || bytes.Contains(raw, []byte("&"))) {
				return "a CDATA section or a reference outside the root element"
			}
		}
	}
	for _, m := range charRef.FindAllSubmatch(data, -1) {
		digits, base := string(m[1]), 10
		if strings.HasPrefix(digits, "x") {
			digits, base = digits[1:], 16
		}
		if n, err := strconv.ParseUint(digits, base, 32); err == nil && 0xD800 <= n && n <= 0xDFFF {
			return "a character reference to a surrogate"
		}
	}
	return ""
}

// attributesRunTogether reports whether a start tag that encoding/xml
// accepted has a quoted value followed by something other than white
// space, / or >. In such a tag quotes only delimit values.
func attributesRunTogether(tag []byte) bool {
	var quote byte
	for i, c := range tag {
		switch {
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case c == quote:
			quote = 0
			if i+1 < len(tag) && !isSpaceByte(tag[i+1]) && tag[i+1] != '/' && tag[i+1] != '>' {
				return true
			}
		}
	}
	return false
}

// validXMLChars reports whether b is UTF-8 of characters in XML's Char
// production. It is written apart from the scanner's isXMLChar on purpose.
func validXMLChars(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			return false
		}
		if !(r == 0x9 || r == 0xA || r == 0xD || 0x20 <= r && r <= 0xD7FF || 0xE000 <= r && r <= 0xFFFD || 0x10000 <= r && r <= 0x10FFFF) {
			return false
		}
		b = b[n:]
	}
	return true
}

// widerName reports whether stdLoad's error is a name with a non-ASCII
// character that encoding/xml's tables lack, which load may accept.
func widerName(err *xmlError) bool {
	name, ok := strings.CutPrefix(err.msg, "invalid XML name: ")
	return ok && strings.ContainsFunc(name, func(r rune) bool { return r >= utf8.RuneSelf })
}

// compareWithEncodingXML checks load on data against stdLoad.
func compareWithEncodingXML(t *testing.T, data []byte) {
	t.Helper()
	got, gotErr := load(data)
	want, wantErr := stdLoad(data)
	switch {
	case gotErr == nil && wantErr == nil:
		if diff := treeDiff(got, want); diff != "" {
			t.Fatalf("load and encoding/xml read %q differently: %s", data, diff)
		}
	case gotErr != nil && wantErr == nil:
		if stricterRule(data) == "" {
			t.Fatalf("load rejects %q, which encoding/xml accepts, at %d:%d: %s", data, gotErr.line, gotErr.col, gotErr.msg)
		}
	case gotErr == nil && wantErr != nil:
		if !widerName(wantErr) {
			t.Fatalf("load accepts %q, which encoding/xml rejects at %d:%d: %s", data, wantErr.line, wantErr.col, wantErr.msg)
		}
	}
	if gotErr != nil {
		lines := bytes.Count(data, []byte("\n")) + 1
		if gotErr.line < 1 || gotErr.line > lines || gotErr.col < 1 || gotErr.col > len(data)+1 {
			t.Fatalf("the error %q is at %d:%d, outside the document (%d lines)", gotErr.msg, gotErr.line, gotErr.col, lines)
		}
	} else if name := rootName(data); name != got.root.FullTag() {
		t.Fatalf("rootName is %q, but load's root is <%s>", name, got.root.FullTag())
	}
}

// validDocs are well-formed documents with what the scanner must read as
// encoding/xml does. aapt2 2.19 compiles them all.
var validDocs = []string{
	`<a/>`,
	"\ufeff<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<a/>",
	"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<a></a>",
	"<?xml version=\"1.0\"?>\n<!DOCTYPE a SYSTEM \"a.dtd\" [\n  <!ENTITY e \"<>'\">\n  <!ELEMENT a ANY>\n]>\n<a/>",
	"<!DOCTYPE a>\n<a/>",
	`<a x='"' y="'" z="&lt;&gt;&amp;&apos;&quot;&#65;&#x42;&#x1F600;&#0065;" w="a&#13;&#10;b&#9;"/>`,
	"<a v=\"line1\r\nline2\rline3\n\tend\r\n\" w='\r'/>",
	`<p:a xmlns:p="urn:p" p:x="1" x="2"><p:b/><c p:y=""/></p:a>`,
	`<a><![CDATA[<not a tag> & ]] ]>]]>text &amp; more<?pi data?><!-- comment --></a>`,
	"<a\n  x=\"1\"\n\ty='2'\r\n  z = \"3\"\n/>",
	`<a></a  >`,
	"<a x=\"héllo 日本 😀\">ünïcödé ☃</a>",
	`<é ü="1"><日本/></é>`,
	"<!-- before -->\n<?pi before?>\n<a/>\n<!-- after -->\n<?pi after ?>\n",
	`<a>]] ]></a>`,
	`<a x="]]>"/>`,
	`<_a-b.c:d xmlns:_a-b.c="u"/>`,
	`<?xml-stylesheet href="s.css"?><a/>`,
	"<a><b><c/></b>\n<b>\n<c></c><d e='f'/></b></a>",
	`<a><!----><!-- - --><!--->--></a>`,
	`<a>&#x10FFFF;&#xE000;&#xFFFD;&#xD7FF;</a>`,
	"<!DOCTYPE a [<!-- a comment with ' and > -->]><a/>",
	`<!DOCTYPE a PUBLIC "-//A//B" 'c.dtd'><a/>`,
	`<?pi?><a/>`,
}

// loadError is a document that load rejects, and what it says.
type loadError struct {
	doc       string
	line, col int
	msg       string
}

// checkLoadError checks that load rejects tt.doc as tt says, and returns
// whether encoding/xml accepts it.
func checkLoadError(t *testing.T, tt loadError) (stdAccepts bool) {
	t.Helper()
	if _, err := load([]byte(tt.doc)); err == nil {
		t.Errorf("load(%q) succeeds", tt.doc)
	} else if err.line != tt.line || err.col != tt.col || err.msg != tt.msg {
		t.Errorf("load(%q) fails at %d:%d: %s\nwant %d:%d: %s", tt.doc, err.line, err.col, err.msg, tt.line, tt.col, tt.msg)
	}
	_, err := stdLoad([]byte(tt.doc))
	return err == nil
}

// malformedDocs are rejected by both; the scanner says where and why.
var malformedDocs = []loadError{
	{"<a>", 1, 4, "the file ends before <a> (line 1) is closed"},
	{"<a x=\"1>\n", 2, 1, "unexpected EOF"},
	{`<a x=1/>`, 1, 6, "the value of attribute x must be in quotes"},
	{`<a x/>`, 1, 5, `attribute x has no value; write x="…"`},
	{"<a>\n  <b>\n</a>", 3, 1, "<b> (line 2) is closed by </a>"},
	{"</a>", 1, 1, "</a> closes an element that was never opened"},
	{`<a x="1" x="2"/>`, 1, 10, "attribute x appears twice in <a>; keep one"},
	{`<a p:x="1" p:x="2"/>`, 1, 12, "attribute p:x appears twice in <a>; keep one"},
	{"<a/>\n<b/>", 2, 1, "a second root element <b> follows </a>; an XML document has exactly one root"},
	{"<a/>text", 1, 5, "text outside the root element"},
	{"text<a/>", 1, 1, "text outside the root element"},
	{"", 1, 1, "the file has no root element"},
	{"<!-- only -->", 1, 1, "the file has no root element"},
	{"<a>&bogus;</a>", 1, 4, "unknown entity &bogus;: XML predefines only &lt; &gt; &amp; &apos; and &quot;, and &#N; or &#xH; stand for any character"},
	{"<a>&amp</a>", 1, 4, "invalid character entity &amp (no semicolon)"},
	{"<a x='a & b'/>", 1, 9, "& begins no entity or character reference; write &amp; for &"},
	{"<a>&#;</a>", 1, 4, "invalid character reference &#;: write &#N; with decimal digits or &#xH; with hexadecimal ones"},
	{"<a>&#x;</a>", 1, 4, "invalid character reference &#x;: write &#N; with decimal digits or &#xH; with hexadecimal ones"},
	{"<a>&#X41;</a>", 1, 4, "invalid character reference &#: write &#N; with decimal digits or &#xH; with hexadecimal ones"},
	{"<a>&#0;</a>", 1, 4, "&#0; refers to a character that XML does not allow"},
	{"<a>&#x110000;</a>", 1, 4, "&#x110000; refers to a character that XML does not allow"},
	{"<a>&#99999999999999999999;</a>", 1, 4, "&#99999999999999999999; refers to a character that XML does not allow"},
	{"<a>&#xFFFE;</a>", 1, 4, "&#xFFFE; refers to a character that XML does not allow"},
	{`<a x="<"/>`, 1, 7, "unescaped < inside quoted string"},
	{"<a>]]></a>", 1, 4, "]]> is allowed only at the end of a CDATA section; write ]]&gt;"},
	{"<a><!-- a -- b --></a>", 1, 11, `invalid sequence "--" not allowed in comments`},
	{"<a><!-- a ---></a>", 1, 11, `invalid sequence "--" not allowed in comments`},
	{"<a>\x01</a>", 1, 4, "the control character U+0001 is not allowed in XML"},
	{"<a x='\x00'/>", 1, 7, "the control character U+0000 is not allowed in XML"},
	{"<a>\xff</a>", 1, 4, "invalid UTF-8; save the file as UTF-8"},
	{"<a x='\xc3'/>", 1, 7, "invalid UTF-8; save the file as UTF-8"},
	{"<a>\uFFFE</a>", 1, 4, "the character U+FFFE is not allowed in XML"},
	{"<a><![CDATA[\x02]]></a>", 1, 13, "the control character U+0002 is not allowed in XML"},
	{"<1a/>", 1, 2, `invalid XML name "1a": a name cannot begin with '1'`},
	{"<a -b='1'/>", 1, 4, `invalid XML name "-b": a name cannot begin with '-'`},
	{"<a×/>", 1, 2, `invalid XML name "a×": it cannot have '×' there`},
	{"<a\u00a0x='1'/>", 1, 2, `invalid XML name "a\u00a0x": it cannot have '\u00a0' there`},
	{"<a\xff/>", 1, 3, "invalid UTF-8; save the file as UTF-8"},
	{"<a:b:c/>", 1, 2, `invalid XML name "a:b:c": a colon in a name separates a namespace prefix from a local name, as in android:name`},
	// encoding/xml reads these as names without a prefix, and stdLoad
	// then finds that <a:/> is closed by </a:>, because etree splits "a:".
	{`<:a/>`, 1, 2, `invalid XML name ":a": a colon in a name separates a namespace prefix from a local name, as in android:name`},
	{`<a:/>`, 1, 2, `invalid XML name "a:": a colon in a name separates a namespace prefix from a local name, as in android:name`},
	{`<a x:y:z="1"/>`, 1, 4, `invalid XML name "x:y:z": a colon in a name separates a namespace prefix from a local name, as in android:name`},
	{"<a><![CDATA[x</a>", 1, 18, "unexpected EOF in CDATA section"},
	{`<?xml version="1.1"?><a/>`, 1, 1, `unsupported version "1.1"; only version 1.0 is supported`},
	{`<?xml version="1.0" encoding="ISO-8859-1"?><a/>`, 1, 44, `opening charset "ISO-8859-1": only UTF-8 is supported; save the file as UTF-8 and declare encoding="utf-8"`},
	{`<?xml version="1.0" encoding="utf8"?><a/>`, 1, 38, `opening charset "utf8": only UTF-8 is supported; save the file as UTF-8 and declare encoding="utf-8"`},
	{"< a/>", 1, 2, "expected element name after <"},
	{"<a></ a>", 1, 6, "expected element name after </"},
	{"<a></a b>", 1, 8, "unexpected 'b' in </a>; expected >"},
	{"<a></a ×>", 1, 8, "unexpected '×' in </a>; expected >"},
	{"<a/ >", 1, 3, "expected /> in element"},
	{`<a x="1" ="2"/>`, 1, 10, `unexpected '=' in <a>; expected an attribute, > or />`},
	{"<? pi?><a/>", 1, 3, "expected target name after <?"},
	{"<!DOCTYPE a [", 1, 14, "unexpected EOF"},
	{"<!DOCTYPE a '", 1, 14, "unexpected EOF"},
	{"<!DOCTYPE", 1, 10, "unexpected EOF"},
	{"<!DOCTYPE>", 1, 10, "<!DOCTYPE must be followed by white space and the name of the root element"},
	{"<!DOC", 1, 6, "unexpected EOF"},
	{"<![CDA", 1, 7, "unexpected EOF"},
	{"<!-", 1, 4, "unexpected EOF"},
	{"<!-x-><a/>", 1, 1, "<! begins only a comment <!--, a CDATA section <![CDATA[ or a <!DOCTYPE"},
	{"<?pi", 1, 5, "unexpected EOF"},
	{"<?pi x", 1, 7, "unexpected EOF"},
	{"<?xml", 1, 6, "unexpected EOF"},
	{"<!-- x", 1, 7, "unexpected EOF"},
	{"<!-- x --", 1, 10, "unexpected EOF"},
	{`<a x="1"`, 1, 9, "unexpected EOF"},
	{`<a x=`, 1, 6, "unexpected EOF"},
	{`<a x`, 1, 5, "unexpected EOF"},
	{`<a/`, 1, 4, "unexpected EOF"},
	{`<`, 1, 2, "unexpected EOF"},
	{`<a></a`, 1, 7, "unexpected EOF"},
	{`<a></`, 1, 6, "unexpected EOF"},
	{`<a>&`, 1, 4, "& begins no entity or character reference; write &amp; for &"},
	{`<a>&#x41`, 1, 4, "invalid character reference &#x41: write &#N; with decimal digits or &#xH; with hexadecimal ones"},
	{`<a>&#x41 ;</a>`, 1, 4, "invalid character reference &#x41: write &#N; with decimal digits or &#xH; with hexadecimal ones"},
	{`<a>&lt</a>`, 1, 4, "invalid character entity &lt (no semicolon)"},
	{"\ufeff\ufeff<a/>", 1, 4, "text outside the root element"},
	{" \ufeff<a/>", 1, 1, "text outside the root element"},
}

// differences are documents encoding/xml accepts and load rejects, each
// for one of the rules xmlscan.go lists; aapt2 2.19 rejects them all too.
var differences = []loadError{
	{"<!-- c --><?xml version=\"1.0\"?><a/>", 1, 11, `<?xml is reserved for the XML declaration <?xml version="1.0"?>, which may only be the first thing in the file`},
	{"<a/><?xml version=\"1.0\"?>", 1, 5, `<?xml is reserved for the XML declaration <?xml version="1.0"?>, which may only be the first thing in the file`},
	{"<?XML x?><a/>", 1, 1, `<?XML is reserved for the XML declaration <?xml version="1.0"?>, which may only be the first thing in the file`},
	{`<?xml encoding="utf-8"?><a/>`, 1, 1, `the XML declaration has no version; write <?xml version="1.0" encoding="utf-8"?>`},
	{`<?xml?><a/>`, 1, 1, `the XML declaration has no version; write <?xml version="1.0" encoding="utf-8"?>`},
	{`<?xml version="1.0" foo="bar"?><a/>`, 1, 21, `malformed XML declaration; write <?xml version="1.0" encoding="utf-8"?>`},
	{`<?xml version="1.0"encoding="utf-8"?><a/>`, 1, 20, `malformed XML declaration; write <?xml version="1.0" encoding="utf-8"?>`},
	{`<?xml standalone="yes" version="1.0"?><a/>`, 1, 24, `malformed XML declaration; write <?xml version="1.0" encoding="utf-8"?>`},
	{`<?xml version="1.0" standalone="maybe"?><a/>`, 1, 1, `malformed XML declaration; write <?xml version="1.0" encoding="utf-8"?>`},
	{`<?xml version=1.0?><a/>`, 1, 15, `malformed XML declaration; write <?xml version="1.0" encoding="utf-8"?>`},
	{`<?pi!x?><a/>`, 1, 5, "white space or ?> must follow the target pi of a processing instruction"},
	{`<!ELEMENT a ANY><a/>`, 1, 1, "<! begins only a comment <!--, a CDATA section <![CDATA[ or a <!DOCTYPE"},
	{`<a><!DOCTYPE a></a>`, 1, 4, "a DOCTYPE may only come once, before the root element"},
	{`<a/><!DOCTYPE a>`, 1, 5, "a DOCTYPE may only come once, before the root element"},
	{`<!DOCTYPE a><!DOCTYPE a><a/>`, 1, 13, "a DOCTYPE may only come once, before the root element"},
	{`<!DOCTYPE 1><a/>`, 1, 11, `invalid XML name "1": a name cannot begin with '1'`},
	{"<!DOCTYPE a [<!-- -- -->]><a/>", 1, 19, `invalid sequence "--" not allowed in comments`},
	{"<!DOCTYPE a \x01><a/>", 1, 13, "the control character U+0001 is not allowed in XML"},
	{`<a x="1"y="2"/>`, 1, 9, "attribute y must be separated from what comes before it by white space"},
	{`<a :x="1"/>`, 1, 4, `invalid XML name ":x": a colon in a name separates a namespace prefix from a local name, as in android:name`},
	{"<!-- \x01 --><a/>", 1, 6, "the control character U+0001 is not allowed in XML"},
	{"<!-- \xff --><a/>", 1, 6, "invalid UTF-8; save the file as UTF-8"},
	{"<?pi \xff?><a/>", 1, 6, "invalid UTF-8; save the file as UTF-8"},
	{"<?pi \uFFFF?><a/>", 1, 6, "the character U+FFFF is not allowed in XML"},
	{"<![CDATA[ ]]><a/>", 1, 1, "text outside the root element"},
	{"<a/><![CDATA[]]>", 1, 5, "text outside the root element"},
	{"&#32;<a/>", 1, 1, "text outside the root element"},
	{`<a x="&#xD800;"/>`, 1, 7, "&#xD800; refers to a character that XML does not allow"},
	{`<a>&#57343;</a>`, 1, 4, "&#57343; refers to a character that XML does not allow"},
}

// widerNames go the other way: XML 1.0's fifth edition allows them, so
// load accepts them, but encoding/xml's older tables do not (nor do
// aapt2's).
var widerNames = []string{
	`<Ĳ/>`,               // U+0132 is missing from encoding/xml's first table
	"<a x\u0487=\"1\"/>", // a combining mark missing from encoding/xml's second table
	`<😀 a="1"/>`,         // characters beyond the BMP
	`<a ǅ‿b="1"/>`,       // U+203F, the undertie, is a NameChar
}

func TestScannerReadsLikeEncodingXML(t *testing.T) {
	for _, doc := range validDocs {
		if _, err := load([]byte(doc)); err != nil {
			t.Errorf("load(%q) fails at %d:%d: %s", doc, err.line, err.col, err.msg)
			continue
		}
		if _, err := stdLoad([]byte(doc)); err != nil {
			t.Errorf("encoding/xml rejects %q at %d:%d: %s", doc, err.line, err.col, err.msg)
			continue
		}
		compareWithEncodingXML(t, []byte(doc))
	}
}

func TestScannerAttributeValues(t *testing.T) {
	tr, err := load([]byte(validDocs[5] + "\n"))
	if err != nil {
		t.Fatal(err.msg)
	}
	var got []string
	for _, a := range tr.root.Attr {
		got = append(got, a.Key+"="+a.Value)
	}
	want := []string{`x="`, `y='`, `z=<>&'"AB😀A`, "w=a\r\nb\t"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("values %q, want %q", got, want)
	}
	tr, err = load([]byte(validDocs[6]))
	if err != nil {
		t.Fatal(err.msg)
	}
	if v := tr.root.Attr[0].Value; v != "line1\nline2\nline3\n\tend\n" {
		t.Errorf("line ends are not normalized: %q", v)
	}
}

func TestScannerRejectsMalformedXML(t *testing.T) {
	for _, tt := range malformedDocs {
		if checkLoadError(t, tt) {
			t.Errorf("encoding/xml accepts %q", tt.doc)
		}
	}
}

func TestScannerIsStricterThanEncodingXML(t *testing.T) {
	for _, tt := range differences {
		if !checkLoadError(t, tt) {
			t.Errorf("encoding/xml rejects %q too; this is no difference", tt.doc)
		}
		if stricterRule([]byte(tt.doc)) == "" {
			t.Errorf("stricterRule does not recognize %q", tt.doc)
		}
	}
	for _, doc := range widerNames {
		if _, err := load([]byte(doc)); err != nil {
			t.Errorf("load(%q) fails: %s", doc, err.msg)
		}
		if _, err := stdLoad([]byte(doc)); err == nil || !widerName(err) {
			t.Errorf("encoding/xml does not reject %q for its name: %v", doc, err)
		}
	}
}

// FuzzTokenizer holds load against encoding/xml (see compareWithEncodingXML)
// on arbitrary bytes. The seed corpus is the documents of the tests above,
// the XML files of testdata, and the repository's generated descriptor and
// app manifest.
func FuzzTokenizer(f *testing.F) {
	for _, doc := range validDocs {
		f.Add([]byte(doc))
	}
	for _, tt := range malformedDocs {
		f.Add([]byte(tt.doc))
	}
	for _, tt := range differences {
		f.Add([]byte(tt.doc))
	}
	for _, doc := range widerNames {
		f.Add([]byte(doc))
	}
	files, _ := filepath.Glob("testdata/*/*.xml")
	more, _ := filepath.Glob("testdata/*/*/*.xml")
	files = append(files, more...)
	files = append(files, "../android/app/res/xml/mcp_capabilities.xml", "../android/app/AndroidManifest.xml")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(compareWithEncodingXML)
}
