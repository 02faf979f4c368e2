package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

func TestCheckAlign(t *testing.T) {
	dir := t.TempDir()
	for _, abi := range nativelib.ABIs {
		os.MkdirAll(filepath.Join(dir, abi), 0o755)
		if err := os.WriteFile(filepath.Join(dir, abi, "libmobilemcp.so"), testkit.ELF(0x4000), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newCLI(t)
	code, out, errOut := c.run("", "check-align", dir)
	if code != exitOK || out != "libmobilemcp.so of arm64-v8a armeabi-v7a x86 x86_64: every LOAD segment aligned to 16 KB or more\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	os.WriteFile(filepath.Join(dir, "x86_64", "libmobilemcp.so"), testkit.ELF(0x1000), 0o644)
	code, out, errOut = c.run("", "check-align", dir)
	want := "mobilemcp check-align: " + filepath.Join(dir, "x86_64", "libmobilemcp.so") + " has a LOAD segment aligned to 0x1000, below the 16 KB (0x4000)" +
		" that devices with 16 KB pages need; build it with NDK r28 or newer, or with the linker flag -z max-page-size=16384 (make aar passes it)\n"
	if code != exitFailure || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr %q, want %q", code, out, errOut, want)
	}

	if code, _, _ := c.run("", "check-align"); code != exitUsage {
		t.Errorf("no directory: exit %d, want %d", code, exitUsage)
	}
}
