package nativelib_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

func TestMacOSMinimum(t *testing.T) {
	for _, arch := range []string{"amd64", "arm64"} {
		got, err := nativelib.MacOSMinimum(bytes.NewReader(testkit.GoBinary(t, "darwin", arch)), "hello")
		if err != nil || got != "12.0" {
			t.Errorf("Go's linker, darwin/%s: %q, %v; want 12.0, the oldest macOS Go supports", arch, got, err)
		}
	}
	got, err := nativelib.MacOSMinimum(bytes.NewReader(testkit.Dylib(t, "aarch64-macos.15.0")), "libf.dylib")
	if err != nil || got != "15.0" {
		t.Errorf("a library linked for macOS 15.0: %q, %v", got, err)
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
