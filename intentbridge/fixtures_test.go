package intentbridge

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

var update = flag.Bool("update", false, "rewrite the Tool SDK's descriptor fixtures (TestSDKTestsFixturesAreLintsExamples)")

// The Tool SDK's descriptor fixtures: descriptors that its tests
// (android/sdk-tests, DescriptorFixturesTest) start a tool on as a phone
// does: Android's resource compiler compiles each, the SDK walks the
// compiled resource (DescriptorTree), and the engine reads that tree. Each
// must be refused with the errors mobilemcp lint finds in its text, which
// fixtureErrors holds, or, when lint finds none, not for its descriptor.
const (
	fixtureRes    = "../android/sdk-tests/src/test/res/xml"
	fixtureErrors = "../android/sdk-tests/src/test/resources/io/github/mobilemcp/sdktests/descriptors"
)

// badPattern is the one fixture that is not a lint rule's example: an
// mcp:pattern that is not a regular expression, which the host engine
// checks and the engine apps ship does not.
const badPattern = `<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
  <capability id="find_contact" description="Finds a contact." version="1.0" mcp:readOnly="true">
    <input>
      <param name="name" type="string" required="true" description="Part of the name." mcp:pattern="[a-z"/>
    </input>
  </capability>
</mobile-mcp-capabilities>
`

// TestSDKTestsFixturesAreLintsExamples keeps the fixtures equal to the
// examples of the lint rules (docs/reference/lint-rules.md) that are
// descriptors Android compiles (not xml-syntax, not a manifest's), and
// their errors equal to what lint says today. go test ./intentbridge -run
// TestSDKTestsFixtures -update writes them again.
func TestSDKTestsFixturesAreLintsExamples(t *testing.T) {
	files, err := filepath.Glob("../engine/descriptor/xmlfile/testdata/lint-rules/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lint rule examples: %v", err)
	}
	want := map[string]string{"lint_bad_pattern": badPattern}
	example := regexp.MustCompile("(?s)```xml\n(.*?)```")
	for _, file := range files {
		rule := strings.TrimSuffix(filepath.Base(file), ".txt")
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if m := example.FindSubmatch(text); m != nil && rule != "xml-syntax" && !strings.HasPrefix(rule, "manifest-") {
			want["lint_"+strings.ReplaceAll(rule, "-", "_")] = string(m[1])
		}
	}
	if *update {
		for _, dir := range []string{fixtureRes, fixtureErrors} {
			os.RemoveAll(dir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, xml := range want {
		var errs []string
		for _, f := range xmlfile.Lint("res/xml/"+name+".xml", []byte(xml), nil) {
			if f.Severity == descriptor.Error {
				errs = append(errs, f.String()+"\n")
			}
		}
		for path, content := range map[string]string{
			filepath.Join(fixtureRes, name+".xml"):    xml,
			filepath.Join(fixtureErrors, name+".txt"): strings.Join(errs, ""),
		} {
			if *update {
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if got, err := os.ReadFile(path); err != nil || string(got) != content {
				t.Errorf("%s is stale or missing (%v); write it again with go test ./intentbridge -run TestSDKTestsFixtures -update", path, err)
			}
		}
	}
	if !*update {
		if got, _ := filepath.Glob(filepath.Join(fixtureRes, "*.xml")); len(got) != len(want) {
			t.Errorf("%s holds %d fixtures, not the %d written; write them again with -update", fixtureRes, len(got), len(want))
		}
	}
}
