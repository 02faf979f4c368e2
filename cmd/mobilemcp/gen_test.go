package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/sms"
)

// TestCheckedInResourcesMatchTheRegistry fails when the registry changes
// and the generated resources are not regenerated.
func TestCheckedInResourcesMatchTheRegistry(t *testing.T) {
	code, diff, errOut := newCLI(t).run("", "gen", "--check",
		"-o", "../../"+defaultDescriptorPath, "--strings", "../../"+defaultStringsPath)
	if code != exitOK {
		t.Errorf("the checked-in resources have drifted from the Go registry.\n"+
			"Run 'go run ./cmd/mobilemcp gen' at the repository root: it regenerates %s and %s.\n%s%s",
			defaultDescriptorPath, defaultStringsPath, errOut, diff)
	}
}

func TestGenWritesThenFindsUpToDate(t *testing.T) {
	dir := t.TempDir()
	desc, strs := filepath.Join(dir, "res/xml/mcp_capabilities.xml"), filepath.Join(dir, "res/values/strings.xml")
	c := newCLI(t)
	code, out, errOut := c.run("", "gen", "-o", desc, "--strings", strs)
	if want := "wrote " + desc + "\nwrote " + strs + "\n"; code != exitOK || out != want || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
	if got, _ := os.ReadFile(desc); string(got) != string(xmlfile.Render(builtinRegistry().All())) {
		t.Errorf("the descriptor is not the rendered registry:\n%s", got)
	}
	if got, _ := os.ReadFile(strs); string(got) != string(xmlfile.RenderStrings(sms.ToolName, sms.ToolDescription)) {
		t.Errorf("the strings are not the rendered tool strings:\n%s", got)
	}
	code, out, _ = c.run("", "gen", "-o", desc, "--strings", strs)
	if want := desc + " is up to date\n" + strs + " is up to date\n"; code != exitOK || out != want {
		t.Errorf("second run: exit %d, stdout %q; want %q", code, out, want)
	}
}

func TestGenCheckShowsTheDiffOfAStaleFile(t *testing.T) {
	dir := t.TempDir()
	desc, strs := filepath.Join(dir, "caps.xml"), filepath.Join(dir, "strings.xml")
	c := newCLI(t)
	if code, _, errOut := c.run("", "gen", "-o", desc, "--strings", strs); code != exitOK {
		t.Fatal(errOut)
	}
	data, _ := os.ReadFile(desc)
	stale := strings.Replace(string(data), `mcp:title="Send SMS"`, `mcp:title="Send a text"`, 1)
	os.WriteFile(desc, []byte(stale), 0o644)
	os.Remove(strs)

	code, out, errOut := c.run("", "gen", "--check", "-o", desc, "--strings", strs)
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	lines := strings.Split(string(data), "\n")
	wantDiff := "--- " + desc + "\n+++ " + desc + " (generated)\n@@ -1,7 +1,7 @@\n " + strings.Join(lines[:3], "\n ") +
		"\n-" + strings.Replace(lines[3], "Send SMS", "Send a text", 1) + "\n+" + lines[3] + "\n " + strings.Join(lines[4:7], "\n ") + "\n"
	if !strings.HasPrefix(out, wantDiff) || !strings.Contains(out, "--- "+strs+"\n+++ "+strs+" (generated)\n@@ -0,0 +1,6 @@\n+<?xml") {
		t.Errorf("diff\n%s\nwant it to start with\n%s", out, wantDiff)
	}
	regenerate := "go run ./cmd/mobilemcp gen -o " + desc + " --strings " + strs
	wantErr := "mobilemcp gen: " + desc + " is stale; run '" + regenerate + "' to regenerate it\n" +
		"mobilemcp gen: " + strs + " does not exist; run '" + regenerate + "' to generate it\n"
	if errOut != wantErr {
		t.Errorf("stderr\n%s\nwant\n%s", errOut, wantErr)
	}
}

func TestGenPutsTheStringsInTheResDirectoryOfTheDescriptor(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-o", filepath.Join(dir, "a/res/xml-v26/caps.xml")}, "wrote " + filepath.Join(dir, "a/res/xml-v26/caps.xml") + "\nwrote " + filepath.Join(dir, "a/res/values/strings.xml") + "\n"},
		{[]string{"-o", filepath.Join(dir, "b/caps.xml")}, "wrote " + filepath.Join(dir, "b/caps.xml") + "\n"},
		{[]string{"-o", filepath.Join(dir, "c/res/xml/caps.xml"), "--strings", ""}, "wrote " + filepath.Join(dir, "c/res/xml/caps.xml") + "\n"},
	}
	for _, tt := range tests {
		code, out, errOut := newCLI(t).run("", append([]string{"gen"}, tt.args...)...)
		if code != exitOK || out != tt.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

func TestGenToStdoutPrintsOnlyTheDescriptor(t *testing.T) {
	code, out, _ := newCLI(t).run("", "gen", "-o", "-")
	if code != exitOK || out != string(xmlfile.Render(builtinRegistry().All())) {
		t.Errorf("exit %d, stdout\n%s", code, out)
	}
}

func TestDescriptorCommandUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"gen", "--check", "-o", "-"}, "mobilemcp gen: --check compares files; it cannot check -"},
		{[]string{"gen", "extra"}, `mobilemcp gen: unexpected arguments ["extra"]`},
		{[]string{"lint"}, "mobilemcp lint: name at least one descriptor, AndroidManifest.xml or res directory"},
		{[]string{"lint", "--format", "xml", "x.xml"}, `mobilemcp lint: --format is "xml"; use text or json`},
		{[]string{"tools"}, "mobilemcp tools: name one descriptor, such as res/xml/mcp_capabilities.xml"},
		{[]string{"tools", "a.xml", "b.xml"}, "mobilemcp tools: name one descriptor, such as res/xml/mcp_capabilities.xml"},
	}
	for _, tt := range tests {
		code, _, errOut := newCLI(t).run("", tt.args...)
		if code != exitUsage || !strings.HasPrefix(errOut, tt.want+"\n") {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

func TestGenRefusesToWriteTheDefaultPathsOutsideTheModuleRoot(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	code, out, errOut := newCLI(t).run("", "gen")
	want := "mobilemcp gen: the current directory is not the root of the module github.com/mobilemcp/mobilemcp, " +
		"so gen would write " + defaultDescriptorPath + " where it does not belong; run it at the repository root, or name the descriptor with -o FILE\n" +
		"Run 'mobilemcp gen --help' for usage.\n"
	if code != exitUsage || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("gen wrote %v", entries)
	}
	// With -o it writes where it is told.
	if code, out, _ := newCLI(t).run("", "gen", "-o", "caps.xml"); code != exitOK || out != "wrote caps.xml\n" {
		t.Errorf("-o caps.xml: exit %d, stdout %q", code, out)
	}
}

func TestGenUsesTheDefaultPathsAtTheModuleRoot(t *testing.T) {
	t.Chdir("../..")
	if code, diff, errOut := newCLI(t).run("", "gen", "--check"); code != exitOK {
		t.Errorf("gen --check at the repository root: exit %d\n%s%s", code, errOut, diff)
	}
}
