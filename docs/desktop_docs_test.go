package docs

import (
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// TestTheSimulatedPhonePageShowsTheDefaultPhone keeps the configuration
// that docs/simulated-phone.md shows the default phone's own, so a copy of
// it starts from what a plain 'mobilemcp serve' has.
func TestTheSimulatedPhonePageShowsTheDefaultPhone(t *testing.T) {
	page := read(t, "simulated-phone.md")
	section := page[strings.Index(page, "## SIM configuration"):]
	block := regexp.MustCompile("(?s)```json\n(.*?)```").FindStringSubmatch(section)
	if block == nil {
		t.Fatal("docs/simulated-phone.md's SIM configuration shows no JSON")
	}
	cfg, err := simphone.ParseConfig("docs/simulated-phone.md", []byte(block[1]))
	if err != nil {
		t.Fatal(err)
	}
	if want := simphone.DefaultConfig(); !reflect.DeepEqual(cfg, want) {
		t.Errorf("docs/simulated-phone.md shows\n%+v\nthe default phone is\n%+v", cfg, want)
	}
}

// TestDocsPinWhatTheyRunWithNpx keeps every package the docs run with npx
// at a version, so a reader gets the one the docs were checked with (an
// unpinned MCP Inspector on Node 20 is 0.15, which lacks the flags shown).
// Only mobilemcp's own package runs unpinned: its latest is this project.
func TestDocsPinWhatTheyRunWithNpx(t *testing.T) {
	pages := []string{"../README.md"}
	for _, pattern := range []string{"*.md", "*/*.md"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, found...)
	}
	npx := regexp.MustCompile(`\bnpx (?:-y |--yes )?([^\s"'` + "`" + `]+)`)
	pinned := regexp.MustCompile(`^(?:@[a-z0-9-]+/)?[a-z0-9.-]+@\d+\.\d+\.\d+$`)
	seen := 0
	for _, page := range pages {
		text := read(t, page)
		for _, m := range npx.FindAllStringSubmatchIndex(text, -1) {
			if strings.HasSuffix(text[:m[0]], "--via ") {
				continue // config's option, not a command
			}
			seen++
			if pkg := text[m[2]:m[3]]; pkg != "mobilemcp" && !pinned.MatchString(pkg) {
				t.Errorf("%s runs %q: give the package's version (npx %s@X.Y.Z)", page, text[m[0]:m[1]], pkg)
			}
		}
	}
	if seen < 3 {
		t.Errorf("found %d npx commands; the pattern no longer finds them", seen)
	}
}
