package nativelib

import (
	"debug/macho"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The load commands that record the oldest macOS a binary runs on: LC_BUILD_VERSION (what Xcode's
// and Go's linkers write) and the older LC_VERSION_MIN_MACOSX. debug/macho keeps both as raw
// bytes.
const (
	loadCmdVersionMinMacOSX = 0x24
	loadCmdBuildVersion     = 0x32
	platformMacOS           = 1 // LC_BUILD_VERSION's platform field
)

// MacOSMinimum returns the oldest macOS that the Mach-O binary in r (a
// library or an executable; name in errors) runs on, such as "12.0": the
// minimum its LC_BUILD_VERSION (or LC_VERSION_MIN_MACOSX) load command
// records. A binary linked without a deployment target records the macOS
// of the machine that linked it.
func MacOSMinimum(r io.ReaderAt, name string) (string, error) {
	f, err := macho.NewFile(r)
	if err != nil {
		return "", fmt.Errorf("%s is not a Mach-O binary: %v", name, err)
	}
	defer f.Close()
	for _, l := range f.Loads {
		raw := l.Raw()
		if len(raw) < 16 {
			continue
		}
		switch f.ByteOrder.Uint32(raw) {
		case loadCmdBuildVersion: // cmd, cmdsize, platform, minos, sdk, ntools
			if f.ByteOrder.Uint32(raw[8:]) == platformMacOS {
				return machoVersion(f.ByteOrder.Uint32(raw[12:])), nil
			}
		case loadCmdVersionMinMacOSX: // cmd, cmdsize, version, sdk
			return machoVersion(f.ByteOrder.Uint32(raw[8:])), nil
		}
	}
	return "", fmt.Errorf("%s records no minimum macOS (no LC_BUILD_VERSION for macOS, no LC_VERSION_MIN_MACOSX)", name)
}

// machoVersion formats a Mach-O version, X.Y.Z in the nibbles xxxx.yy.zz.
func machoVersion(v uint32) string {
	s := fmt.Sprintf("%d.%d", v>>16, v>>8&0xff)
	if v&0xff != 0 {
		s += fmt.Sprintf(".%d", v&0xff)
	}
	return s
}

// VersionAtMost reports whether the dotted version got (such as "11.5")
// is at most max (such as "12.0"); a version that is not dotted numbers
// is not.
func VersionAtMost(got, max string) bool {
	g, okG := versionParts(got)
	m, okM := versionParts(max)
	if !okG || !okM {
		return false
	}
	for i := range 3 {
		if g[i] != m[i] {
			return g[i] < m[i]
		}
	}
	return true
}

func versionParts(v string) ([3]int, bool) {
	var parts [3]int
	fields := strings.Split(v, ".")
	if len(fields) > 3 {
		return parts, false
	}
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return parts, false
		}
		parts[i] = n
	}
	return parts, true
}
