package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

func init() {
	register(command{name: "lint", summary: "check capability descriptors, AndroidManifest.xml files, res and module directories", run: runLint})
}

func runLint(e *env, args []string) int {
	fs := newFlags(e, "lint", "[flags] PATH...",
		`Checks each PATH against the Mobile-MCP spec §1:
  - a capability descriptor such as res/xml/mcp_capabilities.xml;
  - an AndroidManifest.xml: the tool service, its intent filter, its
    three meta-data entries and the descriptor they point at;
  - a res directory: every descriptor in its xml directories;
  - a module directory: its AndroidManifest.xml and its res directory, as
    above, beside each other in it (this repository's layout) or in its
    src/main (a Gradle module's).

Findings are printed as "file:line: severity: message [rule]". The rules
are described in docs/reference/lint-rules.md.

Exit status: 0 when there is no error (and, with --strict, no warning),
1 otherwise, 2 on a usage error.`)
	format := fs.String("format", "text", "output `format`: text, or json for an array of {file, line, column, severity, rule, message}")
	strict := fs.Bool("strict", false, "fail on warnings as well as errors")
	res := fs.String("res", "", "the res `directory` in which a manifest's @xml/ reference must resolve (default: a directory among the PATHs, else res next to the manifest or in its parent)")
	paths, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if len(paths) == 0 {
		return usageError(e, fs, "name at least one descriptor, AndroidManifest.xml or res directory")
	}
	if *format != "text" && *format != "json" {
		return usageError(e, fs, "--format is %q; use text or json", *format)
	}
	if *res != "" {
		if code, ok := checkExists(e, fs, "--res", *res); !ok {
			return code
		}
	}
	opts := &xmlfile.Options{ResDir: *res}
	for _, p := range paths {
		if code, ok := checkExists(e, fs, "", p); !ok {
			return code
		}
		if info, err := os.Stat(p); opts.ResDir == "" && err == nil && info.IsDir() {
			opts.ResDir = p
		}
	}

	var findings []descriptor.Finding
	// A descriptor is linted twice when it is in a res directory among the
	// paths and a manifest among them points at it; say each finding once.
	seen := map[descriptor.Finding]bool{}
	for _, p := range paths {
		found, err := xmlfile.LintPath(p, opts)
		if err != nil {
			fmt.Fprintf(e.stderr, "mobilemcp lint: %v\n", err)
			return exitFailure
		}
		for _, f := range found {
			if !seen[f] {
				seen[f] = true
				findings = append(findings, f)
			}
		}
	}
	if *format == "json" {
		if findings == nil {
			findings = []descriptor.Finding{}
		}
		writeJSON(e.stdout, findings)
	} else {
		for _, f := range findings {
			fmt.Fprintln(e.stdout, f)
		}
	}
	errs, warnings := count(findings)
	if errs+warnings > 0 && *format == "text" {
		fmt.Fprintf(e.stderr, "%s, %s\n", text.Plural(errs, "error"), text.Plural(warnings, "warning"))
	}
	if errs > 0 || (*strict && warnings > 0) {
		return exitFailure
	}
	return exitOK
}

// count returns how many findings are errors and how many are warnings.
func count(findings []descriptor.Finding) (errs, warnings int) {
	for _, f := range findings {
		if f.Severity == descriptor.Error {
			errs++
		} else {
			warnings++
		}
	}
	return errs, warnings
}

// writeJSON prints v indented, without HTML escaping, so messages and
// descriptions read as they are written.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // findings and tools always encode
	}
}
