package docs

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestTheGoAPIPageNamesEveryPackage: every package of the module that
// another module can import is on docs/reference/go-api.md, as supported
// or as not a Go API, so that a new package is placed on purpose.
func TestTheGoAPIPageNamesEveryPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "../...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	page := read(t, "reference/go-api.md")
	listed := 0
	for _, pkg := range strings.Fields(string(out)) {
		path := strings.TrimPrefix(pkg, "github.com/mobilemcp/mobilemcp/")
		if path == "internal" || strings.HasPrefix(path, "internal/") || strings.Contains(path, "/internal/") {
			continue // Go keeps them from other modules
		}
		listed++
		if !strings.Contains(page, "`"+path+"`") {
			t.Errorf("docs/reference/go-api.md does not say whether %s is a supported Go API", path)
		}
	}
	if listed < 10 {
		t.Errorf("found %d packages; the module has more", listed)
	}
}

// TestTheGoAPIPagesExampleIsTheTestedOne: the page's snippet is part of
// ExampleEngine_Do, which go test runs and checks.
func TestTheGoAPIPagesExampleIsTheTestedOne(t *testing.T) {
	block := regexp.MustCompile("(?s)```go\n(.*?)```").FindStringSubmatch(read(t, "reference/go-api.md"))
	if block == nil {
		t.Fatal("docs/reference/go-api.md has no Go block")
	}
	example, err := os.ReadFile("../engine/capability/example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body := regexp.MustCompile("(?s)func ExampleEngine_Do\\(\\) \\{\n(.*?)\n}\n").FindSubmatch(example)
	if body == nil {
		t.Fatal("engine/capability/example_test.go has no ExampleEngine_Do")
	}
	unindented := regexp.MustCompile("(?m)^\t").ReplaceAllString(string(body[1]), "")
	if !strings.Contains(unindented, block[1]) {
		t.Errorf("docs/reference/go-api.md's example is not part of ExampleEngine_Do:\n%s", block[1])
	}
}
