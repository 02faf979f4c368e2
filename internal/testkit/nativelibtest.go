// ELF and APK make the inputs of nativelib's checks in tests:
// minimal ELF libraries with chosen LOAD alignments, and APKs holding them.

package testkit

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
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
	if dataAlign == 0 {
		return writeAPK(name, lib, zip.Deflate, 0)
	}
	// The padding of an extra field moves the data by as much: measure where
	// it starts with no padding, then pad up to the next multiple.
	apk := writeAPK(name, lib, zip.Store, 0)
	offset := dataOffset(apk, name)
	return writeAPK(name, lib, zip.Store, (dataAlign-int(offset)%dataAlign)%dataAlign)
}

func writeAPK(name string, lib []byte, method uint16, pad int) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	// Something before the library, as in a real APK.
	m, _ := w.Create("AndroidManifest.xml")
	m.Write([]byte("<manifest/>"))
	var extra []byte
	if method == zip.Store {
		extra = make([]byte, 4+pad)
		binary.LittleEndian.PutUint16(extra, 0xd935) // zipalign's alignment extra id
		binary.LittleEndian.PutUint16(extra[2:], uint16(pad))
		extra = extra[:4+pad]
	}
	f, _ := w.CreateHeader(&zip.FileHeader{Name: name, Method: method, Extra: extra})
	f.Write(lib)
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
