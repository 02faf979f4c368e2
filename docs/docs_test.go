// Package docs holds the user documentation; its tests keep the pages true
// to the code they show.
package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestTheGuideShowsTheNotesSampleAsItIs keeps the guide's leading example
// identical to the notes sample that the Android tests build and run, so
// the example works as written: the descriptor, the typed handlers (which
// the notes build checks with sdk-ksp) and the manifest, in that order.
func TestTheGuideShowsTheNotesSampleAsItIs(t *testing.T) {
	guide := read(t, "tool-sdk.md")
	blocks := regexp.MustCompile("(?s)```(?:xml|kotlin)\n(.*?)```").FindAllStringSubmatch(guide, 3)
	if len(blocks) < 3 {
		t.Fatalf("the guide has %d code blocks before its first section, want the descriptor, the typed handlers and the manifest", len(blocks))
	}
	typed := read(t, "../android/notes/src/main/kotlin/io/github/mobilemcp/notes/NotesTools.kt")
	// The block leaves out the imports; the sentence before it names each, with its package.
	intro := guide[strings.Index(guide, "**The handlers**"):strings.Index(guide, "```kotlin")]
	for _, imp := range regexp.MustCompile(`(?m)^import ((?:[a-z]+\.)+)([A-Za-z]+)$`).FindAllStringSubmatch(typed, -1) {
		pkg, name := strings.TrimSuffix(imp[1], "."), imp[2]
		named := strings.Contains(intro, "`"+name+"`") && strings.Contains(intro, "`"+pkg+"`")
		if !named && !strings.Contains(intro, "`"+pkg+"."+name+"`") {
			t.Errorf("docs/tool-sdk.md does not name the import %s.%s before the handlers", pkg, name)
		}
	}
	manifest := read(t, "../android/notes/AndroidManifest.xml")
	for i, want := range []struct{ file, text string }{
		{"res/xml/mcp_capabilities.xml", afterComments(read(t, "../android/notes/res/xml/mcp_capabilities.xml"))},
		{"NotesTools.kt", typed[strings.Index(typed, "class NotesTools"):]},
		{"AndroidManifest.xml's <service>", unindent(manifest[strings.Index(manifest, "        <service"):strings.Index(manifest, "</service>")+len("</service>")]) + "\n"},
	} {
		if blocks[i][1] != want.text {
			t.Errorf("docs/tool-sdk.md shows a %s that is not the sample's:\n%s\nthe sample's:\n%s", want.file, blocks[i][1], want.text)
		}
	}
}

// TestTheGuidesGradleLinesRunTheProcessor keeps the guide's Gradle lines
// true to sdk-ksp: the KSP plugin at the version sdk-ksp is built against,
// the processor, and the option that names the descriptor, which the
// processor reads.
func TestTheGuidesGradleLinesRunTheProcessor(t *testing.T) {
	guide := read(t, "tool-sdk.md")
	pom := read(t, "../android/sdk-ksp/pom.xml")
	ksp := regexp.MustCompile(`<ksp.version>([^<]+)</ksp.version>`).FindStringSubmatch(pom)
	if ksp == nil {
		t.Fatal("android/sdk-ksp/pom.xml no longer pins ksp.version")
	}
	processor := read(t, "../android/sdk-ksp/src/main/kotlin/io/github/mobilemcp/ksp/McpToolProcessor.kt")
	option := regexp.MustCompile(`DESCRIPTOR_OPTION\s*=\s*"([^"]+)"`).FindStringSubmatch(processor)
	if option == nil {
		t.Fatal("McpToolProcessor.kt no longer names its option in DESCRIPTOR_OPTION")
	}
	for _, want := range []string{
		`id("com.google.devtools.ksp") version "` + ksp[1] + `"`,
		`ksp("io.github.mobilemcp:sdk-ksp:`,
		`implementation("io.github.mobilemcp:sdk-ktx:`,
		`ksp { arg("` + option[1] + `", `,
	} {
		if !strings.Contains(guide, want) {
			t.Errorf("docs/tool-sdk.md's Gradle lines do not say %s", want)
		}
	}
}

// TestTheJavaPageShowsTheNotesSampleAsItIs keeps the string API's page
// showing the notes sample's Java service as it is.
func TestTheJavaPageShowsTheNotesSampleAsItIs(t *testing.T) {
	pageShowsSource(t, "tool-sdk-java.md", "java", "public class NotesToolService",
		"../android/notes/src/test/java/io/github/mobilemcp/notes/JavaNotesToolService.java", "public class JavaNotesToolService")
}

// TestTheGuideCountsTheSamplesLines keeps the Java page's count of the
// notes sample's Java true as the sample changes.
func TestTheGuideCountsTheSamplesLines(t *testing.T) {
	said := regexp.MustCompile(`together are (\d+) lines of Java, (\d+) of them\s+code`).FindStringSubmatch(read(t, "tool-sdk-java.md"))
	if said == nil {
		t.Fatal("docs/tool-sdk-java.md no longer says how many lines the sample's Java has")
	}
	// Not code: blank lines, comments, the package line and imports.
	notCode := regexp.MustCompile(`^\s*$|^\s*(//|/\*|\*)|^(package|import) `)
	var lines, code int
	for _, path := range []string{"test/java/io/github/mobilemcp/notes/JavaNotesToolService.java", "main/java/io/github/mobilemcp/notes/Notes.java"} {
		for _, line := range strings.Split(strings.TrimSuffix(read(t, "../android/notes/src/"+path), "\n"), "\n") {
			lines++
			if !notCode.MatchString(line) {
				code++
			}
		}
	}
	if got := []string{strconv.Itoa(lines), strconv.Itoa(code)}; said[1] != got[0] || said[2] != got[1] {
		t.Errorf("docs/tool-sdk-java.md says %s lines, %s of them code; the sample has %s and %s", said[1], said[2], got[0], got[1])
	}
}

// TestTheGuidesKotlinIsTheKotlinSample keeps the Java page's Kotlin example
// of the string API identical to the Kotlin notes tool that the Android
// tests compile and run.
func TestTheGuidesKotlinIsTheKotlinSample(t *testing.T) {
	pageShowsSource(t, "tool-sdk-java.md", "kotlin", "class NotesToolService",
		"../android/notes/src/test/kotlin/io/github/mobilemcp/notes/KotlinNotesToolService.kt", "class KotlinNotesToolService")
}

// TestTheGuidesSuspendHandlerIsTheTestedOne keeps the Java page's
// suspending handler identical to the tool that sdk-ktx's tests run.
func TestTheGuidesSuspendHandlerIsTheTestedOne(t *testing.T) {
	pageShowsSource(t, "tool-sdk-java.md", "kotlin", "class TimerToolService",
		"../android/sdk-ktx/src/test/kotlin/io/github/mobilemcp/sdk/ktx/TimerToolService.kt", "class TimerToolService")
}

// TestTheAssistantGuidesExampleIsTheTestedOne keeps the example that
// docs/assistant.md leads with identical to the assistant that the app's
// Kotlin test (KotlinAssistantTest) runs against the SMS app and the notes
// sample.
func TestTheAssistantGuidesExampleIsTheTestedOne(t *testing.T) {
	pageShowsSource(t, "assistant.md", "kotlin", "class PhoneFunctions",
		"../android/app/src/test/kotlin/io/github/mobilemcp/app/PhoneFunctions.kt", "class PhoneFunctions")
	if !strings.HasPrefix(read(t, "assistant.md")[strings.Index(read(t, "assistant.md"), "```"):], "```kotlin\nclass PhoneFunctions") {
		t.Error("docs/assistant.md does not lead with the example")
	}
}

// pageShowsSource fails unless docs/page's first lang code block that
// starts with start is the source file from its first sourceStart on, with
// sourceStart written as start (the name the page gives the class).
func pageShowsSource(t *testing.T, page, lang, start, source, sourceStart string) {
	t.Helper()
	block := regexp.MustCompile("(?s)```" + lang + "\n(" + regexp.QuoteMeta(start) + ".*?)```").FindStringSubmatch(read(t, page))
	if block == nil {
		t.Fatalf("docs/%s shows no %s", page, start)
	}
	text := read(t, source)
	at := strings.Index(text, sourceStart)
	if at < 0 {
		t.Fatalf("%s has no %s", source, sourceStart)
	}
	if want := strings.Replace(text[at:], sourceStart, start, 1); block[1] != want {
		t.Errorf("docs/%s shows a %s that is not %s's:\n%s\nthe source's:\n%s", page, start, source, block[1], want)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// afterComments drops an XML declaration and the comment before the root.
func afterComments(xml string) string {
	return regexp.MustCompile(`(?s)^(<\?xml.*?\?>\n)?(<!--.*?-->\n)?`).ReplaceAllString(xml, "")
}

// unindent removes the eight spaces a <service> has inside <application>.
func unindent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "        ")
	}
	return strings.Join(lines, "\n")
}

// TestProductTextNamesThingsByWhatTheyAre: code, comments, tests, help and
// docs cite the Mobile-MCP spec and the SMS server's transcripts as such,
// and name the default SIMs by what they are, never by the number of a
// source document or of a tracker entry, or by how the work was organised.
// Test data is "the example SMS" or "the reference transcripts", never a
// "seed" (Go's fuzzing term "seed corpus" aside, and a fuzz target's seed
// inputs in its test). And product text speaks of the product and of the
// reader's machine, never of the machines the project happens to be built
// on: "make test needs no Android SDK", not "there is no device here". The
// patterns below list the forms that are refused.
func TestProductTextNamesThingsByWhatTheyAre(t *testing.T) {
	files, err := exec.Command("git", "-C", "..", "ls-files").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	internal := regexp.MustCompile(`(?i)\bseeds? (\d|sims?\b)|\bissues? #?\d+\b|\bissue-\d+\b`)
	seed := regexp.MustCompile(`(?i)\bseeds?\b`)
	goFuzzTerm := regexp.MustCompile(`(?i)\bseed corp(us|ora)\b`)
	environment := regexp.MustCompile(`(?i)\b(own|our) machines?\b|\bthis project's (own )?machines?\b|` +
		`\bno [a-z -]*(device|sdk|ndk|emulator|credentials)s? here\b|` +
		`\b(verified|run|runs|ran|built|cross-built|tested|checked|reachable|unreachable) here\b`)
	for _, name := range strings.Fields(string(files)) {
		switch {
		case strings.Contains(name, "/testdata/"), strings.HasSuffix(name, "docs_test.go"),
			!regexp.MustCompile(`\.(go|java|kt|kts|xml|md|sh|xsl|yml|json|txt|c|h|mjs|py)$|Makefile$|\.ci/run$`).MatchString(name):
			continue
		}
		data, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			continue // listed but not in the work tree
		}
		test := isTest(name)
		for i, line := range strings.Split(string(data), "\n") {
			if m := internal.FindString(line); m != "" {
				t.Errorf("%s:%d says %q: name the thing itself (the Mobile-MCP spec §…, the SMS server's transcripts, the two default SIMs)", name, i+1, m)
			}
			if m := seed.FindString(goFuzzTerm.ReplaceAllString(line, "")); m != "" && !test {
				t.Errorf("%s:%d says %q: say what it is (the example SMS, the reference transcripts, the fuzz corpus)", name, i+1, m)
			}
			if m := environment.FindString(line); m != "" {
				t.Errorf("%s:%d says %q: speak of the product and the reader's machine (make test needs no Android SDK), not of where it was built", name, i+1, m)
			}
		}
	}
}

// isTest reports whether the tracked file name is a test, whose fuzz
// targets may call their inputs seeds, as Go does.
func isTest(name string) bool {
	return strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_test.sh") ||
		strings.Contains(name, "/src/test/") || strings.Contains(name, "/src/androidTest/")
}

// TestDocsNameOnlyPathsThatExist: every file or directory of the
// repository that a page names, in code spans and in links, exists, so
// that a move leaves no page pointing at nothing. A path git ignores is
// what a command writes (build/, a module's target/), and a path with a
// placeholder (MODULE, *, <x>) is a pattern: neither is checked.
func TestDocsNameOnlyPathsThatExist(t *testing.T) {
	files, err := exec.Command("git", "-C", "..", "ls-files").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	tracked := strings.Fields(string(files))
	tops := map[string]bool{}
	for _, f := range tracked {
		if dir, _, ok := strings.Cut(f, "/"); ok {
			tops[dir] = true
		}
	}
	span := regexp.MustCompile("`([^`\\s]+)`")
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	placeholder := regexp.MustCompile(`[*<>{}$]|\.\.\.|…|\b[A-Z][A-Z_]{2,}\b`)
	checked := 0
	for _, page := range tracked {
		if !strings.HasSuffix(page, ".md") || strings.Contains(page, "node_modules/") {
			continue
		}
		text := read(t, filepath.Join("..", page))
		var paths []string
		for _, m := range span.FindAllStringSubmatch(text, -1) {
			// A path in a code span is from the repository's root.
			if p := strings.TrimPrefix(m[1], "./"); strings.Contains(p, "/") && tops[strings.Split(p, "/")[0]] {
				paths = append(paths, p)
			}
		}
		for _, m := range link.FindAllStringSubmatch(text, -1) {
			// A link is relative to its page.
			if target := m[1]; !strings.Contains(target, "://") && !strings.HasPrefix(target, "mailto:") {
				paths = append(paths, filepath.ToSlash(filepath.Join(filepath.Dir(page), target)))
			}
		}
		for _, p := range paths {
			p = strings.TrimRight(p, ".,:;")
			if placeholder.MatchString(p) {
				continue
			}
			checked++
			if _, err := os.Stat(filepath.Join("..", p)); err != nil && !ignored(p) {
				t.Errorf("%s names %s, which does not exist", page, p)
			}
		}
	}
	if checked < 100 {
		t.Errorf("checked %d paths; the pages name far more, so the patterns no longer find them", checked)
	}
}

// ignored reports whether git ignores path, as a file or as a directory:
// something a build or an install writes.
func ignored(path string) bool {
	for _, p := range []string{path, path + "/x"} {
		if exec.Command("git", "-C", "..", "check-ignore", "-q", "--no-index", p).Run() == nil {
			return true
		}
	}
	return false
}
