package adb

import (
	"archive/zip"
	"bytes"
	"debug/elf"
	"fmt"
)

// PageAlign is the alignment a native library needs to load on a device
// with 16 KB memory pages (Android 15+ may use them).
const PageAlign = 16 << 10

// CheckNativeLibAlignment checks that the APK apk carries lib/ABI/NAME and
// that it loads on a device with 16 KB pages: every LOAD segment of the ELF
// library is aligned to at least 16 KB, and, since Android maps a library
// stored uncompressed straight from the APK, a stored entry's data starts at
// a 16 KB boundary of the file (zipalign -P 16). apk is the APK's bytes;
// the error names what is wrong and with which value.
func CheckNativeLibAlignment(apk []byte, abi, name string) error {
	zr, err := zip.NewReader(bytes.NewReader(apk), int64(len(apk)))
	if err != nil {
		return fmt.Errorf("the APK is not a zip archive: %v", err)
	}
	entry := "lib/" + abi + "/" + name
	var f *zip.File
	for _, zf := range zr.File {
		if zf.Name == entry {
			f = zf
			break
		}
	}
	if f == nil {
		return fmt.Errorf("the APK has no %s: it was not built for this device's ABI %s", entry, abi)
	}
	if f.Method == zip.Store {
		offset, err := f.DataOffset()
		if err != nil {
			return fmt.Errorf("%s: %v", entry, err)
		}
		if offset%PageAlign != 0 {
			return fmt.Errorf("%s is stored uncompressed at offset %#x, which is not a multiple of 16 KB (%#x); align the APK with zipalign -P 16", entry, offset, PageAlign)
		}
	}
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("%s: %v", entry, err)
	}
	defer rc.Close()
	var lib bytes.Buffer
	// The library is at most the APK's size, which bounds the read.
	if _, err := lib.ReadFrom(rc); err != nil {
		return fmt.Errorf("%s: %v", entry, err)
	}
	ef, err := elf.NewFile(bytes.NewReader(lib.Bytes()))
	if err != nil {
		return fmt.Errorf("%s is not an ELF library: %v", entry, err)
	}
	loads := 0
	for _, p := range ef.Progs {
		if p.Type != elf.PT_LOAD {
			continue
		}
		loads++
		if p.Align < PageAlign {
			return fmt.Errorf("%s has a LOAD segment aligned to %#x, below the 16 KB (%#x) that devices with 16 KB pages need; build it with make aar (NDK r28+, or the max-page-size linker flag)", entry, p.Align, PageAlign)
		}
	}
	if loads == 0 {
		return fmt.Errorf("%s has no LOAD segment", entry)
	}
	return nil
}
