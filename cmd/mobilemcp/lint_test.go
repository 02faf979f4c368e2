package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes text to name in dir and returns the path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// withSynonym is a descriptor whose only problem is a warning.
const withSynonym = `<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
  <capability id="c" description="Does c." version="1" mcp:readOnly="true">
    <input><param name="n" type="int" required="true" description="A number."/></input>
  </capability>
</mobile-mcp-capabilities>
`

func TestLintTheGeneratedDescriptorIsCleanWhenStrict(t *testing.T) {
	code, out, errOut := newCLI(t).run("", "lint", "--strict", "../../"+defaultDescriptorPath, "../../android/app/res")
	if code != exitOK || out != "" || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestLintFailsOnWarningsOnlyWhenStrict(t *testing.T) {
	path := writeFile(t, t.TempDir(), "caps.xml", withSynonym)
	wantOut := path + `:3: warning: input param "n" has type "int"; write type="integer", the name every reader knows [type-synonym]` + "\n"
	for _, strict := range []bool{false, true} {
		args := []string{"lint", path}
		wantCode := exitOK
		if strict {
			args, wantCode = append(args, "--strict"), exitFailure
		}
		code, out, errOut := newCLI(t).run("", args...)
		if code != wantCode || out != wantOut || errOut != "0 errors, 1 warning\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit %d, %q", args, code, out, errOut, wantCode, wantOut)
		}
	}
}

func TestLintPrintsJSON(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.xml", "<mobile-mcp-capabilities xmlns:mcp=\"https://mobilemcp.github.io/ns\">\n  <capability id=\"c\" description=\"d\" version=\"1\" mcp:readOnly=\"true\"/>\n</mobile-mcp-capabilities>\n")
	good := writeFile(t, dir, "good.xml", strings.Replace(withSynonym, `"int"`, `"integer"`, 1))
	code, out, errOut := newCLI(t).run("", "lint", "--format", "json", good, bad)
	want := `[{"file":"` + bad + `","line":1,"column":1,"severity":"error","rule":"root-version","message":"<mobile-mcp-capabilities> has no version attribute; add version=\"1.0\""}]`
	if code != exitFailure || compact(t, out) != want || errOut != "" {
		t.Errorf("exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errOut, compact(t, out), want)
	}
	code, out, _ = newCLI(t).run("", "lint", "--format", "json", good)
	if code != exitOK || out != "[]\n" {
		t.Errorf("clean: exit %d, stdout %q; want []", code, out)
	}
}

func TestLintChecksAManifestAgainstTheResDirectoryGiven(t *testing.T) {
	dir := t.TempDir()
	manifest := writeFile(t, dir, "app/AndroidManifest.xml", validManifest)
	res := filepath.Join(dir, "shared/res")
	c := newCLI(t)
	// Neither app/res nor res is there, so the reference is not checked...
	code, out, _ := c.run("", "lint", manifest)
	if code != exitOK || !strings.Contains(out, ":7: warning: found no res directory next to") {
		t.Errorf("without res: exit %d, stdout %q", code, out)
	}
	// ...until a res directory is named, whose descriptor is then missing...
	os.MkdirAll(res, 0o755)
	code, out, _ = c.run("", "lint", manifest, "--res", res)
	if want := manifest + ":7: error: @xml/mcp_capabilities points at " + filepath.Join(res, "xml/mcp_capabilities.xml") + ", which does not exist"; code != exitFailure || !strings.HasPrefix(out, want) {
		t.Errorf("empty res: exit %d, stdout %q; want %q", code, out, want)
	}
	// ...and present once generated. A res directory among the paths
	// counts as --res, and its descriptors are linted too.
	c.run("", "gen", "-o", filepath.Join(res, "xml/mcp_capabilities.xml"))
	code, out, errOut := c.run("", "lint", "--strict", manifest, res)
	if code != exitOK || out != "" || errOut != "" {
		t.Errorf("with res: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// validManifest declares the tool service with all it needs.
const validManifest = `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="x">
  <application>
    <service android:name=".Tool" android:exported="true">
      <intent-filter><action android:name="mobile.mcp.SERVICE"/></intent-filter>
      <meta-data android:name="mobile.mcp.tool.name" android:value="@string/tool_name"/>
      <meta-data android:name="mobile.mcp.tool.description" android:value="@string/tool_description"/>
      <meta-data android:name="mobile.mcp.tool.capabilities" android:resource="@xml/mcp_capabilities"/>
    </service>
  </application>
</manifest>
`

func TestLintAManifestChecksTheDescriptorItPointsAt(t *testing.T) {
	dir := t.TempDir()
	manifest := writeFile(t, dir, "AndroidManifest.xml", validManifest)
	caps := writeFile(t, dir, "res/xml/mcp_capabilities.xml", withSynonym)
	want := caps + `:3: warning: input param "n" has type "int"; write type="integer", the name every reader knows [type-synonym]` + "\n"
	// The descriptor's finding is reported once, also when its res
	// directory is named too.
	for _, args := range [][]string{{"lint", manifest}, {"lint", manifest, filepath.Join(dir, "res")}} {
		code, out, errOut := newCLI(t).run("", args...)
		if code != exitOK || out != want || errOut != "0 errors, 1 warning\n" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", args, code, out, errOut, want)
		}
	}
}

func TestLintAProjectRootLooksInItsResDirectory(t *testing.T) {
	root := t.TempDir()
	caps := writeFile(t, root, "res/xml/mcp_capabilities.xml", withSynonym)
	code, out, errOut := newCLI(t).run("", "lint", root)
	want := caps + `:3: warning: input param "n" has type "int"; write type="integer", the name every reader knows [type-synonym]` + "\n"
	if code != exitOK || out != want || errOut != "0 errors, 1 warning\n" {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// notesModule lays out the notes sample's manifest and descriptor in dir,
// in the repository's layout (AndroidManifest.xml and res beside it) or in
// a Gradle module's (src/main/AndroidManifest.xml and src/main/res), with
// edit applied to the manifest. It returns the manifest's path.
func notesModule(t *testing.T, dir string, gradle bool, edit func(string) string) string {
	t.Helper()
	manifest, err := os.ReadFile("../../android/notes/AndroidManifest.xml")
	if err != nil {
		t.Fatal(err)
	}
	caps, err := os.ReadFile("../../android/notes/res/xml/mcp_capabilities.xml")
	if err != nil {
		t.Fatal(err)
	}
	base := ""
	if gradle {
		base = "src/main/"
	}
	writeFile(t, dir, base+"res/xml/mcp_capabilities.xml", string(caps))
	return writeFile(t, dir, base+"AndroidManifest.xml", edit(string(manifest)))
}

// lint DIR checks the module's manifest as well as its res directory, in
// either layout: a tool service that is not exported fails it.
func TestLintAModuleChecksItsManifestInEitherLayout(t *testing.T) {
	for _, gradle := range []bool{false, true} {
		dir := t.TempDir()
		notesModule(t, dir, gradle, func(m string) string { return m })
		if code, out, errOut := newCLI(t).run("", "lint", "--strict", dir); code != exitOK || out != "" || errOut != "" {
			t.Errorf("gradle %v: the notes sample: exit %d, stdout %q, stderr %q", gradle, code, out, errOut)
		}

		dir = t.TempDir()
		manifest := notesModule(t, dir, gradle, func(m string) string {
			return strings.Replace(m, "            android:exported=\"true\"\n            android:foregroundServiceType", "            android:foregroundServiceType", 1)
		})
		code, out, errOut := newCLI(t).run("", "lint", dir)
		want := manifest + `:16: error: service io.github.mobilemcp.notes.NotesToolService has no android:exported attribute; add android:exported="true" so that assistants in other apps can find and start it [manifest-exported]` + "\n"
		if code != exitFailure || out != want || errOut != "1 error, 0 warnings\n" {
			t.Errorf("gradle %v: without android:exported: exit %d, stderr %q, stdout\n%s\nwant\n%s", gradle, code, errOut, out, want)
		}
	}
}

// The hint for a module without a descriptor suggests no command that
// writes another app's descriptor.
func TestLintAModuleWithoutADescriptorSuggestsWritingOne(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "src/main/res/values/strings.xml", "<resources/>\n")
	code, out, _ := newCLI(t).run("", "lint", dir)
	want := dir + ": error: " + dir + " holds no capability descriptor, neither in xml/ nor in res/xml/ nor in src/main/res/xml/; write one at " +
		filepath.Join(dir, "src/main/res/xml/mcp_capabilities.xml") + ", as docs/reference/descriptor.md describes [not-descriptor]\n"
	if code != exitFailure || out != want {
		t.Errorf("exit %d, stdout\n%s\nwant\n%s", code, out, want)
	}
	if strings.Contains(out, "gen") {
		t.Errorf("the hint suggests gen, which writes the SMS app's descriptor: %s", out)
	}
}
