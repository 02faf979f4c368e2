package docs

import (
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// TestErrorsPageListsEveryCode keeps docs/reference/errors.md's table equal
// to the engine's codes, in the engine's order: a code the engine can send
// that the page does not explain fails, and so does a row for a code that
// no longer exists.
func TestErrorsPageListsEveryCode(t *testing.T) {
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(read(t, "reference/errors.md"), -1) {
		documented = append(documented, m[1])
	}
	var codes []string
	for _, c := range capability.Codes() {
		codes = append(codes, string(c))
	}
	for _, c := range codes {
		if !slices.Contains(documented, c) {
			t.Errorf("docs/reference/errors.md does not explain %s, a code of capability.Codes()", c)
		}
	}
	for _, c := range documented {
		if !slices.Contains(codes, c) {
			t.Errorf("docs/reference/errors.md explains %s, which is not a code of capability.Codes()", c)
		}
	}
	if !t.Failed() && !slices.Equal(documented, codes) {
		t.Errorf("docs/reference/errors.md lists the codes as %v; list them in capability.Codes()'s order, %v", documented, codes)
	}
}

// TestUsersPagesFitTheirLimits keeps the README within 8 KiB and each page
// for tool, assistant and desktop users and each reference page within
// 20 KiB, so that a reader gets through each in one sitting; a page that
// grows past it is split, or its long tables move to generated pages.
func TestUsersPagesFitTheirLimits(t *testing.T) {
	pages, err := filepath.Glob("reference/*.md")
	if err != nil {
		t.Fatal(err)
	}
	limits := map[string]int{"../README.md": 8192}
	for _, p := range append(pages, "desktop.md", "assistant.md", "simulated-phone.md") {
		limits[p] = 20480
	}
	for page, limit := range limits {
		if n := len(read(t, page)); n > limit {
			t.Errorf("%s is %d bytes; the limit is %d", page, n, limit)
		}
	}
}
