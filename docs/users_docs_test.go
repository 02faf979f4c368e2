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

// TestPagesFitTheirLimits keeps the README within 8 KiB and every other
// page of the docs, CONTRIBUTING.md and RELEASING.md within 20 KiB, so that a
// reader gets through each in one sitting; a page that grows past it is
// split, or its long tables move to generated pages.
func TestPagesFitTheirLimits(t *testing.T) {
	var pages []string
	for _, pattern := range []string{"*.md", "*/*.md", "../CONTRIBUTING.md", "../RELEASING.md"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, found...)
	}
	if len(pages) < 12 {
		t.Fatalf("found only %d pages (%v); the patterns no longer find the docs", len(pages), pages)
	}
	limits := map[string]int{"../README.md": 8192}
	for _, p := range pages {
		limits[p] = 20480
	}
	for page, limit := range limits {
		if n := len(read(t, page)); n > limit {
			t.Errorf("%s is %d bytes; the limit is %d", page, n, limit)
		}
	}
}
