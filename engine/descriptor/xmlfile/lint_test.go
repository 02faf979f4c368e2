package xmlfile_test

import (
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

// doc wraps capability elements in a valid root, which is on line 1, so
// the body starts on line 2.
func doc(body string) string {
	return `<mobile-mcp-capabilities version="1.0">` + "\n" + body + "\n</mobile-mcp-capabilities>\n"
}

// capDoc wraps input and output sections in a valid capability, which is
// on line 2, so the sections start on line 3.
func capDoc(sections string) string {
	return doc(`<capability id="c" description="Does c." version="1">` + "\n" + sections + "\n</capability>")
}

// want is the part of a finding a test pins down.
type want struct {
	rule    string
	line    int
	message string
}

// besidesReadOnly drops the missing-read-only findings. The cases leave
// mcp:readOnly out of their capabilities to stay short, so each would also
// get that warning; its own cases check it.
func besidesReadOnly(findings []descriptor.Finding) []descriptor.Finding {
	return slices.DeleteFunc(slices.Clone(findings), func(f descriptor.Finding) bool { return f.Rule == "missing-read-only" })
}

func got(findings []descriptor.Finding) []want {
	out := make([]want, len(findings))
	for i, f := range findings {
		out[i] = want{f.Rule, f.Line, f.Message}
	}
	return out
}

// descriptorCases fail exactly one rule each, at a known line. Together
// they cover every descriptor rule (TestEveryRuleHasACase checks).
var descriptorCases = []struct {
	name string
	xml  string
	want want
}{
	{"malformed", "<mobile-mcp-capabilities version=\"1.0\">\n<capability>\n</mobile-mcp-capabilities>",
		want{"xml-syntax", 3, "the file is not well-formed XML: <capability> (line 2) is closed by </mobile-mcp-capabilities>"}},
	{"duplicate attribute is malformed", doc(`<capability id="a" id="b" description="d" version="1"/>`),
		want{"xml-syntax", 2, "the file is not well-formed XML: attribute id appears twice in <capability>; keep one"}},
	{"unclosed", "<mobile-mcp-capabilities version=\"1.0\">\n",
		want{"xml-syntax", 2, "the file is not well-formed XML: the file ends before <mobile-mcp-capabilities> (line 1) is closed"}},
	{"JSON is not a descriptor", `{"capabilities": []}`,
		want{"not-descriptor", 1, "the file is not XML; a capability descriptor is an XML file whose root element is <mobile-mcp-capabilities>"}},
	{"other XML is not a descriptor", "<?xml version=\"1.0\"?>\n<resources/>",
		want{"not-descriptor", 2, "the root element is <resources>, so this is neither a capability descriptor (<mobile-mcp-capabilities>) nor an AndroidManifest.xml (<manifest>)"}},
	{"misnamed root", "<mcp-capabilities version=\"1.0\">\n<capability id=\"c\" description=\"d\" version=\"1\"/>\n</mcp-capabilities>",
		want{"root-element", 1, "the root element is <mcp-capabilities>; rename it to <mobile-mcp-capabilities>, the name the Mobile-MCP spec §1.2.1 requires"}},
	{"no root version", "<mobile-mcp-capabilities>\n<capability id=\"c\" description=\"d\" version=\"1\"/>\n</mobile-mcp-capabilities>",
		want{"root-version", 1, `<mobile-mcp-capabilities> has no version attribute; add version="1.0"`}},
	{"wrong root version", "<mobile-mcp-capabilities\n    version=\"1\">\n<capability id=\"c\" description=\"d\" version=\"1\"/>\n</mobile-mcp-capabilities>",
		want{"root-version", 2, `<mobile-mcp-capabilities> has version="1", but this is the format of Mobile-MCP 1.0; write version="1.0"`}},
	{"capability without id", doc(`<capability description="d" version="1"/>`),
		want{"missing-attribute", 2, `<capability> has no id attribute; add a unique id such as id="send_sms"`}},
	{"capability with empty id", doc(`<capability id="" description="d" version="1"/>`),
		want{"missing-attribute", 2, `<capability> has an empty id attribute; set a unique id such as id="send_sms"`}},
	{"capability without description", doc(`<capability id="c" version="1"/>`),
		want{"missing-attribute", 2, `capability "c" has no description attribute; add description="…" in plain words; the model reads it to choose and call capabilities`}},
	{"capability without version", doc(`<capability id="c" description="d"/>`),
		want{"missing-attribute", 2, `capability "c" has no version attribute; add version="1.0"`}},
	{"input param without name", capDoc(`<input><param type="string" required="true" description="d"/></input>`),
		want{"missing-attribute", 3, `an input <param> has no name attribute; add name="…" with the argument name`}},
	{"input param without type", capDoc(`<input><param name="p" required="true" description="d"/></input>`),
		want{"missing-attribute", 3, `input param "p" has no type attribute; add type="string" or another of string, integer, number, boolean, object, array`}},
	{"input param without required", capDoc(`<input><param name="p" type="string" description="d"/></input>`),
		want{"missing-attribute", 3, `input param "p" has no required attribute; add required="true" or required="false"`}},
	{"input param without description", capDoc(`<input><param name="p" type="string" required="true"/></input>`),
		want{"missing-attribute", 3, `input param "p" has no description attribute; add description="…" in plain words; the model reads it to choose and call capabilities`}},
	{"output param without name", capDoc(`<output><param type="string" description="d"/></output>`),
		want{"missing-attribute", 3, `an output <param> has no name attribute; add name="…" with the argument name`}},
	{"output param without type", capDoc(`<output><param name="p" description="d"/></output>`),
		want{"missing-attribute", 3, `output param "p" has no type attribute; add type="string" or another of string, integer, number, boolean, object, array`}},
	{"output param without description", capDoc(`<output><param name="p" type="string"/></output>`),
		want{"missing-attribute", 3, `output param "p" has no description attribute; add description="…" in plain words; the model reads it to choose and call capabilities`}},
	{"required is yes", capDoc(`<input><param name="p" type="string" required="yes" description="d"/></input>`),
		want{"boolean-value", 3, `input param "p" has required="yes"; write required="true" or required="false"`}},
	{"hint is 1", doc(`<capability xmlns:m="https://mobilemcp.github.io/ns" id="c" description="d" version="1" m:readOnly="1"/>`),
		want{"boolean-value", 2, `capability "c" has m:readOnly="1"; write m:readOnly="true" or m:readOnly="false"`}},
	{"unknown type", capDoc(`<input><param name="p" type="date" required="true" description="d"/></input>`),
		want{"unknown-type", 3, `input param "p" has type "date", which is not a descriptor type; use one of string, integer, number, boolean, object, array`}},
	{"misspelt type", capDoc(`<output><param name="p" type="strng" description="d"/></output>`),
		want{"unknown-type", 3, `output param "p" has type "strng", which is not a descriptor type; did you mean string?`}},
	{"duplicate id", doc("<capability id=\"c\" description=\"d\" version=\"1\"/>\n<capability id=\"c\" description=\"d\" version=\"2\"/>"),
		want{"duplicate-id", 3, `capability id "c" is already used at line 2; give each capability its own id`}},
	{"duplicate input param", capDoc("<input>\n<param name=\"p\" type=\"string\" required=\"true\" description=\"d\"/>\n<param name=\"p\" type=\"integer\" required=\"false\" description=\"d\"/>\n</input>"),
		want{"duplicate-param", 5, `input param "p" is already declared at line 4; rename or remove one`}},
	{"duplicate output param", capDoc("<output>\n<param name=\"p\" type=\"string\" description=\"d\"/>\n<param name=\"p\" type=\"string\" description=\"d\"/>\n</output>"),
		want{"duplicate-param", 5, `output param "p" is already declared at line 4; rename or remove one`}},
	{"second output", capDoc("<output/>\n<output/>"),
		want{"duplicate-element", 4, `capability "c" has a second <output>; the first is at line 3, so move these params into it`}},
	{"synonym type", capDoc(`<input><param name="p" type="int" required="true" description="d"/></input>`),
		want{"type-synonym", 3, `input param "p" has type "int"; write type="integer", the name every reader knows`}},
	{"unknown element in capability", capDoc(`<inputs/>`),
		want{"unknown-element", 3, `<inputs> does not belong in <capability>, which holds only <input> and <output>; did you mean <input>?`}},
	{"unknown element in root", doc(`<capability id="c" description="d" version="1"/><tool/>`),
		want{"unknown-element", 2, `<tool> does not belong in <mobile-mcp-capabilities>, which holds only <capability>; remove it`}},
	{"element in param", capDoc(`<output><param name="p" type="string" description="d"><enum/></param></output>`),
		want{"unknown-element", 3, `<param> holds no elements; remove <enum>`}},
	{"misspelt attribute", capDoc(`<input><param name="p" type="string" required="true" requred="true" description="d"/></input>`),
		want{"unknown-attribute", 3, `<param> has an attribute requred that the format does not define; did you mean required?`}},
	{"required on output", capDoc(`<output><param name="p" type="string" required="true" description="d"/></output>`),
		want{"unknown-attribute", 3, `output params have no required attribute; remove it`}},
	{"unknown mobilemcp attribute", doc(`<capability xmlns:mcp="https://mobilemcp.github.io/ns" id="c" description="d" version="1" mcp:readonly="true"/>`),
		want{"unknown-attribute", 2, `mcp:readonly is not a mobilemcp attribute; did you mean readOnly?`}},
	{"unbound prefix", doc(`<capability id="c" description="d" version="1" mcp:readOnly="true"/>`),
		want{"unknown-attribute", 2, `the prefix of mcp:readOnly is not bound to a namespace; declare xmlns:mcp or remove the attribute`}},
	{"mobilemcp attribute on the wrong element", capDoc(`<input xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="string" required="true" description="d" mcp:readOnly="true"/></input>`),
		want{"unknown-attribute", 3, `mcp:readOnly belongs on <capability>, not on <param>; move or remove it`}},
	{"param limit on a capability", doc(`<capability xmlns:mcp="https://mobilemcp.github.io/ns" id="c" description="d" version="1" mcp:maxLength="5"/>`),
		want{"unknown-attribute", 2, `mcp:maxLength belongs on an input <param>, not on <capability>; move or remove it`}},
	{"param limit on an output", capDoc(`<output xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="string" description="d" mcp:pattern="^a$"/></output>`),
		want{"unknown-attribute", 3, `output params have no mcp:pattern; it limits an argument, so remove it`}},
	{"timeout that is not a duration", doc(`<capability xmlns:mcp="https://mobilemcp.github.io/ns" id="c" description="d" version="1" mcp:timeout="soon"/>`),
		want{"extension-value", 2, `capability "c" has mcp:timeout="soon"; write a duration from 1ms to 10m, such as mcp:timeout="60s" or mcp:timeout="500ms"`}},
	{"timeout too long", doc(`<capability xmlns:mcp="https://mobilemcp.github.io/ns" id="c" description="d" version="1" mcp:timeout="1h"/>`),
		want{"extension-value", 2, `capability "c" has mcp:timeout="1h"; write a duration from 1ms to 10m, such as mcp:timeout="60s" or mcp:timeout="500ms"`}},
	{"maxLength that is not a count", capDoc(`<input xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="string" required="true" description="d" mcp:maxLength="-3"/></input>`),
		want{"extension-value", 3, `input param "p" has mcp:maxLength="-3"; write a whole number of characters above 0, such as mcp:maxLength="160"`}},
	{"maxLength of an integer", capDoc(`<input xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="integer" required="true" description="d" mcp:maxLength="3"/></input>`),
		want{"extension-value", 3, `input param "p" has mcp:maxLength, which applies to string params only, and its type is "integer"; remove it`}},
	{"items that is not a type", capDoc(`<input xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="array" required="true" description="d" mcp:items="strng"/></input>`),
		want{"extension-value", 3, `input param "p" has mcp:items="strng", which is not a descriptor type; did you mean string?`}},
	{"items that is a synonym", capDoc(`<output xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="array" description="d" mcp:items="int"/></output>`),
		want{"extension-value", 3, `output param "p" has mcp:items="int"; write mcp:items="integer", the name JSON Schema knows`}},
	{"items of a string", capDoc(`<input xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="string" required="true" description="d" mcp:items="string"/></input>`),
		want{"extension-value", 3, `input param "p" has mcp:items, which applies to array params only, and its type is "string"; remove it`}},
	{"items on a capability", doc(`<capability xmlns:mcp="https://mobilemcp.github.io/ns" id="c" description="d" version="1" mcp:readOnly="true" mcp:items="string"/>`),
		want{"unknown-attribute", 2, `mcp:items belongs on an array <param>, not on <capability>; move or remove it`}},
	{"pattern that does not compile", capDoc(`<input xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="string" required="true" description="d" mcp:pattern="[a-"/></input>`),
		want{"extension-value", 3, "input param \"p\" has mcp:pattern=\"[a-\", which is not a regular expression: error parsing regexp: missing closing ]: `[a-`"}},
	// RE2's syntax, which sdk-ksp's LintAgreementTest holds the processor to in the same words.
	{"pattern with a lookahead", capDoc(`<input xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="string" required="true" description="d" mcp:pattern="(?=a)b"/></input>`),
		want{"extension-value", 3, "input param \"p\" has mcp:pattern=\"(?=a)b\", which is not a regular expression: error parsing regexp: invalid or unsupported Perl syntax: `(?=`"}},
	{"pattern with a backreference", capDoc(`<input xmlns:mcp="https://mobilemcp.github.io/ns"><param name="p" type="string" required="true" description="d" mcp:pattern="(a)\1"/></input>`),
		want{"extension-value", 3, "input param \"p\" has mcp:pattern=\"(a)\\\\1\", which is not a regular expression: error parsing regexp: invalid escape sequence: `\\1`"}},
	{"no read-only hint", doc(`<capability id="list_events" description="d" version="1"/>`),
		want{"missing-read-only", 2, `capability "list_events" has no mcp:readOnly, so it is taken to change state: callers need the user's consent and a binding, and Intent-only agents such as the Mobile-MCP spec authors' prototype are refused; if it only reads, add mcp:readOnly="true" (and xmlns:mcp="https://mobilemcp.github.io/ns" on the root), else mcp:readOnly="false"`}},
	{"no read-only hint, with the namespace bound", "<mobile-mcp-capabilities xmlns:m=\"https://mobilemcp.github.io/ns\" version=\"1.0\">\n<capability id=\"c\" description=\"d\" version=\"1\" m:idempotent=\"true\"/>\n</mobile-mcp-capabilities>",
		want{"missing-read-only", 2, `capability "c" has no m:readOnly, so it is taken to change state: callers need the user's consent and a binding, and Intent-only agents such as the Mobile-MCP spec authors' prototype are refused; if it only reads, add m:readOnly="true", else m:readOnly="false"`}},
	{"empty capability description", doc(`<capability id="c" description=" " version="1"/>`),
		want{"empty-description", 2, `capability "c" has an empty description; describe it, because the model reads descriptions to choose and call capabilities`}},
	{"empty param description", capDoc(`<output><param name="p" type="string" description=""/></output>`),
		want{"empty-description", 3, `output param "p" has an empty description; describe it, because the model reads descriptions to choose and call capabilities`}},
	{"id with a space", doc(`<capability id="send sms" description="d" version="1"/>`),
		want{"invalid-tool-name", 2, `capability id "send sms" is not a valid MCP tool name, so MCP clients may reject it; use 1 to 128 of A-Z a-z 0-9 _ . - such as "send_sms"`}},
	{"id with a dot", doc(`<capability id="notes.create" description="d" version="1"/>`),
		want{"model-tool-name", 2, `capability id "notes.create" is a valid MCP tool name, but the function calling of OpenAI's and Anthropic's models takes 1 to 64 of A-Z a-z 0-9 _ -, so an assistant must rename it; use one such as "notes_create"`}},
	{"version is a word", doc(`<capability id="c" description="d" version="one"/>`),
		want{"version-format", 2, `capability "c" has version="one", which is not a version number; write one such as version="1.0" or version="2"`}},
	{"no capabilities", "<mobile-mcp-capabilities version=\"1.0\"/>",
		want{"no-capabilities", 1, `the descriptor declares no <capability>; add one for each function the tool offers`}},
}

func TestLintDescriptorRules(t *testing.T) {
	for _, tt := range descriptorCases {
		t.Run(tt.name, func(t *testing.T) {
			findings := xmlfile.Lint("mcp_capabilities.xml", []byte(tt.xml), nil)
			if tt.want.rule != "missing-read-only" {
				findings = besidesReadOnly(findings)
			}
			if g := got(findings); !slices.Equal(g, []want{tt.want}) {
				t.Errorf("findings\n got %+v\nwant %+v", g, []want{tt.want})
			}
			for _, f := range findings {
				if f.File != "mcp_capabilities.xml" || f.Severity != severityOf(t, f.Rule) {
					t.Errorf("finding %+v: want file mcp_capabilities.xml and the rule's severity", f)
				}
			}
		})
	}
}

func severityOf(t *testing.T, rule string) descriptor.Severity {
	t.Helper()
	for _, r := range xmlfile.Rules() {
		if r.ID == rule {
			return r.Severity
		}
	}
	t.Fatalf("no rule %q", rule)
	return 0
}

func TestVersionFormatAcceptsVersionNumbers(t *testing.T) {
	for _, v := range []string{"1", "1.0", "2.10.3", "v2", "V1.2", "1.0-beta", "1.0.0+build.5", "2.0-rc.1"} {
		if findings := besidesReadOnly(xmlfile.Lint("c.xml", []byte(doc(`<capability id="c" description="d" version="`+v+`"/>`)), nil)); len(findings) != 0 {
			t.Errorf("version %q: %v", v, findings)
		}
	}
	for _, v := range []string{"one", "latest", "1.", ".1", "1.x", "1 0", "v", "1.0-"} {
		findings := besidesReadOnly(xmlfile.Lint("c.xml", []byte(doc(`<capability id="c" description="d" version="`+v+`"/>`)), nil))
		if len(findings) != 1 || findings[0].Rule != "version-format" {
			t.Errorf("version %q: %v, want one version-format finding", v, findings)
		}
	}
}

// A capability that says what it does, either way, gets no warning; one
// that leaves it out gets one, whatever other hints it gives.
func TestTheReadOnlyHintIsWarnedAboutOnlyWhenAbsent(t *testing.T) {
	for _, tt := range []struct {
		attrs string
		warn  bool
	}{
		{`mcp:readOnly="true"`, false},
		{`mcp:readOnly="false"`, false},
		{`mcp:readOnly="yes"`, false}, // boolean-value says what is wrong
		{`mcp:destructive="false" mcp:idempotent="true"`, true},
		{``, true},
	} {
		xml := `<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0"><capability id="c" description="d" version="1" ` + tt.attrs + `/></mobile-mcp-capabilities>`
		warned := slices.ContainsFunc(xmlfile.Lint("c.xml", []byte(xml), nil), func(f descriptor.Finding) bool { return f.Rule == "missing-read-only" })
		if warned != tt.warn {
			t.Errorf("%s: warned %v, want %v", tt.attrs, warned, tt.warn)
		}
	}
}
