package xmlfile

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The loaded tree is a real etree tree: an attribute knows its element, so
// etree's own namespace lookups answer right.
func TestLoadedAttributesKnowTheirElement(t *testing.T) {
	tr, err := load([]byte(`<r xmlns:m="urn:m"><c m:x="1" y="2"/></r>`))
	if err != nil {
		t.Fatal(err.msg)
	}
	c := tr.root.SelectElement("c")
	for i := range c.Attr {
		if a := &c.Attr[i]; a.Element() != c {
			t.Fatalf("attribute %s belongs to %v, want <c>", a.FullKey(), a.Element())
		}
	}
	if got := c.Attr[0].NamespaceURI(); got != "urn:m" {
		t.Errorf("m:x is in namespace %q, want urn:m", got)
	}
	if got := c.Attr[1].NamespaceURI(); got != "" {
		t.Errorf("y is in namespace %q, want none", got)
	}
}

// wellFormed are documents load reads: aapt2 compiles them all.
var wellFormed = []string{
	`<a/>`,
	"\ufeff<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<a/>",
	"<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>\r\n<a></a>",
	// A DOCTYPE is skipped; the entities it declares stay undefined.
	"<?xml version=\"1.0\"?>\n<!DOCTYPE a SYSTEM \"a.dtd\" [\n  <!ENTITY e \"x\">\n]>\n<a/>",
	`<p:a xmlns:p="urn:p" p:x="1" x="2"><p:b/><c p:y=""/></p:a>`,
	`<a><![CDATA[<not a tag> & ]]>text &amp; more<?pi data?><!-- comment --></a>`,
	"<a\n  x=\"1\"\n\ty='2'\r\n  z = \"3\"\n/>",
	"<!-- before -->\n<?pi before?>\n<a/>\n<!-- after -->\n",
	`<a x='"'  y="'"/>`,
}

func TestLoadReadsWellFormedXML(t *testing.T) {
	for _, doc := range wellFormed {
		if _, err := load([]byte(doc)); err != nil {
			t.Errorf("load(%q) fails at %d:%d: %s", doc, err.line, err.col, err.msg)
		}
	}
}

// loadErrors are documents load rejects, and where and why. The first
// group is what encoding/xml rejects; the second what its raw tokens let
// through and only the whole document shows; the third what encoding/xml
// accepts and aapt2 rejects, which a hand-written descriptor may contain.
var loadErrors = []struct {
	doc       string
	line, col int
	msg       string
}{
	{"<a x=\"1>\n", 2, 1, "unexpected EOF"},
	{`<a x=1/>`, 1, 7, "unquoted or missing attribute value in element"},
	{"<a>&bogus;</a>", 1, 11, "invalid character entity &bogus;"},
	{"<a>\xff</a>", 1, 5, "invalid UTF-8"},
	{`<?xml version="1.1"?><a/>`, 1, 22, `unsupported version "1.1"; only version 1.0 is supported`},
	{`<?xml version="1.0" encoding="ISO-8859-1"?><a/>`, 1, 44, `opening charset "ISO-8859-1": only UTF-8 is supported; save the file as UTF-8 and declare encoding="utf-8"`},

	{"<a>", 1, 4, "the file ends before <a> (line 1) is closed"},
	{"<a>\n  <b>\n</a>", 3, 1, "<b> (line 2) is closed by </a>"},
	{"</a>", 1, 1, "</a> closes an element that was never opened"},
	{`<a x="1" x="2"/>`, 1, 1, "attribute x appears twice in <a>; keep one"},
	{`<a p:x="1" p:x="2"/>`, 1, 1, "attribute p:x appears twice in <a>; keep one"},
	{"<a/>\n<b/>", 2, 1, "a second root element <b> follows </a>; an XML document has exactly one root"},
	{"<a/>text", 1, 5, "text outside the root element"},
	{"text<a/>", 1, 1, "text outside the root element"},
	{"\ufeff\ufeff<a/>", 1, 1, "text outside the root element"},
	{"", 1, 1, "the file has no root element"},
	{"<!-- only -->", 1, 1, "the file has no root element"},

	{"<!-- Copyright -->\n<?xml version=\"1.0\"?><a/>", 2, 1, `<?xml is reserved for the XML declaration <?xml version="1.0"?>, which may only be the first thing in the file`},
	{"\n<?xml version=\"1.0\"?><a/>", 2, 1, `<?xml is reserved for the XML declaration <?xml version="1.0"?>, which may only be the first thing in the file`},
	{"<?XML version=\"1.0\"?><a/>", 1, 1, `<?XML is reserved for the XML declaration <?xml version="1.0"?>, which may only be the first thing in the file`},
	{`<?xml encoding="utf-8"?><a/>`, 1, 1, `malformed XML declaration <?xml encoding="utf-8"?>; write <?xml version="1.0" encoding="utf-8"?>`},
	{`<?xml version="1.0" foo="bar"?><a/>`, 1, 1, `malformed XML declaration <?xml version="1.0" foo="bar"?>; write <?xml version="1.0" encoding="utf-8"?>`},
	{`<?xml standalone="yes" version="1.0"?><a/>`, 1, 1, `malformed XML declaration <?xml standalone="yes" version="1.0"?>; write <?xml version="1.0" encoding="utf-8"?>`},
	{"<a>\n  <param name=\"to\"type=\"string\"/></a>", 2, 19, "attribute type must be separated from what comes before it by white space"},
	{"<a\n x='1'\n y='2'z = '3'/>", 3, 7, "attribute z must be separated from what comes before it by white space"},
	{`<:a/>`, 1, 1, `invalid XML name ":a": a colon in a name separates a namespace prefix from a local name, as in android:name`},
	{`<a b:="1"/>`, 1, 1, `invalid XML name "b:": a colon in a name separates a namespace prefix from a local name, as in android:name`},
}

func TestLoadRejectsMalformedXML(t *testing.T) {
	for _, tt := range loadErrors {
		if _, err := load([]byte(tt.doc)); err == nil {
			t.Errorf("load(%q) succeeds", tt.doc)
		} else if err.line != tt.line || err.col != tt.col || err.msg != tt.msg {
			t.Errorf("load(%q) fails at %d:%d: %s\nwant %d:%d: %s", tt.doc, err.line, err.col, err.msg, tt.line, tt.col, tt.msg)
		}
	}
}

// An element's attributes are bounded, so that what is still quadratic in
// them stays small (see maxAttrs).
func TestLoadRefusesAnElementWithTooManyAttributes(t *testing.T) {
	var b strings.Builder
	b.WriteString("<r>\n<c")
	for i := range maxAttrs + 1 {
		fmt.Fprintf(&b, " a%d='x'", i)
	}
	b.WriteString("/></r>")
	_, err := load([]byte(b.String()))
	if want := "<c> has 257 attributes; lint reads elements of at most 256, and no descriptor or manifest needs more"; err == nil || err.line != 2 || err.col != 1 || err.msg != want {
		t.Errorf("load: %+v, want 2:1 %s", err, want)
	}
	if _, err := load([]byte(strings.Replace(b.String(), " a0='x'", "", 1))); err != nil {
		t.Errorf("load of %d attributes: %s", maxAttrs, err.msg)
	}
}

// Attribute positions come from one scan of the tag, and attributes keep
// their prefixes and namespaces.
func TestElementsKnowWhereTheirAttributesAre(t *testing.T) {
	doc := "<r xmlns:m='urn:m'>\n<c  a='1' m:b=\"x'y\"\n\tc = '>'\n/></r>"
	tr, err := load([]byte(doc))
	if err != nil {
		t.Fatal(err.msg)
	}
	c := tr.element(tr.root, 1).Children[0]
	var got []string
	for _, a := range c.Attrs {
		got = append(got, fmt.Sprintf("%s %s=%q at %d:%d", a.Space, a.FullKey(), a.Value, a.Line, a.Column))
	}
	want := []string{` a="1" at 2:5`, `urn:m m:b="x'y" at 2:11`, ` c=">" at 3:2`}
	if !slices.Equal(got, want) {
		t.Errorf("attributes\n%q\nwant\n%q", got, want)
	}
	if c.Line != 2 || c.Column != 1 {
		t.Errorf("<c> at %d:%d, want 2:1", c.Line, c.Column)
	}
}
