package xmlfile_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

func TestLintPathOfAResDirectory(t *testing.T) {
	// testdata/res holds a valid descriptor and another XML resource,
	// which is skipped.
	findings, err := xmlfile.LintPath("testdata/res", nil)
	if err != nil || len(findings) != 0 {
		t.Errorf("findings %v, error %v", findings, err)
	}

	res := t.TempDir()
	xmlDir := filepath.Join(res, "xml-v26")
	if err := os.MkdirAll(xmlDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// A descriptor with a misnamed root is linted because of its name.
	os.WriteFile(filepath.Join(xmlDir, "mcp_capabilities.xml"), []byte("<capabilities/>"), 0o644)
	findings, err = xmlfile.LintPath(res, nil)
	w := want{"not-descriptor", 1, "the root element is <capabilities>, so this is neither a capability descriptor (<mobile-mcp-capabilities>) nor an AndroidManifest.xml (<manifest>)"}
	if g := got(findings); err != nil || !slices.Equal(g, []want{w}) || findings[0].File != filepath.Join(xmlDir, "mcp_capabilities.xml") {
		t.Errorf("findings %+v, error %v; want %+v", findings, err, w)
	}
}

func TestLintPathOfADirectoryWithoutDescriptors(t *testing.T) {
	dir := t.TempDir()
	findings, err := xmlfile.LintPath(dir, nil)
	w := want{"not-descriptor", 0, dir + " holds no capability descriptor, neither in xml/ nor in res/xml/ nor in src/main/res/xml/; write one at " +
		filepath.Join(dir, "res", "xml", "mcp_capabilities.xml") + ", as docs/reference/descriptor.md describes"}
	if g := got(findings); err != nil || !slices.Equal(g, []want{w}) || findings[0].File != dir {
		t.Errorf("findings %+v, error %v; want %+v", findings, err, w)
	}
}

func TestLintPathOfAMissingFile(t *testing.T) {
	if _, err := xmlfile.LintPath("testdata/nothing.xml", nil); !os.IsNotExist(err) {
		t.Errorf("error %v, want not exist", err)
	}
}

func TestLintPathRefusesAHugeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.xml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: 64 MiB and one byte, without writing them.
	if err := f.Truncate(64<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	_, err = xmlfile.LintPath(path, nil)
	if want := path + " is larger than 64 MiB, which no descriptor or manifest is; it was not read"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

// A project root stands for its res directory.
func TestLintPathOfAProjectRoot(t *testing.T) {
	root := t.TempDir()
	caps := filepath.Join(root, "res", "xml", "mcp_capabilities.xml")
	if err := os.MkdirAll(filepath.Dir(caps), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(caps, []byte("<mobile-mcp-capabilities version=\"1.0\"/>"), 0o644)
	findings, err := xmlfile.LintPath(root, nil)
	w := want{"no-capabilities", 1, "the descriptor declares no <capability>; add one for each function the tool offers"}
	if g := got(findings); err != nil || !slices.Equal(g, []want{w}) || findings[0].File != caps {
		t.Errorf("findings %+v, error %v; want %+v in %s", findings, err, w, caps)
	}
	// A manifest checked against the root as its res directory finds the
	// descriptor in res/ too.
	manifest := filepath.Join(root, "app", "AndroidManifest.xml")
	data, _ := os.ReadFile(manifestPath)
	findings = xmlfile.Lint(manifest, data, &xmlfile.Options{ResDir: root})
	if g := got(findings); !slices.Equal(g, []want{w}) || findings[0].File != caps {
		t.Errorf("manifest findings %+v; want %+v in %s", findings, w, caps)
	}
}

// A Gradle module stands for its src/main/AndroidManifest.xml and
// src/main/res. The manifest's descriptor is in its res directory too, and
// its findings are reported once.
func TestLintPathOfAGradleModule(t *testing.T) {
	module := t.TempDir()
	caps := filepath.Join(module, "src", "main", "res", "xml", "mcp_capabilities.xml")
	if err := os.MkdirAll(filepath.Dir(caps), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(caps, []byte(doc(`<capability id="c" description="d" version="one"/>`)), 0o644)
	manifest, _ := os.ReadFile(manifestPath)
	os.WriteFile(filepath.Join(module, "src", "main", "AndroidManifest.xml"), manifest, 0o644)
	findings, err := xmlfile.LintPath(module, nil)
	w := want{"version-format", 2, `capability "c" has version="one", which is not a version number; write one such as version="1.0" or version="2"`}
	if g := got(besidesReadOnly(findings)); err != nil || !slices.Equal(g, []want{w}) || findings[0].File != caps {
		t.Errorf("findings %+v, error %v; want %+v in %s", findings, err, w, caps)
	}
}
