package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/internal/osfile"
)

// defaultDescriptorPath is where gen writes the descriptor, relative to the
// module root; the strings go to the values directory of the same res
// directory (stringsPathFor). Moving the app's resources is a change of
// this one line.
const defaultDescriptorPath = "android/app/res/xml/mcp_capabilities.xml"

var defaultStringsPath = stringsPathFor(defaultDescriptorPath)

// modulePath is the module whose root the default paths are relative to.
const modulePath = "github.com/mobilemcp/mobilemcp"

// isModuleRoot reports whether dir is the root of this repository: it
// holds a go.mod that declares modulePath. A go.mod is the mark rather
// than a res directory, which any Android project has and which moves.
func isModuleRoot(dir string) bool {
	data, err := osfile.ReadFile(filepath.Join(dir, "go.mod"), 1<<20) // a go.mod is a few KB
	return err == nil && modfile.ModulePath(data) == modulePath
}

// maxGeneratedBytes bounds what gen reads of a file it would overwrite or
// compare: what it writes is a few KB, so anything larger differs.
const maxGeneratedBytes = 1 << 20

// readGenerated reads the file at path that gen would write, for comparing.
// A file larger than anything gen writes comes back as it is cut, so it
// differs; one that does not exist is an error the caller checks with
// os.ErrNotExist.
func readGenerated(path string) ([]byte, error) {
	data, err := osfile.ReadFile(path, maxGeneratedBytes)
	if osfile.IsTooLarge(err) {
		return []byte(fmt.Sprintf("(more than %d bytes)\n", maxGeneratedBytes)), nil
	}
	return data, err
}

func init() {
	register(command{name: "gen", summary: "generate the capability descriptor and the tool's string resources", run: runGen})
}

// genFile is one file gen writes.
type genFile struct {
	path string
	data []byte
}

func runGen(e *env, args []string) int {
	fs := newFlags(e, "gen", "[-o FILE] [--strings FILE] [--check]",
		`Generates, from the built-in capabilities, the capability descriptor
(`+defaultDescriptorPath+`) and the string resources its manifest entries
name (`+defaultStringsPath+`: tool_name and tool_description). Without -o
it runs only at the repository root, the directory whose go.mod declares
module `+modulePath+`, and refuses anywhere else rather than
write a res directory there. With -o, the strings go to values/strings.xml
of the same res directory, or nowhere when the descriptor is not in one.

With --check, nothing is written: gen exits 1 and prints a diff when a
file differs from what it would generate, which is how CI catches a
registry change without a regenerated descriptor.`)
	out := fs.String("o", defaultDescriptorPath, "write the descriptor to `file` (- prints it)")
	stringsOut := fs.String("strings", "", "write the string resources to `file` (default: values/strings.xml in the res directory of the descriptor; empty skips them)")
	check := fs.Bool("check", false, "write nothing; exit 1 with a diff if a file is stale")
	if code, done := parseNoArgs(e, fs, args); done {
		return code
	}
	if !isSet(fs, "o") {
		if wd, err := os.Getwd(); err != nil || !isModuleRoot(wd) {
			return usageError(e, fs, "the current directory is not the root of the module %s, so gen would write %s where it does not belong; run it at the repository root, or name the descriptor with -o FILE", modulePath, defaultDescriptorPath)
		}
	}
	if !isSet(fs, "strings") {
		*stringsOut = stringsPathFor(*out)
	}
	if *check && (*out == "-" || *stringsOut == "-") {
		return usageError(e, fs, "--check compares files; it cannot check -")
	}
	files := generate(*out, *stringsOut)
	if *check {
		return checkGenerated(e, files, regenerateCommand(fs))
	}
	for _, f := range files {
		if err := writeGenerated(e, f); err != nil {
			fmt.Fprintf(e.stderr, "mobilemcp gen: %v\n", err)
			return exitFailure
		}
	}
	return exitOK
}

// stringsPathFor returns where the string resources of a descriptor
// written to path belong: values/strings.xml in the same res directory.
// It returns "" when path is not in the xml directory of a res directory,
// so that gen -o elsewhere never writes a res tree into the current one.
func stringsPathFor(path string) string {
	dir := filepath.Dir(path)
	if name := filepath.Base(dir); path == "-" || (name != "xml" && !strings.HasPrefix(name, "xml-")) {
		return ""
	}
	return filepath.Join(filepath.Dir(dir), "values", "strings.xml")
}

// generate renders the built-in capabilities to the descriptor path and
// the tool's strings to stringsPath, which may be empty.
func generate(descriptorPath, stringsPath string) []genFile {
	files := []genFile{{descriptorPath, xmlfile.Render(builtinRegistry().All())}}
	if stringsPath != "" {
		files = append(files, genFile{stringsPath, xmlfile.RenderStrings(builtinTool.name, builtinTool.description)})
	}
	return files
}

func writeGenerated(e *env, f genFile) error {
	if f.path == "-" {
		_, err := e.stdout.Write(f.data)
		return err
	}
	old, err := readGenerated(f.path)
	var notRegular *osfile.NotRegularError
	switch {
	case errors.As(err, &notRegular):
		// A device or a FIFO would block the write or never end the read.
		return fmt.Errorf("%v; write to a file, or print with -o -", err)
	case err == nil && bytes.Equal(old, f.data):
		fmt.Fprintf(e.stdout, "%s is up to date\n", f.path)
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", f.path)
	return nil
}

// checkGenerated compares each file with what is on disk and prints a diff
// for each stale one.
func checkGenerated(e *env, files []genFile, regenerate string) int {
	stale := 0
	for _, f := range files {
		old, err := readGenerated(f.path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(e.stderr, "mobilemcp gen: %v\n", err)
			return exitFailure
		}
		diff := unifiedDiff(f.path, f.path+" (generated)", old, f.data)
		if diff == "" {
			continue
		}
		stale++
		fmt.Fprint(e.stdout, diff)
		if err != nil {
			fmt.Fprintf(e.stderr, "mobilemcp gen: %s does not exist; run '%s' to generate it\n", f.path, regenerate)
		} else {
			fmt.Fprintf(e.stderr, "mobilemcp gen: %s is stale; run '%s' to regenerate it\n", f.path, regenerate)
		}
	}
	if stale > 0 {
		return exitFailure
	}
	return exitOK
}

// regenerateCommand is the command that writes what --check compared, for
// the message that tells the user how to fix a stale file.
func regenerateCommand(fs *flag.FlagSet) string {
	cmd := []string{"go run ./cmd/mobilemcp gen"}
	fs.Visit(func(f *flag.Flag) {
		switch {
		case f.Name == "check":
		case len(f.Name) == 1:
			cmd = append(cmd, fmt.Sprintf("-%s %s", f.Name, f.Value))
		default:
			cmd = append(cmd, fmt.Sprintf("--%s %s", f.Name, f.Value))
		}
	})
	return strings.Join(cmd, " ")
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
