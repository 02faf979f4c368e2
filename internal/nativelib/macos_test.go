package nativelib_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

// goBinary builds a program for goos/goarch with Go's own linker, as ci/release-binaries.sh builds
// the CLI.
func goBinary(t *testing.T, goos, goarch string) []byte {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/hello\n\ngo 1.26\n",
		"main.go": "package main\n\nfunc main() { println(\"hello\") }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", "hello")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch, "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build for %s/%s: %v\n%s", goos, goarch, err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "hello"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestMacOSMinimum(t *testing.T) {
	for _, arch := range []string{"amd64", "arm64"} {
		got, err := nativelib.MacOSMinimum(bytes.NewReader(goBinary(t, "darwin", arch)), "hello")
		if err != nil || got != "12.0" {
			t.Errorf("Go's linker, darwin/%s: %q, %v; want 12.0, the oldest macOS Go supports", arch, got, err)
		}
	}
	got, err := nativelib.MacOSMinimum(bytes.NewReader(testkit.Dylib(t, "aarch64-macos.13.1")), "libf.dylib")
	if err != nil || got != "13.1" {
		t.Errorf("a library linked for macOS 13.1: %q, %v", got, err)
	}
	_, err = nativelib.MacOSMinimum(bytes.NewReader(testkit.ELF(0x4000)), "libmobilemcp.so")
	if err == nil || !strings.HasPrefix(err.Error(), "libmobilemcp.so is not a Mach-O binary: ") {
		t.Errorf("an ELF library: %v", err)
	}
}

func TestVersionAtMost(t *testing.T) {
	for _, tt := range []struct {
		got, max string
		want     bool
	}{
		{"12.0", "12.0", true}, {"11.5.2", "12.0", true}, {"12.0.1", "12.0", false}, {"13.0", "12.0", false},
		{"10.15", "12.0", true}, {"12", "12.0", true}, {"x", "12.0", false}, {"12.0", "", false},
	} {
		if got := nativelib.VersionAtMost(tt.got, tt.max); got != tt.want {
			t.Errorf("VersionAtMost(%q, %q) = %v, want %v", tt.got, tt.max, got, tt.want)
		}
	}
}
