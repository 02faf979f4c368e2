// Package nativelib checks that Android native libraries load on devices
// with 16 KB memory pages, which Android 15+ devices may use: such a device
// loads only libraries whose ELF LOAD segments are aligned to 16 KB, and,
// for a library stored uncompressed in an APK (which Android maps straight
// from it), whose data starts at a 16 KB boundary of the APK. make aar
// checks the libraries it builds (CheckDir, through 'mobilemcp
// check-align'); 'mobilemcp adb check' checks the APK installed on a phone
// (CheckAPK). For the desktop, MacOSMinimum reads the oldest macOS a
// Mach-O engine or CLI runs on, which the release gate holds to the oldest
// macOS Go supports.
package nativelib

import (
	"archive/zip"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// PageAlign is the alignment a native library needs to load on a device
// with 16 KB memory pages.
const PageAlign = 16 << 10

// maxLib bounds what CheckAPK reads of a library: the engine's is about
// 20 MB, and a zip entry may claim any size.
const maxLib = 256 << 20

// ABIs are the Android ABIs gomobile builds for -target=android, as an AAR
// or APK names their directories.
var ABIs = []string{"arm64-v8a", "armeabi-v7a", "x86", "x86_64"}

// CheckELF checks that the ELF library in r, called name in errors, has
// LOAD segments and that each is aligned to at least PageAlign.
func CheckELF(r io.ReaderAt, name string) error {
	ef, err := elf.NewFile(r)
	if err != nil {
		return fmt.Errorf("%s is not an ELF library: %v", name, err)
	}
	defer ef.Close()
	loads := 0
	for _, p := range ef.Progs {
		if p.Type != elf.PT_LOAD {
			continue
		}
		loads++
		if p.Align < PageAlign {
			return fmt.Errorf("%s has a LOAD segment aligned to %#x, below the 16 KB (%#x) that devices with 16 KB pages need; build it with NDK r28 or newer, or with the linker flag -z max-page-size=16384 (make aar passes it)", name, p.Align, PageAlign)
		}
	}
	if loads == 0 {
		return fmt.Errorf("%s has no LOAD segment", name)
	}
	return nil
}

// CheckDir checks dir/ABI/lib for every ABI in abis, as make aar unpacks
// the AAR's jni/ directory, and reports every library that is missing or
// fails CheckELF.
func CheckDir(dir string, abis []string, lib string) error {
	var errs []error
	for _, abi := range abis {
		path := filepath.Join(dir, abi, lib)
		f, err := os.Open(path)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s is missing; make aar builds every ABI (%v)", path, abis))
			continue
		}
		errs = append(errs, CheckELF(f, path))
		f.Close()
	}
	return errors.Join(errs...)
}

// CheckAPK checks that the APK apk (its bytes) carries lib/ABI/lib and that
// it loads with 16 KB pages: CheckELF, and, stored uncompressed, its data at
// a multiple of PageAlign in the APK (zipalign -P 16).
func CheckAPK(apk []byte, abi, lib string) error {
	zr, err := zip.NewReader(bytes.NewReader(apk), int64(len(apk)))
	if err != nil {
		return fmt.Errorf("the APK is not a zip archive: %v", err)
	}
	entry := "lib/" + abi + "/" + lib
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
	if f.UncompressedSize64 > maxLib {
		return fmt.Errorf("%s is %d bytes, more than the %d this check reads", entry, f.UncompressedSize64, maxLib)
	}
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("%s: %v", entry, err)
	}
	defer rc.Close()
	var data bytes.Buffer
	if _, err := data.ReadFrom(io.LimitReader(rc, maxLib)); err != nil {
		return fmt.Errorf("%s: %v", entry, err)
	}
	return CheckELF(bytes.NewReader(data.Bytes()), entry)
}
