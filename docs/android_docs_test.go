package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// The pages for tool and assistant developers and contributors whose code
// blocks and references these tests keep honest.
func toolAndContributorPages(t *testing.T) []string {
	t.Helper()
	internals, err := filepath.Glob("internals/*.md")
	if err != nil || len(internals) == 0 {
		t.Fatalf("no pages in docs/internals/: %v", err)
	}
	return append([]string{"tool-sdk.md", "tool-sdk-java.md", "assistant.md", "assistant-mcp.md", "security.md", "reliability.md", "../CONTRIBUTING.md"}, internals...)
}

// compiledSources are the Java and Kotlin files the Android tests compile
// and run that a page may show whole or in part, each with the name the
// page gives its class.
var compiledSources = []struct{ path, from, to string }{
	{"../android/notes/src/test/java/io/github/mobilemcp/notes/JavaNotesToolService.java", "JavaNotesToolService", "NotesToolService"},
	{"../android/notes/src/test/kotlin/io/github/mobilemcp/notes/KotlinNotesToolService.kt", "KotlinNotesToolService", "NotesToolService"},
	{"../android/notes/src/test/kotlin/io/github/mobilemcp/notes/KotlinNotesToolTest.kt", "", ""},
	{"../android/notes/src/main/kotlin/io/github/mobilemcp/notes/NotesTools.kt", "", ""},
	{"../android/notes/src/test/kotlin/io/github/mobilemcp/notes/TypedNotesToolTest.kt", "", ""},
	{"../android/sdk-ktx/src/test/kotlin/io/github/mobilemcp/sdk/ktx/TimerToolService.kt", "", ""},
	{"../android/app/src/test/kotlin/io/github/mobilemcp/app/PhoneFunctions.kt", "", ""},
}

// apiListings are the public APIs of the libraries a tool or an assistant
// developer calls, as scripts/api-listing.sh writes them.
var apiListings = []string{
	"../android/sdk/api.txt", "../android/sdk-ktx/api.txt",
	"../android/client/api.txt", "../android/client-ktx/api.txt", "../android/client-mcp/api.txt",
	"../android/sdk-testing/api.txt",
}

// platformClasses are the Android, Java and Koog classes a page's code may
// call, which no listing of ours names.
var platformClasses = map[string]bool{"Log": true, "McpToolRegistryProvider": true}

// shortBlock is the most lines a code block that no compiled source holds
// may have: a call signature or a build snippet, not a program.
const shortBlock = 12

// TestCodeBlocksAreCompiledOrCallTheListedAPI: every Java or Kotlin block
// on the tool developers' and contributors' pages is either part of a
// source file the Android tests compile, or a few lines long; and every
// call Foo.bar( in any of them names a method that the API listings give
// class Foo, so that a renamed or removed method fails here, not in a
// reader's build.
func TestCodeBlocksAreCompiledOrCallTheListedAPI(t *testing.T) {
	methods := listedMethods(t)
	var sources []string
	for _, s := range compiledSources {
		text := read(t, s.path)
		if s.from != "" {
			text = strings.ReplaceAll(text, s.from, s.to)
		}
		sources = append(sources, text)
	}
	block := regexp.MustCompile("(?s)```(?:java|kotlin)\n(.*?)```")
	call := regexp.MustCompile(`\b([A-Z]\w*)\.([a-z]\w*)\(`)
	blocks, calls := 0, 0
	for _, page := range toolAndContributorPages(t) {
		for _, m := range block.FindAllStringSubmatch(read(t, page), -1) {
			blocks++
			code := m[1]
			compiled := false
			for _, src := range sources {
				compiled = compiled || strings.Contains(src, code)
			}
			if lines := strings.Count(code, "\n"); !compiled && lines > shortBlock {
				t.Errorf("docs/%s shows %d lines of code that no compiled source holds; show a tested file as it is, or at most %d lines:\n%s",
					page, lines, shortBlock, code)
			}
			for _, c := range call.FindAllStringSubmatch(code, -1) {
				class, method := c[1], c[2]
				if platformClasses[class] {
					continue
				}
				calls++
				if _, ok := methods[class]; !ok {
					t.Errorf("docs/%s calls %s.%s(, and no API listing (%s) has a class %s", page, class, method, strings.Join(apiListings, ", "), class)
				} else if !methods[class][method] {
					t.Errorf("docs/%s calls %s.%s(, which the API listings do not give %s (it has %s)", page, class, method, class, sortedKeys(methods[class]))
				}
			}
		}
	}
	if blocks < 5 || calls < 3 {
		t.Errorf("found %d Java or Kotlin blocks and %d calls; the pages show more, so the patterns no longer find them", blocks, calls)
	}
}

// listedMethods reads the API listings into each class's simple name (a
// nested class by its own name too) and the names of its methods.
func listedMethods(t *testing.T) map[string]map[string]bool {
	t.Helper()
	classLine := regexp.MustCompile(`^public .*\b(?:class|interface|enum) ([\w.$]+)`)
	member := regexp.MustCompile(`\s(\w+)\(`)
	methods := map[string]map[string]bool{}
	for _, listing := range apiListings {
		var current []string
		for _, line := range strings.Split(read(t, listing), "\n") {
			if m := classLine.FindStringSubmatch(line); m != nil {
				name := m[1][strings.LastIndex(m[1], ".")+1:]
				current = []string{name, name[strings.LastIndex(name, "$")+1:]}
				for _, n := range current {
					if methods[n] == nil {
						methods[n] = map[string]bool{}
					}
				}
				continue
			}
			if m := member.FindStringSubmatch(line); m != nil && current != nil {
				for _, n := range current {
					methods[n][m[1]] = true
				}
			}
		}
	}
	if len(methods["ToolResult"]) == 0 || len(methods["McpToolRule"]) == 0 {
		t.Fatalf("the API listings give ToolResult %v and McpToolRule %v; the listings' format changed", methods["ToolResult"], methods["McpToolRule"])
	}
	return methods
}

func sortedKeys(set map[string]bool) string {
	var keys []string
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

// TestTheGuidesTestIsTheNotesSamplesTest keeps the test that
// docs/tool-sdk.md shows identical to the notes sample's test of its typed
// tool (the first class of TypedNotesToolTest.kt), which the Android tests run.
func TestTheGuidesTestIsTheNotesSamplesTest(t *testing.T) {
	block := regexp.MustCompile("(?s)```kotlin\n(@RunWith\\(McpTestRunner::class\\).*?)```").FindStringSubmatch(read(t, "tool-sdk.md"))
	if block == nil {
		t.Fatal("docs/tool-sdk.md shows no Kotlin test run by McpTestRunner")
	}
	kotlin := read(t, "../android/notes/src/test/kotlin/io/github/mobilemcp/notes/TypedNotesToolTest.kt")
	want := kotlin[strings.Index(kotlin, "@RunWith"):]
	want = want[:strings.Index(want, "\n}\n")+3]
	if block[1] != want {
		t.Errorf("docs/tool-sdk.md's test is not the sample's:\n%s\nthe sample's:\n%s", block[1], want)
	}
}

// TestEveryFileNamesOnlyDocPagesThatExist: a doc page named in any tracked
// file (a comment, a script's message, a workflow, help text, a page)
// exists, and so does what the reference points into: a #fragment is one
// of the page's headings, and a section quoted after the page's name
// (docs/security.md, "Someone with adb") is words the page says. Links
// between pages are relative; for them, TestDocsNameOnlyPathsThatExist
// checks the path and this test the fragment.
func TestEveryFileNamesOnlyDocPagesThatExist(t *testing.T) {
	out, err := exec.Command("git", "-C", "..", "ls-files").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	// A page from the repository's root, not the tail of another path
	// (android/x/docs/, $docs/), with what follows it.
	named := regexp.MustCompile(`(^|[^\w$/.-]|(?:\.\./)+)(docs/[\w./-]*?\.md)(#[\w-]+)?((?:,? "[^"\n]+")*)`)
	quoted := regexp.MustCompile(`"([^"\n]+)"`)
	link := regexp.MustCompile(`\]\(([^)#\s:]+\.md)(#[^)\s]+)\)`)
	checked := 0
	for _, name := range strings.Fields(string(out)) {
		if strings.Contains(name, "node_modules/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join("..", name))
		if err != nil || strings.ContainsRune(string(data[:min(len(data), 8000)]), 0) {
			continue // not in the work tree, or not text
		}
		text := string(data)
		for _, m := range named.FindAllStringSubmatch(text, -1) {
			page, fragment, sections := m[2], m[3], m[4]
			checked++
			body, err := os.ReadFile(filepath.Join("..", page))
			if err != nil {
				t.Errorf("%s names %s, which does not exist", name, page)
				continue
			}
			if fragment != "" && !hasHeading(string(body), fragment[1:]) {
				t.Errorf("%s names %s%s, and %s has no such heading", name, page, fragment, page)
			}
			for _, q := range quoted.FindAllStringSubmatch(sections, -1) {
				if !says(string(body), q[1]) {
					t.Errorf("%s names %s, %q, and %s does not say %q", name, page, q[1], page, q[1])
				}
			}
		}
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			target := filepath.Join("..", filepath.Dir(name), m[1])
			body, err := os.ReadFile(target)
			if err != nil {
				continue // TestDocsNameOnlyPathsThatExist reports it
			}
			checked++
			if !hasHeading(string(body), m[2][1:]) {
				t.Errorf("%s links to %s%s, and %s has no such heading", name, m[1], m[2], m[1])
			}
		}
	}
	if checked < 50 {
		t.Errorf("checked %d references to pages; the files make far more, so the patterns no longer find them", checked)
	}
}

// hasHeading reports whether a Markdown page has a heading whose anchor, as
// GitHub makes it, is fragment.
func hasHeading(page, fragment string) bool {
	for _, line := range strings.Split(page, "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var slug strings.Builder
		for _, r := range strings.ToLower(title) {
			switch {
			case r == ' ':
				slug.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				slug.WriteRune(r)
			}
		}
		if slug.String() == fragment {
			return true
		}
	}
	return false
}

// says reports whether a page says words, whatever their case, their
// Markdown emphasis and the lines they are broken over.
func says(page, words string) bool {
	flat := func(s string) string {
		s = strings.NewReplacer("**", "", "`", "", "*", "").Replace(strings.ToLower(s))
		return strings.Join(strings.Fields(s), " ")
	}
	return strings.Contains(flat(page), flat(words))
}
