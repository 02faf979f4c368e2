package nativelib_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

func TestCheckAPK(t *testing.T) {
	const entry = "lib/arm64-v8a/libmobilemcp.so"
	aligned := testkit.ELF(0x4000, 0x4000)
	tests := []struct {
		name string
		apk  []byte
		abi  string
		want string // the error, or "" for none
	}{
		{"16 KB segments, stored 16 KB-aligned", testkit.APK(entry, aligned, 16384), "arm64-v8a", ""},
		{"64 KB segments, compressed", testkit.APK(entry, testkit.ELF(0x10000), 0), "arm64-v8a", ""},
		{"a 4 KB segment (NDK r27's default)", testkit.APK(entry, testkit.ELF(0x4000, 0x1000), 16384), "arm64-v8a",
			"lib/arm64-v8a/libmobilemcp.so has a LOAD segment aligned to 0x1000, below the 16 KB (0x4000) that devices with 16 KB pages need; build it with NDK r28 or newer, or with the linker flag -z max-page-size=16384 (make aar passes it)"},
		{"stored at a 4 KB boundary only", testkit.APK(entry, aligned, 4096), "arm64-v8a", "stored uncompressed at offset"},
		{"no library for the device's ABI", testkit.APK(entry, aligned, 16384), "x86_64",
			"the APK has no lib/x86_64/libmobilemcp.so: it was not built for this device's ABI x86_64"},
		{"not an ELF file", testkit.APK(entry, []byte("not a library"), 16384), "arm64-v8a", "lib/arm64-v8a/libmobilemcp.so is not an ELF library: "},
		{"no LOAD segment", testkit.APK(entry, testkit.ELF(), 16384), "arm64-v8a", "lib/arm64-v8a/libmobilemcp.so has no LOAD segment"},
		{"not a zip", []byte("PK? no"), "arm64-v8a", "the APK is not a zip archive: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := nativelib.CheckAPK(tt.apk, tt.abi, "libmobilemcp.so")
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.want != "" && err == nil:
				t.Fatalf("no error, want %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Fatalf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	write := func(abi string, lib []byte) {
		if err := os.MkdirAll(filepath.Join(dir, abi), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, abi, "libmobilemcp.so"), lib, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, abi := range nativelib.ABIs {
		write(abi, testkit.ELF(0x4000, 0x10000))
	}
	if err := nativelib.CheckDir(dir, nativelib.ABIs, "libmobilemcp.so"); err != nil {
		t.Fatalf("16 KB-aligned libraries failed: %v", err)
	}

	write("x86", testkit.ELF(0x4000, 0x1000))
	os.Remove(filepath.Join(dir, "armeabi-v7a", "libmobilemcp.so"))
	want := filepath.Join(dir, "armeabi-v7a", "libmobilemcp.so") + " is missing; make aar builds every ABI ([arm64-v8a armeabi-v7a x86 x86_64])\n" +
		filepath.Join(dir, "x86", "libmobilemcp.so") + " has a LOAD segment aligned to 0x1000, below the 16 KB (0x4000) that devices with 16 KB pages need; build it with NDK r28 or newer, or with the linker flag -z max-page-size=16384 (make aar passes it)"
	if err := nativelib.CheckDir(dir, nativelib.ABIs, "libmobilemcp.so"); err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
}
