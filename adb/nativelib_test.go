package adb_test

import (
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/adb"
	"github.com/mobilemcp/mobilemcp/adb/adbtest"
)

func TestCheckNativeLibAlignment(t *testing.T) {
	const entry = "lib/arm64-v8a/libgojni.so"
	aligned := adbtest.ELF(0x4000, 0x4000)
	tests := []struct {
		name string
		apk  []byte
		abi  string
		want string // the error, or "" for none
	}{
		{"16 KB segments, stored 16 KB-aligned", adbtest.APK(entry, aligned, 16384), "arm64-v8a", ""},
		{"64 KB segments, compressed", adbtest.APK(entry, adbtest.ELF(0x10000), 0), "arm64-v8a", ""},
		{"a 4 KB segment (NDK r27's default)", adbtest.APK(entry, adbtest.ELF(0x4000, 0x1000), 16384), "arm64-v8a",
			"lib/arm64-v8a/libgojni.so has a LOAD segment aligned to 0x1000, below the 16 KB (0x4000) that devices with 16 KB pages need; build it with make aar (NDK r28+, or the max-page-size linker flag)"},
		{"stored at a 4 KB boundary only", adbtest.APK(entry, aligned, 4096), "arm64-v8a", "stored uncompressed at offset"},
		{"no library for the device's ABI", adbtest.APK(entry, aligned, 16384), "x86_64",
			"the APK has no lib/x86_64/libgojni.so: it was not built for this device's ABI x86_64"},
		{"not an ELF file", adbtest.APK(entry, []byte("not a library"), 16384), "arm64-v8a", "lib/arm64-v8a/libgojni.so is not an ELF library: "},
		{"no LOAD segment", adbtest.APK(entry, adbtest.ELF(), 16384), "arm64-v8a", "lib/arm64-v8a/libgojni.so has no LOAD segment"},
		{"not a zip", []byte("PK? no"), "arm64-v8a", "the APK is not a zip archive: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := adb.CheckNativeLibAlignment(tt.apk, tt.abi, "libgojni.so")
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
