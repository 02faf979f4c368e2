package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const schemaFromHere = "../../../" + RegistrySchema

// goodServerJSON is a server.json as ci/release-packages.sh writes one, with one bundle.
func goodServerJSON() map[string]any {
	stdio := map[string]any{"type": "stdio"}
	return map[string]any{
		"$schema":     "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
		"name":        ServerName,
		"description": "Your Android phone's tools over USB: SMS and every Mobile-MCP tool you share",
		"version":     "1.2.0-rc.1",
		"repository":  map[string]any{"url": "https://github.com/mobilemcp/mobilemcp", "source": "github"},
		"packages": []any{
			map[string]any{"registryType": "pypi", "identifier": "mobilemcp", "version": "1.2.0rc1", "transport": stdio,
				"packageArguments": []any{map[string]any{"type": "positional", "value": "adb"}}},
			map[string]any{"registryType": "mcpb", "version": "1.2.0-rc.1", "transport": stdio,
				"identifier": "https://github.com/mobilemcp/mobilemcp/releases/download/v1.2.0-rc.1/mobilemcp-1.2.0-rc.1-macos.mcpb",
				"fileSha256": strings.Repeat("ab", 32)},
		},
	}
}

func writeJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "server.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// server.json is checked against the registry's own schema: what the
// registry would refuse fails here, before anything is published.
func TestServerJSONFollowsTheRegistrysSchema(t *testing.T) {
	bundles := map[string]string{"mobilemcp-1.2.0-rc.1-macos.mcpb": strings.Repeat("ab", 32)}
	if err := checkServerJSON(writeJSON(t, goodServerJSON()), schemaFromHere, "1.2.0-rc.1", bundles); err != nil {
		t.Fatalf("a good server.json: %v", err)
	}
	for _, tt := range []struct {
		name   string
		change func(s map[string]any)
		want   string
	}{
		{"a name without a namespace", func(s map[string]any) { s["name"] = "mobilemcp" }, "does not follow"},
		{"a description over 100 characters", func(s map[string]any) { s["description"] = strings.Repeat("d", 101) }, "does not follow"},
		{"no version", func(s map[string]any) { delete(s, "version") }, "does not follow"},
		{"a package at latest", func(s map[string]any) { s["packages"].([]any)[0].(map[string]any)["version"] = "latest" }, "does not follow"},
		{"a bundle's hash that is no SHA-256", func(s map[string]any) { s["packages"].([]any)[1].(map[string]any)["fileSha256"] = "XYZ" }, "does not follow"},
		{"another schema", func(s map[string]any) {
			s["$schema"] = "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json"
		}, "not the pinned schema's"},
		{"a bundle's hash that is not the bundle's", func(s map[string]any) {
			s["packages"].([]any)[1].(map[string]any)["fileSha256"] = strings.Repeat("cd", 32)
		}, "server.json's packages are"},
		{"the PyPI version as npm writes it", func(s map[string]any) { s["packages"].([]any)[0].(map[string]any)["version"] = "1.2.0-rc.1" }, "server.json's packages are"},
		// A client installing from the registry runs an npm package with npx in the project it
		// opened, where npx runs a planted node_modules/.bin/mobilemcp first.
		{"the npm package", func(s map[string]any) {
			s["packages"] = append(s["packages"].([]any), map[string]any{"registryType": "npm", "identifier": "mobilemcp",
				"version": "1.2.0-rc.1", "runtimeHint": "npx", "transport": map[string]any{"type": "stdio"}})
		}, "server.json names the npm package mobilemcp, which a client would run with npx in the project it opened, " +
			"where npx runs a planted node_modules/.bin/mobilemcp first; name the PyPI package and the bundles alone"},
	} {
		s := goodServerJSON()
		tt.change(s)
		err := checkServerJSON(writeJSON(t, s), schemaFromHere, "1.2.0-rc.1", bundles)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
}

// npmTarball writes an npm tarball holding package.json and bin/mobilemcp.
func npmTarball(t *testing.T, pkg map[string]any, binary []byte, mode int64) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	manifest, _ := json.Marshal(pkg)
	for _, f := range []struct {
		name string
		data []byte
		mode int64
	}{{"package/package.json", manifest, 0o644}, {"package/LICENSE", []byte("Apache"), 0o644}, {"package/bin/mobilemcp", binary, mode}} {
		tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg})
		tw.Write(f.data)
	}
	tw.Close()
	gz.Close()
	path := filepath.Join(t.TempDir(), "pkg.tgz")
	os.WriteFile(path, buf.Bytes(), 0o644)
	return path
}

// Each system's npm package holds the very binary of that system's
// archive, executable, and says which system npm may install it on.
func TestNpmPackagesHoldTheArchivesBinary(t *testing.T) {
	linux := DesktopSystems[0]
	binary := []byte("\x7fELF the linux-amd64 mobilemcp")
	pkg := func() map[string]any {
		return map[string]any{"name": "@mobilemcp/cli-linux-x64", "version": "1.2.0", "os": []string{"linux"}, "cpu": []string{"x64"}}
	}
	if err := checkNpmPlatform(npmTarball(t, pkg(), binary, 0o755), "@mobilemcp/cli-linux-x64", "1.2.0", linux, binary); err != nil {
		t.Fatalf("a good package: %v", err)
	}
	wrongCPU := pkg()
	wrongCPU["cpu"] = []string{"arm64"}
	for _, tt := range []struct {
		name    string
		tarball string
		want    string
	}{
		{"another binary", npmTarball(t, pkg(), []byte("\x7fELF another build"), 0o755), "package/bin/mobilemcp is not the binary of the linux-amd64 archive"},
		{"not executable", npmTarball(t, pkg(), binary, 0o644), "package/bin/mobilemcp is not executable (mode 644)"},
		{"the wrong cpu", npmTarball(t, wrongCPU, binary, 0o755), `package.json has os ["linux"] and cpu ["arm64"], not [linux] and [x64]: npm would install it on the wrong systems`},
	} {
		err := checkNpmPlatform(tt.tarball, "@mobilemcp/cli-linux-x64", "1.2.0", linux, binary)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}

// wheel writes a wheel holding the binary as its script, with a RECORD
// that lists each file's hash, or, with tamper, a binary RECORD did not.
func wheel(t *testing.T, binary []byte, tamper bool) string {
	t.Helper()
	info := "mobilemcp-1.2.0.dist-info/"
	files := []struct{ name, data string }{
		{"mobilemcp-1.2.0.data/scripts/mobilemcp", string(binary)},
		{info + "METADATA", "Metadata-Version: 2.4\nName: mobilemcp\nVersion: 1.2.0\n\n# mobilemcp\n<!-- mcp-name: " + ServerName + " -->\n"},
		{info + "WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: py3-none-manylinux2014_x86_64\nTag: py3-none-manylinux_2_17_x86_64\nTag: py3-none-musllinux_1_1_x86_64\n"},
	}
	var record strings.Builder
	for _, f := range files {
		sum := sha256.Sum256([]byte(f.data))
		record.WriteString(f.name + ",sha256=" + base64.RawURLEncoding.EncodeToString(sum[:]) + ",1\n")
	}
	record.WriteString(info + "RECORD,,\n")
	if tamper {
		files[0].data = "\x7fELF a binary put in later"
	}
	files = append(files, struct{ name, data string }{info + "RECORD", record.String()})
	path := filepath.Join(t.TempDir(), "mobilemcp.whl")
	out, _ := os.Create(path)
	zw := zip.NewWriter(out)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name}
		h.SetMode(0o755)
		w, _ := zw.CreateHeader(h)
		w.Write([]byte(f.data))
	}
	zw.Close()
	out.Close()
	return path
}

func TestWheelsHoldTheArchivesBinaryAsRecorded(t *testing.T) {
	linux := DesktopSystems[0]
	binary := []byte("\x7fELF the linux-amd64 mobilemcp")
	if err := checkWheel(wheel(t, binary, false), "1.2.0", linux, binary); err != nil {
		t.Fatalf("a good wheel: %v", err)
	}
	if err := checkWheel(wheel(t, []byte("\x7fELF another build"), false), "1.2.0", linux, binary); err == nil ||
		err.Error() != "mobilemcp-1.2.0.data/scripts/mobilemcp is not the binary of the linux-amd64 archive" {
		t.Errorf("another binary: %v", err)
	}
	if err := checkWheel(wheel(t, binary, true), "1.2.0", linux, []byte("\x7fELF a binary put in later")); err == nil ||
		err.Error() != "RECORD's hash of mobilemcp-1.2.0.data/scripts/mobilemcp does not hold: installers would refuse the wheel" {
		t.Errorf("a tampered wheel: %v", err)
	}
}

func TestPEP440(t *testing.T) {
	for in, want := range map[string]string{"1.2.0": "1.2.0", "1.2.0-rc.1": "1.2.0rc1", "0.1.0-alpha.2": "0.1.0a2", "2.0.0-beta.3": "2.0.0b3"} {
		if got := pep440(in); got != want {
			t.Errorf("pep440(%s) = %s, want %s", in, got, want)
		}
	}
}

// machO is a stand-in Mach-O binary of one architecture: its header's
// magic, CPU type and subtype, then filler.
func machO(cpu, subtype uint32, filler string) []byte {
	var b bytes.Buffer
	for _, v := range []uint32{0xfeedfacf, cpu, subtype, 2, 0, 0, 0, 0} {
		b.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)})
	}
	b.WriteString(filler)
	return b.Bytes()
}

// bundleFile writes a Claude Desktop bundle holding a manifest and files.
func bundleFile(t *testing.T, manifest map[string]any, files map[string][]byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mobilemcp.mcpb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	data, _ := json.Marshal(manifest)
	files["manifest.json"] = data
	for name, data := range files {
		w, _ := zw.Create(name)
		w.Write(data)
	}
	zw.Close()
	f.Close()
	return path
}

// A Claude Desktop bundle's manifest can name an operating system but not
// an architecture, so there is one bundle per system, for every Mac and
// every Windows PC: the macOS one carries one universal binary of the
// amd64 and arm64 archives' binaries, which macOS picks from at start; the
// Windows one carries the amd64 binary, which Windows on Arm runs.
func TestBundlesCarryEveryArchitecture(t *testing.T) {
	amd64, arm64 := machO(0x01000007, 3, "amd64 binary"), machO(0x0100000c, 0, "arm64 binary")
	binaries := map[string][]byte{"macos-amd64": amd64, "macos-arm64": arm64, "windows-amd64": []byte("MZ amd64"), "windows-arm64": []byte("MZ arm64")}
	universal, err := universalBinary(amd64, arm64)
	if err != nil {
		t.Fatal(err)
	}
	manifest := func(platform, exe string) map[string]any {
		return map[string]any{"manifest_version": "0.3", "name": "mobilemcp", "version": "1.2.0",
			"server": map[string]any{"type": "binary", "entry_point": "server/" + exe,
				"mcp_config": map[string]any{"command": "${__dirname}/server/" + exe, "args": []string{"adb", "stdio"}}},
			"compatibility": map[string]any{"platforms": []string{platform}}}
	}
	for _, b := range DesktopBundles {
		if b.name != "macos" && b.name != "windows" {
			t.Fatalf("a bundle for %s", b.name)
		}
	}
	macos, windows := DesktopBundles[0], DesktopBundles[1]
	for _, tt := range []struct {
		name   string
		bundle desktopBundle
		path   string
		want   string
	}{
		{"macOS, universal", macos, bundleFile(t, manifest("darwin", "mobilemcp"), map[string][]byte{"server/mobilemcp": universal}), ""},
		{"Windows, amd64", windows, bundleFile(t, manifest("win32", "mobilemcp.exe"), map[string][]byte{"server/mobilemcp.exe": []byte("MZ amd64")}), ""},
		{"macOS, arm64 alone", macos, bundleFile(t, manifest("darwin", "mobilemcp"), map[string][]byte{"server/mobilemcp": arm64}),
			"server/mobilemcp is not a universal binary of macos-amd64 and macos-arm64: "},
		{"Windows, arm64", windows, bundleFile(t, manifest("win32", "mobilemcp.exe"), map[string][]byte{"server/mobilemcp.exe": []byte("MZ arm64")}),
			"server/mobilemcp.exe is not the binary of the windows-amd64 archive"},
	} {
		err := checkBundle(tt.path, "1.2.0", tt.bundle, binaries)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.want)) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
	// A universal binary whose arm64 slice is another binary.
	other, _ := universalBinary(amd64, machO(0x0100000c, 0, "another arm64 binary"))
	path := bundleFile(t, manifest("darwin", "mobilemcp"), map[string][]byte{"server/mobilemcp": other})
	if err := checkBundle(path, "1.2.0", macos, binaries); err == nil || err.Error() != "server/mobilemcp's arm64 slice is not the binary of the macos-arm64 archive" {
		t.Errorf("another arm64 slice: got %v", err)
	}
}

// universalBinary joins Mach-O binaries into a universal (fat) one, as
// lipo -create does: the fat header, one entry for each, then each at an
// offset aligned to 2^14.
func universalBinary(slices ...[]byte) ([]byte, error) {
	const align = 14
	var header, body bytes.Buffer
	be := func(b *bytes.Buffer, v uint32) { b.Write([]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}) }
	be(&header, 0xcafebabe)
	be(&header, uint32(len(slices)))
	offset := 1 << align
	for _, s := range slices {
		if len(s) < 12 {
			return nil, errors.New("not a Mach-O binary")
		}
		le := func(i int) uint32 { return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24 }
		be(&header, le(4))
		be(&header, le(8))
		be(&header, uint32(offset))
		be(&header, uint32(len(s)))
		be(&header, align)
		body.Write(make([]byte, offset-(1<<align)-body.Len()))
		body.Write(s)
		offset += (len(s) + 1<<align - 1) &^ (1<<align - 1)
	}
	header.Write(make([]byte, 1<<align-header.Len()))
	return append(header.Bytes(), body.Bytes()...), nil
}
