// Command enginecheck checks the host engines that scripts/host-engine.sh built, the ones the engine
// jar (io.github.mobilemcp:sdk-testing-engine) carries: for each platform under DIR it prints one
// PASS or FAIL line per check, naming the platform, and exits 1 on any FAIL.
//
//	go run ./internal/cmd/enginecheck [-want linux-x86_64,linux-aarch64] [-build-id ID] DIR
//
// The checks: the library is of the platform's format and architecture; it exports JNI_OnLoad and
// the bound Java_… functions under the engine's own names; on Linux it needs no glibc symbol version
// above 2.17; on Windows it imports only the system's DLLs (no libwinpthread, no libgcc_s); on macOS
// only the system's libraries; it is stamped with the build id, which is also the one recorded
// beside it; and its recorded SHA-256 is its own.
package main

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Resource is where the engine jar keeps each platform's engine.
const Resource = "io/github/mobilemcp/sdk/testing/engine"

// Platforms are the platforms the release builds an engine for, with their library's file name.
var Platforms = map[string]string{
	"linux-x86_64":   "libmobilemcp.so",
	"linux-aarch64":  "libmobilemcp.so",
	"macos-x86_64":   "libmobilemcp.dylib",
	"macos-aarch64":  "libmobilemcp.dylib",
	"windows-x86_64": "mobilemcp.dll",
}

// Exports every engine must have: the JNI entry point, gobind's own class under the engine's
// package, and a function of the bound package (its prefix).
var (
	requiredExports = []string{"JNI_OnLoad", "Java_io_github_mobilemcp_engine_go_Seq_init"}
	boundPrefix     = "Java_io_github_mobilemcp_intentbridge_"
)

// maxGlibc is the newest glibc symbol version a Linux engine may need: glibc 2.17 (RHEL 7, Ubuntu
// 14.04, Amazon Linux 2 all have it).
var maxGlibc = [2]int{2, 17}

func main() {
	want := flag.String("want", "", "platforms that must be present, comma-separated")
	buildID := flag.String("build-id", "", "the build id every engine must carry (default: the one recorded beside it)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: enginecheck [-want PLATFORM,...] [-build-id ID] DIR")
		os.Exit(2)
	}
	var wanted []string
	if *want != "" {
		wanted = strings.Split(*want, ",")
	}
	lines, ok := checkAll(flag.Arg(0), wanted, *buildID)
	for _, l := range lines {
		fmt.Println(l)
	}
	if !ok {
		os.Exit(1)
	}
}

// checkAll checks every platform present under dir and that each wanted one is; it returns the
// PASS and FAIL lines and whether all passed.
func checkAll(dir string, wanted []string, buildID string) ([]string, bool) {
	var lines []string
	ok := true
	names := make([]string, 0, len(Platforms))
	for p := range Platforms {
		names = append(names, p)
	}
	slices.Sort(names)
	found := 0
	for _, p := range names {
		lib := filepath.Join(dir, Resource, p, Platforms[p])
		if _, err := os.Stat(lib); err != nil {
			if slices.Contains(wanted, p) {
				lines = append(lines, fmt.Sprintf("FAIL  %-15s present: no %s", p, lib))
				ok = false
			}
			continue
		}
		found++
		for _, r := range checkEngine(p, lib, buildID) {
			if r.err != nil {
				lines = append(lines, fmt.Sprintf("FAIL  %-15s %s: %v", p, r.name, r.err))
				ok = false
			} else {
				lines = append(lines, fmt.Sprintf("PASS  %-15s %s: %s", p, r.name, r.detail))
			}
		}
	}
	if found == 0 {
		lines = append(lines, fmt.Sprintf("FAIL  %-15s present: no engine under %s", "any", filepath.Join(dir, Resource)))
		ok = false
	}
	return lines, ok
}

type result struct {
	name   string
	detail string
	err    error
}

func run(name string, f func() (string, error)) result {
	d, err := f()
	return result{name: name, detail: d, err: err}
}

// checkEngine runs every check on one platform's library.
func checkEngine(platform, lib, buildID string) []result {
	data, err := os.ReadFile(lib)
	if err != nil {
		return []result{{name: "read", err: err}}
	}
	dir := filepath.Dir(lib)
	os, _, _ := strings.Cut(platform, "-")
	var rs []result
	switch os {
	case "linux":
		rs = checkELF(platform, data)
	case "windows":
		rs = checkPE(data)
	case "macos":
		rs = checkMachO(platform, data)
	}
	rs = append(rs, run("build id", func() (string, error) {
		recorded, err := readTrimmed(filepath.Join(dir, "build-id"))
		if err != nil {
			return "", err
		}
		id := buildID
		if id == "" {
			id = recorded
		} else if recorded != id {
			return "", fmt.Errorf("build-id beside it says %s, not %s", recorded, id)
		}
		if !bytes.Contains(data, []byte(id)) {
			return "", fmt.Errorf("the library is not stamped with build %s", id)
		}
		return "stamped with " + id, nil
	}))
	rs = append(rs, run("sha256", func() (string, error) {
		recorded, err := readTrimmed(lib + ".sha256")
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != recorded {
			return "", fmt.Errorf("the library's SHA-256 is %s, not the %s recorded beside it", got, recorded)
		}
		return recorded, nil
	}))
	return rs
}

func readTrimmed(name string) (string, error) {
	b, err := os.ReadFile(name)
	return strings.TrimSpace(string(b)), err
}

// exportsCheck checks that the exported names hold every required one and a bound function.
func exportsCheck(exports []string) (string, error) {
	for _, want := range requiredExports {
		if !slices.Contains(exports, want) {
			return "", fmt.Errorf("does not export %s", want)
		}
	}
	bound := 0
	for _, e := range exports {
		if strings.HasPrefix(e, boundPrefix) {
			bound++
		}
	}
	if bound == 0 {
		return "", fmt.Errorf("exports no %s… function", boundPrefix)
	}
	for _, e := range exports {
		if strings.HasPrefix(e, "Java_go_") {
			return "", fmt.Errorf("exports %s, gobind's own name, which clashes with any other gomobile library", e)
		}
	}
	return fmt.Sprintf("JNI_OnLoad, %s and %d %s… functions", requiredExports[1], bound, boundPrefix), nil
}

func checkELF(platform string, data []byte) []result {
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return []result{{name: "format", err: fmt.Errorf("not an ELF file: %v", err)}}
	}
	machine := map[string]elf.Machine{"linux-x86_64": elf.EM_X86_64, "linux-aarch64": elf.EM_AARCH64}[platform]
	return []result{
		run("format", func() (string, error) {
			if f.Class != elf.ELFCLASS64 || f.Type != elf.ET_DYN || f.Machine != machine {
				return "", fmt.Errorf("is an ELF %v %v for %v, not a 64-bit shared library for %v", f.Class, f.Type, f.Machine, machine)
			}
			return fmt.Sprintf("ELF 64-bit shared library for %v", machine), nil
		}),
		run("exports", func() (string, error) {
			syms, err := f.DynamicSymbols()
			if err != nil {
				return "", err
			}
			var names []string
			for _, s := range syms {
				if s.Section != elf.SHN_UNDEF && elf.ST_BIND(s.Info) == elf.STB_GLOBAL {
					names = append(names, s.Name)
				}
			}
			return exportsCheck(names)
		}),
		run("glibc", func() (string, error) {
			needs, err := f.DynamicVersionNeeds()
			if err != nil {
				return "", err
			}
			newest := [2]int{}
			newestName := ""
			for _, n := range needs {
				for _, d := range n.Needs {
					v, ok := glibcVersion(d.Dep)
					if !ok {
						continue
					}
					if v[0] > maxGlibc[0] || v[0] == maxGlibc[0] && v[1] > maxGlibc[1] {
						return "", fmt.Errorf("needs %s (from %s), above GLIBC_%d.%d: it would not load on older Linux", d.Dep, n.Name, maxGlibc[0], maxGlibc[1])
					}
					if v[0] > newest[0] || v[0] == newest[0] && v[1] > newest[1] {
						newest, newestName = v, d.Dep
					}
				}
			}
			libs, _ := f.ImportedLibraries()
			return fmt.Sprintf("newest symbol version %s; needs %s", newestName, strings.Join(libs, ", ")), nil
		}),
	}
}

// glibcVersion parses "GLIBC_2.17" (or "GLIBC_2.2.5": the first two numbers count).
func glibcVersion(s string) ([2]int, bool) {
	rest, ok := strings.CutPrefix(s, "GLIBC_")
	if !ok {
		return [2]int{}, false
	}
	parts := strings.Split(rest, ".")
	if len(parts) < 2 {
		return [2]int{}, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return [2]int{}, false
	}
	return [2]int{major, minor}, true
}

// systemDLL reports whether a DLL is one every Windows has: the kernel's, the Universal C Runtime's
// api-sets, and the system libraries Go's runtime uses.
func systemDLL(name string) bool {
	n := strings.ToLower(name)
	if strings.HasPrefix(n, "api-ms-win-") {
		return true
	}
	switch n {
	case "kernel32.dll", "ntdll.dll", "advapi32.dll", "ws2_32.dll", "bcrypt.dll", "user32.dll", "winmm.dll", "ucrtbase.dll", "msvcrt.dll":
		return true
	}
	return false
}

func checkPE(data []byte) []result {
	f, err := pe.NewFile(bytes.NewReader(data))
	if err != nil {
		return []result{{name: "format", err: fmt.Errorf("not a PE file: %v", err)}}
	}
	return []result{
		run("format", func() (string, error) {
			_, is64 := f.OptionalHeader.(*pe.OptionalHeader64)
			if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 || !is64 || f.Characteristics&pe.IMAGE_FILE_DLL == 0 {
				return "", fmt.Errorf("is not a PE32+ DLL for x86-64 (machine %#x, characteristics %#x)", f.Machine, f.Characteristics)
			}
			return "PE32+ DLL for x86-64", nil
		}),
		run("exports", func() (string, error) {
			names, err := peExports(f)
			if err != nil {
				return "", err
			}
			return exportsCheck(names)
		}),
		run("imports", func() (string, error) {
			// debug/pe's ImportedLibraries is not implemented; its symbols are "name:DLL".
			syms, err := f.ImportedSymbols()
			if err != nil {
				return "", err
			}
			var libs []string
			for _, s := range syms {
				if _, dll, ok := strings.Cut(s, ":"); ok && !slices.Contains(libs, dll) {
					libs = append(libs, dll)
				}
			}
			if len(libs) == 0 {
				return "", errors.New("imports nothing, not even KERNEL32.dll: the import table was not read")
			}
			for _, l := range libs {
				if !systemDLL(l) {
					return "", fmt.Errorf("imports %s, which Windows does not have", l)
				}
			}
			return "only system DLLs: " + strings.Join(libs, ", "), nil
		}),
	}
}

// peExports reads the names in a PE file's export directory, which debug/pe does not.
func peExports(f *pe.File) ([]string, error) {
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok || len(oh.DataDirectory) <= pe.IMAGE_DIRECTORY_ENTRY_EXPORT {
		return nil, errors.New("no export directory")
	}
	dir := oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_EXPORT]
	if dir.VirtualAddress == 0 {
		return nil, errors.New("no export directory")
	}
	// read returns the bytes at a relative virtual address, from the section that holds it.
	read := func(rva, n uint32) ([]byte, error) {
		for _, s := range f.Sections {
			if rva >= s.VirtualAddress && rva+n <= s.VirtualAddress+s.VirtualSize {
				b := make([]byte, n)
				_, err := s.ReadAt(b, int64(rva-s.VirtualAddress))
				return b, err
			}
		}
		return nil, fmt.Errorf("address %#x is in no section", rva)
	}
	hdr, err := read(dir.VirtualAddress, 40) // IMAGE_EXPORT_DIRECTORY
	if err != nil {
		return nil, err
	}
	count := binary.LittleEndian.Uint32(hdr[24:])
	namesRVA := binary.LittleEndian.Uint32(hdr[32:])
	ptrs, err := read(namesRVA, 4*count)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, count)
	for i := range count {
		rva := binary.LittleEndian.Uint32(ptrs[4*i:])
		var name []byte
		for {
			b, err := read(rva+uint32(len(name)), 1)
			if err != nil {
				return nil, err
			}
			if b[0] == 0 {
				break
			}
			name = append(name, b[0])
		}
		names = append(names, string(name))
	}
	return names, nil
}

func checkMachO(platform string, data []byte) []result {
	f, err := macho.NewFile(bytes.NewReader(data))
	if err != nil {
		return []result{{name: "format", err: fmt.Errorf("not a Mach-O file: %v", err)}}
	}
	cpu := map[string]macho.Cpu{"macos-x86_64": macho.CpuAmd64, "macos-aarch64": macho.CpuArm64}[platform]
	return []result{
		run("format", func() (string, error) {
			if f.Type != macho.TypeDylib || f.Cpu != cpu {
				return "", fmt.Errorf("is a Mach-O %v for %v, not a dylib for %v", f.Type, f.Cpu, cpu)
			}
			return fmt.Sprintf("Mach-O dylib for %v", cpu), nil
		}),
		run("exports", func() (string, error) {
			if f.Symtab == nil {
				return "", errors.New("no symbol table")
			}
			var names []string
			for _, s := range f.Symtab.Syms {
				// Mach-O C names carry a leading underscore; N_EXT (0x01) marks an external one.
				if s.Type&0x01 != 0 && s.Sect != 0 {
					names = append(names, strings.TrimPrefix(s.Name, "_"))
				}
			}
			return exportsCheck(names)
		}),
		run("imports", func() (string, error) {
			libs, err := f.ImportedLibraries()
			if err != nil {
				return "", err
			}
			for _, l := range libs {
				if !strings.HasPrefix(l, "/usr/lib/") && !strings.HasPrefix(l, "/System/") {
					return "", fmt.Errorf("links %s, which macOS does not have", l)
				}
			}
			return "only system libraries: " + strings.Join(libs, ", "), nil
		}),
	}
}
