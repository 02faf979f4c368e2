package xmlfile_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

func TestDocsShowEveryRule(t *testing.T) {
	data, err := os.ReadFile("../../../docs/reference/lint-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	docs := string(data)
	// The page cites the Mobile-MCP spec as such, never by the name of a
	// document in this project's sources.
	if m := regexp.MustCompile(`(?i)seed \d`).FindString(docs); m != "" {
		t.Errorf("docs/reference/lint-rules.md cites %q; cite the Mobile-MCP spec", m)
	}
	for _, r := range xmlfile.Rules() {
		// Each rule has a heading with its id and severity, and a
		// failing example with the finding it produces.
		heading := "### " + r.ID + " (" + r.Severity.String() + ")"
		if !strings.Contains(docs, "\n"+heading+"\n") {
			t.Errorf("docs/reference/lint-rules.md lacks the heading %q", heading)
		}
		if !regexp.MustCompile(`: ` + r.Severity.String() + `: .*\[` + regexp.QuoteMeta(r.ID) + `\]`).MatchString(docs) {
			t.Errorf("docs/reference/lint-rules.md shows no finding of %s", r.ID)
		}
	}
}

// TestDocsExamplesAreWhatLintSays lints each whole-file example of the
// descriptor rules in docs/reference/lint-rules.md and compares the findings with
// the ones the page shows under it. (The manifest examples show only a
// service, so they are not whole files.)
func TestDocsExamplesAreWhatLintSays(t *testing.T) {
	data, err := os.ReadFile("../../../docs/reference/lint-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	example := regexp.MustCompile("(?s)\n### ([a-z-]+) \\([a-z]+\\)\n.*?```xml\n(.*?)```\n\n```\n(.*?)```\n")
	checked := 0
	for _, m := range example.FindAllStringSubmatch(string(data), -1) {
		rule, xml, want := m[1], m[2], m[3]
		if strings.HasPrefix(rule, "manifest-") {
			continue
		}
		findings := xmlfile.Lint("mcp_capabilities.xml", []byte(xml), nil)
		if rule != "missing-read-only" {
			// The page says that the other examples leave it out.
			findings = besidesReadOnly(findings)
		}
		var got strings.Builder
		for _, f := range findings {
			got.WriteString(f.String() + "\n")
		}
		if got.String() != want {
			t.Errorf("%s: the example's findings are\n%s\nbut the docs show\n%s", rule, got.String(), want)
		}
		checked++
	}
	descriptorRules := 0
	for _, r := range xmlfile.Rules() {
		if !strings.HasPrefix(r.ID, "manifest-") {
			descriptorRules++
		}
	}
	if checked != descriptorRules {
		t.Errorf("checked %d descriptor examples, want one per descriptor rule, %d", checked, descriptorRules)
	}
}
