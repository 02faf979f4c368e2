package xmlfile_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/sms"
)

// smsCapabilities returns the built-in SMS set as a registry holds it.
func smsCapabilities(t testing.TB) []*capability.Capability {
	t.Helper()
	reg, err := capability.NewRegistry(sms.Capabilities(nil)...)
	if err != nil {
		t.Fatal(err)
	}
	return reg.All()
}

// asDeclared strips what the descriptor format does not carry: the
// handler and the argument check. Everything else, the mcp: extras
// included, survives a round trip.
func asDeclared(c *capability.Capability) *capability.Capability {
	out := *c
	out.Handler, out.Validate = nil, nil // code, which no descriptor holds
	// A descriptor states every hint; a nil one is its default.
	out.Annotations.Destructive = new(out.Annotations.IsDestructive())
	out.Annotations.OpenWorld = new(out.Annotations.IsOpenWorld())
	return &out
}

func TestParseOfRenderIsTheRegistry(t *testing.T) {
	caps := smsCapabilities(t)
	data := xmlfile.Render(caps)
	d, err := xmlfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if d.Version != "1.0" {
		t.Errorf("version %q, want 1.0", d.Version)
	}
	parsed := d.Capabilities()
	if len(parsed) != len(caps) {
		t.Fatalf("parsed %d capabilities, want %d", len(parsed), len(caps))
	}
	for i, c := range caps {
		if want := asDeclared(c); !reflect.DeepEqual(parsed[i], want) {
			t.Errorf("capability %d\n got %+v\nwant %+v", i, parsed[i], want)
		}
	}
	if findings := xmlfile.Lint("mcp_capabilities.xml", data, nil); len(findings) != 0 {
		t.Errorf("the rendered descriptor has findings: %v", findings)
	}
}

func TestParseKeepsLineNumbers(t *testing.T) {
	d, err := xmlfile.Parse(xmlfile.Render(smsCapabilities(t)))
	if err != nil {
		t.Fatal(err)
	}
	// Lines 1-3 are the declaration, the comment and the root.
	var got []int
	for _, s := range d.Specs {
		got = append(got, s.Line)
		for _, p := range append(s.Input, s.Output...) {
			got = append(got, p.Line)
		}
	}
	want := []int{4, 6, 7, 8, 11, 12, 13, 14, 17, 19, 20}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("lines of capabilities and params %v, want %v", got, want)
	}
}

func TestParseReadsLeniently(t *testing.T) {
	d, err := xmlfile.Parse([]byte(`<mobile-mcp-capabilities>
  <capability id="c">
    <input>
      <param name="n" type="long" required="yes"/>
      <param name="d" type="date" required="true" description="When."/>
    </input>
  </capability>
</mobile-mcp-capabilities>`))
	if err != nil {
		t.Fatal(err)
	}
	want := &descriptor.File{Specs: []descriptor.Spec{{
		ID: "c", Line: 2,
		// A file without mobilemcp's hints gets MCP's defaults, stated.
		Annotations: capability.Annotations{Destructive: new(true), OpenWorld: new(true)},
		Input: []descriptor.Param{
			{Param: capability.Param{Name: "n", Type: capability.Integer}, Line: 4},
			{Param: capability.Param{Name: "d", Type: "date", Required: true, Description: "When."}, Line: 5},
		},
	}}}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("got %+v\nwant %+v", d, want)
	}
}

func TestParseReadsHintsInAnyPrefix(t *testing.T) {
	d, err := xmlfile.Parse([]byte(`<mobile-mcp-capabilities version="1.0" xmlns:x="https://mobilemcp.github.io/ns">
  <capability id="c" description="d" version="1" x:title="C" x:readOnly="true" x:destructive="false" other:idempotent="true" xmlns:other="urn:other"/>
</mobile-mcp-capabilities>`))
	if err != nil {
		t.Fatal(err)
	}
	want := capability.Annotations{Title: "C", ReadOnly: true, Destructive: new(false), OpenWorld: new(true)}
	if got := d.Specs[0].Annotations; !reflect.DeepEqual(got, want) {
		t.Errorf("annotations %+v, want %+v", got, want)
	}
}

func TestParseFails(t *testing.T) {
	tests := []struct {
		name, xml string
		want      xmlfile.ParseError
	}{
		{"malformed", "<mobile-mcp-capabilities version=\"1.0\">\n  <capability id=\"c>\n", xmlfile.ParseError{Line: 3, Column: 1, Msg: "the file is not well-formed XML: unexpected EOF"}},
		{"empty", "", xmlfile.ParseError{Line: 1, Column: 1, Msg: "the file is not XML; a capability descriptor is an XML file whose root element is <mobile-mcp-capabilities>"}},
		{"a second root", "<mobile-mcp-capabilities/>\n<mobile-mcp-capabilities/>", xmlfile.ParseError{Line: 2, Column: 1, Msg: "the file is not well-formed XML: a second root element <mobile-mcp-capabilities> follows </mobile-mcp-capabilities>; an XML document has exactly one root"}},
		{"text after the root", "<mobile-mcp-capabilities/>\nthen", xmlfile.ParseError{Line: 1, Column: 27, Msg: "the file is not well-formed XML: text outside the root element"}},
		{"latin-1", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><mobile-mcp-capabilities/>", xmlfile.ParseError{Line: 1, Column: 44, Msg: `the file is not well-formed XML: opening charset "ISO-8859-1": only UTF-8 is supported; save the file as UTF-8 and declare encoding="utf-8"`}},
		{"a manifest", "<manifest/>", xmlfile.ParseError{Line: 1, Column: 1, Msg: "the root element is <manifest>: this is an AndroidManifest.xml, not a capability descriptor; use the file its mobile.mcp.tool.capabilities meta-data names"}},
		{"misnamed root", "<capabilities><capability/></capabilities>", xmlfile.ParseError{Line: 1, Column: 1, Msg: "the root element is <capabilities>; rename it to <mobile-mcp-capabilities>, the name the Mobile-MCP spec §1.2.1 requires"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := xmlfile.Parse([]byte(tt.xml))
			var pe *xmlfile.ParseError
			if !errors.As(err, &pe) || *pe != tt.want {
				t.Errorf("error %#v, want %#v", err, &tt.want)
			}
		})
	}
}

func TestParseAcceptsAByteOrderMark(t *testing.T) {
	d, err := xmlfile.Parse([]byte("\ufeff<mobile-mcp-capabilities version=\"1.0\"/>"))
	if err != nil || d.Version != "1.0" {
		t.Errorf("got %+v, %v", d, err)
	}
}

func TestFindingsPointAtTheAttribute(t *testing.T) {
	xml := "<mobile-mcp-capabilities version=\"1.0\">\n" +
		"  <capability id=\"c\"\n" +
		"      description=\"id=&quot;x&quot; type=\"\n" + // a value that looks like attributes
		"      version=\"1\"><input>\n" +
		"    <param name=\"p\" required=\"true\" description=\"d\"   type=\"int\"/>\n" +
		"  </input></capability>\n</mobile-mcp-capabilities>"
	findings := besidesReadOnly(xmlfile.Lint("f.xml", []byte(xml), nil))
	if len(findings) != 1 || findings[0].Line != 5 || findings[0].Column != 55 || findings[0].Rule != "type-synonym" {
		t.Errorf("findings %+v, want one type-synonym at 5:55", findings)
	}
}
