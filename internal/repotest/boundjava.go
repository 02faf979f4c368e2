// Generate and List list the Java API that gobind generates for bound Go
// packages. TestBoundJava pins the listings of intentbridge and smsapp in golden
// files (testdata/), as golang.org/x/mobile pins its own bindings, so that
// what the Android modules compile against changes only on purpose: after a
// change to their exported API that is meant, run
//
//	go test ./internal/repotest -run TestBoundJava -update
//
// and commit testdata/. In code:
//
//	java, err := Generate(moduleRoot, "./intentbridge")
//	listing, err := List(java, "io.github.mobilemcp.intentbridge")
//
// A listing holds each public class and interface of a Java package and
// its public members, one a line, with gobind's note of each Go name it
// could not bind ("// skipped method Tool.AddGo with unsupported parameter
// or return types"). Doc comments, bodies and gobind's own plumbing
// (proxy classes, equals, hashCode, toString) are left out: they change
// nothing a caller compiles against.

package repotest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// JavaPackagePrefix is the Java package the engine's bound Go packages go
// under (gobind's -javapkg), as scripts/engine-glue.sh binds them.
const JavaPackagePrefix = "io.github.mobilemcp"

// Generate runs gobind -lang=java on the Go packages pkgs (patterns such
// as ./intentbridge, relative to moduleRoot), with the Java package prefix
// the engine's builds use, and returns the directory of the Java sources
// it wrote, under a new temporary directory the caller removes. Binding
// a package that others name in their signatures beside them is what
// binds those signatures: ./smsapp needs ./intentbridge.
func Generate(moduleRoot string, pkgs ...string) (string, error) {
	out, err := os.MkdirTemp("", "boundjava")
	if err != nil {
		return "", err
	}
	args := append([]string{"tool", "gobind", "-lang=java", "-javapkg=" + JavaPackagePrefix, "-outdir", out}, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = moduleRoot
	if msg, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(out)
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	return filepath.Join(out, "java"), nil
}

// List returns the listing of the Java package javaPackage under javaDir,
// a source tree as Generate returns it: its files in the order of their
// names, each class or interface with its members in gobind's order.
func List(javaDir, javaPackage string) (string, error) {
	dir := filepath.Join(javaDir, filepath.FromSlash(strings.ReplaceAll(javaPackage, ".", "/")))
	files, err := filepath.Glob(filepath.Join(dir, "*.java"))
	if err != nil {
		return "", err
	}
	if len(files) == 0 {
		return "", fmt.Errorf("gobind wrote no Java for %s in %s", javaPackage, dir)
	}
	slices.Sort(files)
	var b strings.Builder
	fmt.Fprintf(&b, "package %s\n", javaPackage)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		b.WriteString(listFile(src))
	}
	return b.String(), nil
}

var docComment = regexp.MustCompile(`(?s)/\*\*.*?\*/`)

// listFile lists the public declarations of one Java file: the type at
// depth 0 and its public members, and gobind's skipped notes, at depth 1.
func listFile(src []byte) string {
	src = docComment.ReplaceAll(src, nil)
	var b strings.Builder
	depth := 0
	for _, line := range strings.Split(string(src), "\n") {
		t := strings.Join(strings.Fields(line), " ")
		switch {
		case depth == 0 && strings.HasPrefix(t, "public "):
			b.WriteString(declaration(t) + " {\n")
		case depth == 1 && strings.HasPrefix(t, "// skipped "):
			b.WriteString("  " + t + "\n")
		case depth == 1 && strings.HasPrefix(t, "public "):
			b.WriteString("  " + declaration(t) + ";\n")
		}
		before := depth
		depth += braces(t)
		if before > 0 && depth == 0 {
			b.WriteString("}\n")
		}
	}
	return b.String()
}

// declaration is line without its body or its final semicolon.
func declaration(line string) string {
	if i := outsideStrings(line, '{'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSuffix(strings.TrimSpace(line), ";")
}

// braces is how much deeper line leaves the nesting of braces, counting
// none inside string or character literals (toString writes "{").
func braces(line string) int {
	n := 0
	for _, c := range codeOnly(line) {
		switch c {
		case '{':
			n++
		case '}':
			n--
		}
	}
	return n
}

// outsideStrings returns the index of the first c in line outside string
// and character literals, or -1.
func outsideStrings(line string, c byte) int {
	return bytes.IndexByte(codeOnly(line), c)
}

// codeOnly is line with its string and character literals, and a
// trailing // comment, blanked out, at the same offsets.
func codeOnly(line string) []byte {
	out := []byte(line)
	var quote byte
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case quote != 0:
			if c == '\\' && i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
				continue
			}
			if c == quote {
				quote = 0
			}
			out[i] = ' '
		case c == '"' || c == '\'':
			quote = c
			out[i] = ' '
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for j := i; j < len(out); j++ {
				out[j] = ' '
			}
			return out
		}
	}
	return out
}

// Diff returns the lines of want and got that the other lacks, in order,
// marked - and +, or "" when they are the same: a longest common
// subsequence of lines, which listings of a few hundred lines afford.
func Diff(want, got string) string {
	a, b := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	// common[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	common := make([][]int, len(a)+1)
	for i := range common {
		common[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				common[i][j] = common[i+1][j+1] + 1
			} else {
				common[i][j] = max(common[i+1][j], common[i][j+1])
			}
		}
	}
	var d strings.Builder
	line := func(mark, s string) { d.WriteString(mark + strings.TrimSuffix(s, "\n") + "\n") }
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || common[i][j+1] >= common[i+1][j]):
			line("+", b[j])
			j++
		default:
			line("-", a[i])
			i++
		}
	}
	return d.String()
}
