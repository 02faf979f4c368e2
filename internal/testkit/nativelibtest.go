// ELF, Zip, APK, GoBinary and Dylib make the inputs of nativelib's checks
// in tests: minimal ELF libraries with chosen LOAD alignments, zips laid out
// as APKs holding them, and macOS binaries: Go's linker's, and libraries for
// a chosen minimum macOS.

package testkit

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ELF returns a minimal 64-bit little-endian ELF shared object (AArch64)
// with one PT_LOAD program header per alignment in aligns: enough for
// debug/elf and the alignment checks, nothing to run.
func ELF(aligns ...uint64) []byte {
	const ehsize, phentsize = 64, 56
	var b bytes.Buffer
	ident := [16]byte{0x7f, 'E', 'L', 'F', 2 /* 64-bit */, 1 /* little-endian */, 1 /* version */}
	b.Write(ident[:])
	le := binary.LittleEndian
	put := func(v any) { binary.Write(&b, le, v) }
	put(uint16(3))           // e_type: ET_DYN
	put(uint16(183))         // e_machine: EM_AARCH64
	put(uint32(1))           // e_version
	put(uint64(0))           // e_entry
	put(uint64(ehsize))      // e_phoff
	put(uint64(0))           // e_shoff: no sections
	put(uint32(0))           // e_flags
	put(uint16(ehsize))      // e_ehsize
	put(uint16(phentsize))   // e_phentsize
	put(uint16(len(aligns))) // e_phnum
	put(uint16(64))          // e_shentsize
	put(uint16(0))           // e_shnum
	put(uint16(0))           // e_shstrndx
	for i, align := range aligns {
		put(uint32(1))            // p_type: PT_LOAD
		put(uint32(5))            // p_flags: R+X
		put(uint64(0))            // p_offset
		put(uint64(i) * 0x100000) // p_vaddr
		put(uint64(i) * 0x100000) // p_paddr
		put(uint64(ehsize))       // p_filesz
		put(uint64(ehsize))       // p_memsz
		put(align)                // p_align
	}
	return b.Bytes()
}

// APK returns a zip holding lib at entry name, stored (uncompressed) with
// its data at a multiple of dataAlign, or deflated when dataAlign is 0. An
// APK as the build writes it stores native libraries 16 KB-aligned.
func APK(name string, lib []byte, dataAlign int) []byte {
	return Zip([]Entry{{"AndroidManifest.xml", []byte("<manifest/>")}, {name, lib}}, dataAlign)
}

// An Entry is a file of a zip that Zip writes.
type Entry struct {
	Name string
	Data []byte
}

// Zip returns a zip of the entries, in order. Native libraries (names
// ending in .so) are stored uncompressed with their data at a multiple of
// dataAlign, as zipalign -P leaves them in an APK, or deflated when
// dataAlign is 0; every other entry is deflated.
func Zip(entries []Entry, dataAlign int) []byte {
	// The padding of an extra field moves a library's data by as much:
	// measure where each starts with no padding, then pad up to the next
	// multiple, one entry at a time.
	pads := make([]int, len(entries))
	for i, e := range entries {
		if dataAlign == 0 || !strings.HasSuffix(e.Name, ".so") {
			continue
		}
		offset := dataOffset(writeZip(entries, pads, dataAlign), e.Name)
		pads[i] = (dataAlign - int(offset)%dataAlign) % dataAlign
	}
	return writeZip(entries, pads, dataAlign)
}

func writeZip(entries []Entry, pads []int, dataAlign int) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for i, e := range entries {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate}
		if dataAlign != 0 && strings.HasSuffix(e.Name, ".so") {
			h.Method = zip.Store
			extra := make([]byte, 4+pads[i])
			binary.LittleEndian.PutUint16(extra, 0xd935) // zipalign's alignment extra id
			binary.LittleEndian.PutUint16(extra[2:], uint16(pads[i]))
			h.Extra = extra
		}
		f, _ := w.CreateHeader(h)
		f.Write(e.Data)
	}
	w.Close()
	return b.Bytes()
}

func dataOffset(apk []byte, name string) int64 {
	zr, err := zip.NewReader(bytes.NewReader(apk), int64(len(apk)))
	if err != nil {
		panic(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			offset, err := f.DataOffset()
			if err != nil {
				panic(err)
			}
			return offset
		}
	}
	panic("no " + name)
}

// GoBinary returns a program built for goos/goarch by Go's own linker, as
// ci/release-binaries.sh builds the CLI: stripped, without cgo.
func GoBinary(t testing.TB, goos, goarch string) []byte {
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
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build for %s/%s: %v\n%s", goos, goarch, err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "hello"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Dylib returns a macOS library for target (such as
// "aarch64-macos.15.0", whose minimum macOS is 15.0), linked by zig's C
// compiler: the one scripts/deps.sh zig installs in build/tools/ziglang,
// or $ZIG. Without zig the test is skipped, or fails when $CI is true.
func Dylib(t testing.TB, target string) []byte {
	t.Helper()
	zig := os.Getenv("ZIG")
	if zig == "" {
		// The repository's root, from the test's package directory.
		dir, _ := os.Getwd()
		for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
		}
		zig = filepath.Join(dir, "build/tools/ziglang/ziglang/zig")
	}
	if _, err := os.Stat(zig); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no zig at %s: scripts/deps.sh zig installs it", zig)
		}
		t.Skipf("no zig at %s (scripts/deps.sh zig)", zig)
	}
	tmp := t.TempDir()
	src := filepath.Join(tmp, "f.c")
	if err := os.WriteFile(src, []byte("int f(void) { return 1; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "libf.dylib")
	cmd := exec.Command(zig, "cc", "-target", target, "-shared", "-o", out, src)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zig cc -target %s: %v\n%s", target, err, b)
	}
	lib, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return lib
}
