package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

// writeCLIArchive writes the CLI archive of a macOS or Linux platform into dir, as
// ci/release-binaries.sh packs it: mobilemcp, LICENSE and README.md in a .tar.gz.
func writeCLIArchive(t *testing.T, dir, platform string, binary []byte) {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range []struct {
		name string
		mode int64
		data []byte
	}{{"mobilemcp", 0o755, binary}, {"LICENSE", 0o644, apacheLicense}, {"README.md", 0o644, []byte("# mobilemcp\n")}} {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(f.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mobilemcp-"+version+"-"+platform+".tar.gz"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCLIMacOSMinimum: the macOS CLI binaries run on macOS 12, read from their Mach-O load commands;
// Go's linker writes 12.0 into them. One linked for a newer macOS, or one that is no Mach-O binary,
// fails, with a line that names the platform and the check.
func TestCLIMacOSMinimum(t *testing.T) {
	lineOf := func(out, prefix string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		return ""
	}
	check := func(platform string) string { return fmt.Sprintf("%-44s ", "CLI "+platform+": macOS minimum") }

	dir := t.TempDir()
	writeCLIArchive(t, dir, "macos-amd64", testkit.GoBinary(t, "darwin", "amd64"))
	writeCLIArchive(t, dir, "macos-arm64", testkit.GoBinary(t, "darwin", "arm64"))
	out, _ := gate(options{release: dir})
	for _, p := range []string{"macos-amd64", "macos-arm64"} {
		if want := "PASS  " + check(p) + "macOS 12.0, 12.0 or older"; lineOf(out, "PASS  "+check(p)) != want {
			t.Errorf("a CLI that Go linked for %s: no line %q in:\n%s", p, want, out)
		}
	}

	writeCLIArchive(t, dir, "macos-arm64", testkit.Dylib(t, "aarch64-macos.15.0"))
	writeCLIArchive(t, dir, "macos-amd64", testkit.ELF(0x4000))
	out, failed := gate(options{release: dir})
	if !failed {
		t.Fatalf("CLIs for macOS 15 and for no macOS pass:\n%s", out)
	}
	for p, want := range map[string]string{
		"macos-arm64": "mobilemcp needs macOS 15.0, newer than 12.0",
		"macos-amd64": "mobilemcp is not a Mach-O binary: ",
	} {
		if got := lineOf(out, "FAIL  "+check(p)); !strings.HasPrefix(got, "FAIL  "+check(p)+want) {
			t.Errorf("the %s CLI: its line is %q, want one that starts %q, in:\n%s", p, got, "FAIL  "+check(p)+want, out)
		}
	}
}
