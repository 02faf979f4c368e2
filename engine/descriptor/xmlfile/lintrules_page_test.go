package xmlfile_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

var update = flag.Bool("update", false, "rewrite docs/reference/lint-rules.md (go generate ./engine/descriptor/xmlfile)")

// lintRulesPage is the page docs/reference/lint-rules.md.
const lintRulesPage = "../../../docs/reference/lint-rules.md"

// TestLintRulesPageIsGenerated keeps docs/reference/lint-rules.md what
// lintRulesMarkdown makes of xmlfile.Rules() and the text of each rule
// in testdata/lint-rules: every rule, in order, with its example and the
// findings that linting the example gives today. 'go generate
// ./engine/descriptor/xmlfile' writes the page again.
func TestLintRulesPageIsGenerated(t *testing.T) {
	path, err := filepath.Abs(lintRulesPage)
	if err != nil {
		t.Fatal(err)
	}
	page := lintRulesMarkdown(t)
	if *update {
		if err := os.WriteFile(path, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(data); got != page {
		gotLines, wantLines := strings.Split(got, "\n"), strings.Split(page, "\n")
		i := 0
		for i < len(gotLines) && i < len(wantLines) && gotLines[i] == wantLines[i] {
			i++
		}
		at := func(lines []string) string {
			if i < len(lines) {
				return lines[i]
			}
			return "(the end)"
		}
		t.Errorf("docs/reference/lint-rules.md is not what the rules make; run 'go generate ./engine/descriptor/xmlfile'.\nline %d is\n\t%s\nbut the generator writes\n\t%s", i+1, at(gotLines), at(wantLines))
	}
}

// lintRulesMarkdown writes the lint rules page: a section per rule of
// xmlfile.Rules(), in order, with the text of testdata/lint-rules/ID.txt,
// in which the findings of linting the first XML example follow that
// example.
func lintRulesMarkdown(t *testing.T) string {
	t.Helper()
	texts, err := filepath.Abs("testdata/lint-rules")
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(texts, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rules := xmlfile.Rules()
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".txt")
		if !slices.ContainsFunc(rules, func(r descriptor.Rule) bool { return r.ID == id }) {
			t.Errorf("testdata/lint-rules/%s.txt describes no rule of xmlfile.Rules(); remove it", id)
		}
	}
	// A manifest is linted in a module of its own: app/AndroidManifest.xml
	// beside app/res, whose descriptor is clean.
	t.Chdir(t.TempDir())
	writeRuleFile(t, "app/res/xml/mcp_capabilities.xml", `<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
  <capability id="create_note" description="Creates a note." version="1.0" mcp:readOnly="false"/>
</mobile-mcp-capabilities>
`)

	var b strings.Builder
	b.WriteString(`<!-- Written by 'go generate ./engine/descriptor/xmlfile' from xmlfile.Rules() and engine/descriptor/xmlfile/testdata/lint-rules/; edit those. -->
# Lint rules

Every rule of ` + "`mobilemcp lint`" + ` ([descriptor.md](descriptor.md#linting-mobilemcp-lint)) with a failing example
and the findings that linting it gives. Rule ids are stable. The descriptor examples leave
` + "`mcp:readOnly`" + ` out to stay short; the [missing-read-only](#missing-read-only-warning) warning that
follows is not shown.
`)
	b.WriteString("\n## Descriptor rules\n")
	manifestHeading := false
	example := regexp.MustCompile("(?s)```xml\n(.*?)```\n")
	for _, r := range rules {
		manifest := strings.HasPrefix(r.ID, "manifest-")
		if manifest && !manifestHeading {
			manifestHeading = true
			b.WriteString("\n## AndroidManifest.xml rules\n\nThe examples show only the `<service>`; each sits in\n" +
				"`<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\"><application>`, which is on lines 1\nand 2, and `...` stands for the service's other `<meta-data>` entries.\n")
		}
		data, err := os.ReadFile(filepath.Join(texts, r.ID+".txt"))
		if err != nil {
			t.Errorf("rule %s has no text: %v", r.ID, err)
			continue
		}
		text := string(data)
		m := example.FindStringSubmatchIndex(text)
		if m == nil {
			t.Errorf("testdata/lint-rules/%s.txt has no ```xml example", r.ID)
			continue
		}
		xml := text[m[2]:m[3]]
		var findings []descriptor.Finding
		switch {
		case r.ID == "manifest-res-dir":
			findings = xmlfile.Lint("AndroidManifest.xml", []byte(inManifest(xml)), nil)
		case manifest:
			findings = xmlfile.Lint("app/AndroidManifest.xml", []byte(inManifest(xml)), nil)
		default:
			findings = xmlfile.Lint("mcp_capabilities.xml", []byte(xml), nil)
			if r.ID != "missing-read-only" {
				findings = besidesReadOnly(findings)
			}
		}
		if !slices.ContainsFunc(findings, func(f descriptor.Finding) bool { return f.Rule == r.ID }) {
			t.Errorf("the example of %s gives no finding of it: %v", r.ID, findings)
		}
		var shown strings.Builder
		for _, f := range findings {
			shown.WriteString(f.String() + "\n")
		}
		fmt.Fprintf(&b, "\n### %s (%s)\n\n%s\n```\n%s```\n%s", r.ID, r.Severity, text[:m[1]], shown.String(), text[m[1]:])
	}
	return b.String()
}

// inManifest puts a <service> into a manifest's <application>, on line 3.
// A line "..." stands for the service's meta-data entries that it does
// not show.
func inManifest(services string) string {
	var b strings.Builder
	for _, service := range strings.SplitAfter(services, "</service>\n") {
		var others strings.Builder
		for _, entry := range []string{
			`<meta-data android:name="mobile.mcp.tool.name" android:value="@string/tool_name" />`,
			`<meta-data android:name="mobile.mcp.tool.description" android:value="@string/tool_description" />`,
			`<meta-data android:name="mobile.mcp.tool.capabilities" android:resource="@xml/mcp_capabilities" />`,
		} {
			// The entry's name, up to its value or resource.
			if named, _, _ := strings.Cut(entry, `" android:`); !strings.Contains(service, named+`"`) {
				others.WriteString("      " + entry + "\n")
			}
		}
		b.WriteString(strings.Replace(service, "      ...\n", others.String(), 1))
	}
	return "<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\">\n  <application>\n" +
		b.String() + "  </application>\n</manifest>\n"
}

func writeRuleFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
