package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/macho"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// ServerName is mobilemcp's name in the MCP Registry, which the npm package (mcpName) and the
// PyPI package's description (mcp-name) must both give, for the registry to accept them as ours.
const ServerName = "io.github.mobilemcp/mobilemcp"

// RegistrySchema is the pinned copy of the MCP Registry's server.json schema (its README says
// where it came from).
const RegistrySchema = "packaging/registry/server.schema.json"

// A desktopSystem is one CLI platform as each package registry names it.
type desktopSystem struct {
	cli      string // the CLI archive's platform: linux-amd64
	npmOS    string // npm's "os" (Node's process.platform): linux, darwin, win32
	npmCPU   string // npm's "cpu" (process.arch): x64, arm64
	wheelTag string // the wheel's platform tag
}

// A desktopBundle is one Claude Desktop bundle: a manifest names an operating system, never an
// architecture, so each serves every machine of its system.
type desktopBundle struct {
	name     string   // in the file's name: mobilemcp-VERSION-NAME.mcpb
	platform string   // the manifest's platform (Node's process.platform)
	exe      string   // the binary, in server/
	clis     []string // the CLI platforms whose binaries it carries: two make one universal binary
}

// DesktopBundles are the Claude Desktop bundles (ci/release-packages.sh builds the same): macOS's
// carries one universal binary of both Mac architectures, which macOS picks from at start;
// Windows's the x64 binary, which Windows on Arm runs too, by emulation.
var DesktopBundles = []desktopBundle{
	{"macos", "darwin", "mobilemcp", []string{"macos-amd64", "macos-arm64"}},
	{"windows", "win32", "mobilemcp.exe", []string{"windows-amd64"}},
}

func (s desktopSystem) exe() string {
	if s.npmOS == "win32" {
		return "mobilemcp.exe"
	}
	return "mobilemcp"
}

// DesktopSystems are the systems the npm, PyPI and Claude Desktop packages are built for: every CLI
// platform (ci/release-packages.sh keeps the same table).
var DesktopSystems = []desktopSystem{
	{"linux-amd64", "linux", "x64", "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64"},
	{"linux-arm64", "linux", "arm64", "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64"},
	{"macos-amd64", "darwin", "x64", "macosx_12_0_x86_64"},
	{"macos-arm64", "darwin", "arm64", "macosx_12_0_arm64"},
	{"windows-amd64", "win32", "x64", "win_amd64"},
	{"windows-arm64", "win32", "arm64", "win_arm64"},
}

// pep440 is a release version as Python writes it: 1.2.0-rc.1 is 1.2.0rc1.
func pep440(version string) string {
	return strings.NewReplacer("-rc.", "rc", "-alpha.", "a", "-beta.", "b").Replace(version)
}

// packages checks what ci/release-packages.sh built in dir against the CLI archives in release:
// each package holds the very binary of its system's archive.
func (c *checker) packages(dir, release, version string) {
	binaries := map[string][]byte{}
	for _, s := range DesktopSystems {
		archive := filepath.Join(release, "mobilemcp-"+version+"-"+s.cli+".tar.gz")
		if s.npmOS == "win32" {
			archive = strings.TrimSuffix(archive, ".tar.gz") + ".zip"
		}
		files, err := archiveFiles(archive)
		if err != nil {
			c.report("packages: the "+s.cli+" binary", "", fmt.Errorf("the packages are checked against the CLI archives: %v", err))
			return
		}
		binaries[s.cli] = files[s.exe()]
	}
	c.report("npm mobilemcp", "the launcher, mcpName, the six systems' packages as optionalDependencies",
		checkNpmMain(filepath.Join(dir, "npm", "mobilemcp-"+version+".tgz"), version))
	for _, s := range DesktopSystems {
		name := "@mobilemcp/cli-" + s.npmOS + "-" + s.npmCPU
		c.report("npm "+name, "os "+s.npmOS+", cpu "+s.npmCPU+", the "+s.cli+" archive's binary",
			checkNpmPlatform(filepath.Join(dir, "npm", "mobilemcp-cli-"+s.npmOS+"-"+s.npmCPU+"-"+version+".tgz"), name, version, s, binaries[s.cli]))
	}
	for _, s := range DesktopSystems {
		wheel := "mobilemcp-" + pep440(version) + "-py3-none-" + s.wheelTag + ".whl"
		c.report("PyPI "+s.cli, wheel+": the archive's binary as its script, RECORD holds",
			checkWheel(filepath.Join(dir, "pypi", wheel), version, s, binaries[s.cli]))
	}
	bundles := map[string]string{}
	for _, b := range DesktopBundles {
		file := filepath.Join(dir, "mcpb", "mobilemcp-"+version+"-"+b.name+".mcpb")
		err := checkBundle(file, version, b, binaries)
		c.report("Claude Desktop "+b.name, filepath.Base(file)+": adb stdio on "+b.platform+", the binaries of "+strings.Join(b.clis, " and "), err)
		if data, readErr := os.ReadFile(file); readErr == nil {
			sum := sha256.Sum256(data)
			bundles[filepath.Base(file)] = hex.EncodeToString(sum[:])
		}
	}
	c.report("MCP Registry server.json", "valid against "+RegistrySchema+", naming the PyPI package and each bundle, not the npm one",
		checkServerJSON(filepath.Join(dir, "server.json"), RegistrySchema, version, bundles))
}

// tgzFiles reads every regular file of an npm tarball, with its mode.
func tgzFiles(path string) (map[string][]byte, map[string]int64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("missing %s", filepath.Base(path))
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", filepath.Base(path), err)
	}
	files, modes := map[string][]byte{}, map[string]int64{}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, modes, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", filepath.Base(path), err)
		}
		if h.Typeflag == tar.TypeReg {
			b, err := io.ReadAll(tr)
			if err != nil {
				return nil, nil, err
			}
			files[h.Name], modes[h.Name] = b, h.Mode
		}
	}
}

// npmPackage is what the checks read of a package.json.
type npmPackage struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	License              string            `json:"license"`
	MCPName              string            `json:"mcpName"`
	Bin                  map[string]string `json:"bin"`
	OS                   []string          `json:"os"`
	CPU                  []string          `json:"cpu"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
}

func readPackageJSON(files map[string][]byte, tarball string) (npmPackage, error) {
	var p npmPackage
	data, ok := files["package/package.json"]
	if !ok {
		return p, fmt.Errorf("%s has no package/package.json", tarball)
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("%s: package.json: %v", tarball, err)
	}
	return p, nil
}

func checkNpmMain(tarball, version string) error {
	files, _, err := tgzFiles(tarball)
	if err != nil {
		return err
	}
	p, err := readPackageJSON(files, filepath.Base(tarball))
	if err != nil {
		return err
	}
	want := map[string]string{}
	for _, s := range DesktopSystems {
		want["@mobilemcp/cli-"+s.npmOS+"-"+s.npmCPU] = version
	}
	switch {
	case p.Name != "mobilemcp" || p.Version != version:
		return fmt.Errorf("package.json names %s@%s, not mobilemcp@%s", p.Name, p.Version, version)
	case p.MCPName != ServerName:
		return fmt.Errorf("package.json's mcpName is %q, not %q: the MCP Registry would refuse the package", p.MCPName, ServerName)
	case p.License != "Apache-2.0":
		return fmt.Errorf("package.json's license is %q, not Apache-2.0", p.License)
	case !maps.Equal(p.OptionalDependencies, want):
		return fmt.Errorf("optionalDependencies are %v, not %v", p.OptionalDependencies, want)
	case files["package/"+p.Bin["mobilemcp"]] == nil:
		return fmt.Errorf("bin.mobilemcp is %q, which the tarball does not hold", p.Bin["mobilemcp"])
	case files["package/LICENSE"] == nil || files["package/README.md"] == nil:
		return errors.New("the tarball holds no LICENSE or README.md")
	}
	return nil
}

func checkNpmPlatform(tarball, name, version string, s desktopSystem, binary []byte) error {
	files, modes, err := tgzFiles(tarball)
	if err != nil {
		return err
	}
	p, err := readPackageJSON(files, filepath.Base(tarball))
	if err != nil {
		return err
	}
	exe := "package/bin/" + s.exe()
	switch {
	case p.Name != name || p.Version != version:
		return fmt.Errorf("package.json names %s@%s, not %s@%s", p.Name, p.Version, name, version)
	case !slices.Equal(p.OS, []string{s.npmOS}) || !slices.Equal(p.CPU, []string{s.npmCPU}):
		return fmt.Errorf("package.json has os %q and cpu %q, not [%s] and [%s]: npm would install it on the wrong systems", p.OS, p.CPU, s.npmOS, s.npmCPU)
	case files[exe] == nil:
		return fmt.Errorf("%s holds no %s", filepath.Base(tarball), exe)
	case !bytes.Equal(files[exe], binary):
		return fmt.Errorf("%s is not the binary of the %s archive", exe, s.cli)
	case s.npmOS != "win32" && modes[exe]&0o111 == 0:
		return fmt.Errorf("%s is not executable (mode %o)", exe, modes[exe])
	case files["package/LICENSE"] == nil:
		return errors.New("the tarball holds no LICENSE")
	}
	return nil
}

// checkWheel checks a platform wheel: its tags, its metadata, the binary as its one script, and
// that RECORD names every file with its hash, as installers verify.
func checkWheel(path, version string, s desktopSystem, binary []byte) error {
	r, err := zip.OpenReader(path)
	if err != nil {
		return fmt.Errorf("missing %s: %v", filepath.Base(path), err)
	}
	defer r.Close()
	files, modes := map[string][]byte{}, map[string]os.FileMode{}
	for _, f := range r.File {
		b, err := readZipFile(f)
		if err != nil {
			return err
		}
		files[f.Name], modes[f.Name] = b, f.Mode()
	}
	info := "mobilemcp-" + pep440(version) + ".dist-info/"
	script := "mobilemcp-" + pep440(version) + ".data/scripts/" + s.exe()
	wheelFile, metadata := string(files[info+"WHEEL"]), string(files[info+"METADATA"])
	if !strings.Contains(wheelFile, "Root-Is-Purelib: false") {
		return fmt.Errorf("%sWHEEL does not say Root-Is-Purelib: false: it is a platform wheel", info)
	}
	for _, tag := range strings.Split(s.wheelTag, ".") {
		if !strings.Contains(wheelFile, "Tag: py3-none-"+tag+"\n") {
			return fmt.Errorf("%sWHEEL has no Tag: py3-none-%s", info, tag)
		}
	}
	switch {
	case !strings.Contains(metadata, "\nName: mobilemcp\n") || !strings.Contains(metadata, "\nVersion: "+pep440(version)+"\n"):
		return fmt.Errorf("%sMETADATA does not name mobilemcp %s", info, pep440(version))
	case !strings.Contains(metadata, "mcp-name: "+ServerName):
		return fmt.Errorf("the description has no 'mcp-name: %s': the MCP Registry would refuse the package", ServerName)
	case files[script] == nil:
		return fmt.Errorf("%s holds no %s", filepath.Base(path), script)
	case !bytes.Equal(files[script], binary):
		return fmt.Errorf("%s is not the binary of the %s archive", script, s.cli)
	case s.npmOS != "win32" && modes[script]&0o111 == 0:
		return fmt.Errorf("%s is not executable (mode %v)", script, modes[script])
	}
	recorded := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(files[info+"RECORD"])), "\n") {
		fields := strings.Split(line, ",")
		if len(fields) != 3 {
			return fmt.Errorf("RECORD has the line %q, not PATH,HASH,SIZE", line)
		}
		recorded[fields[0]] = true
		if fields[0] == info+"RECORD" {
			continue
		}
		sum := sha256.Sum256(files[fields[0]])
		if files[fields[0]] == nil || fields[1] != "sha256="+base64.RawURLEncoding.EncodeToString(sum[:]) {
			return fmt.Errorf("RECORD's hash of %s does not hold: installers would refuse the wheel", fields[0])
		}
	}
	for name := range files {
		if !recorded[name] {
			return fmt.Errorf("RECORD does not list %s", name)
		}
	}
	return nil
}

// checkBundle checks a Claude Desktop bundle: its manifest (which @anthropic-ai/mcpb validated
// when it packed it) runs its binary, as 'adb stdio', on the bundle's platform only; the binary is
// the archive's, or for two archives a universal binary whose slices are theirs.
func checkBundle(path, version string, b desktopBundle, binaries map[string][]byte) error {
	r, err := zip.OpenReader(path)
	if err != nil {
		return fmt.Errorf("missing %s: %v", filepath.Base(path), err)
	}
	defer r.Close()
	files := map[string][]byte{}
	for _, f := range r.File {
		if files[f.Name], err = readZipFile(f); err != nil {
			return err
		}
	}
	var m struct {
		ManifestVersion string `json:"manifest_version"`
		Name            string `json:"name"`
		Version         string `json:"version"`
		Server          struct {
			Type       string `json:"type"`
			EntryPoint string `json:"entry_point"`
			MCPConfig  struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcp_config"`
		} `json:"server"`
		Compatibility struct {
			Platforms []string `json:"platforms"`
		} `json:"compatibility"`
	}
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		return fmt.Errorf("manifest.json: %v", err)
	}
	entry := "server/" + b.exe
	switch {
	case m.Name != "mobilemcp" || m.Version != version:
		return fmt.Errorf("the manifest names %s %s, not mobilemcp %s", m.Name, m.Version, version)
	case m.Server.Type != "binary" || m.Server.EntryPoint != entry || m.Server.MCPConfig.Command != "${__dirname}/"+entry:
		return fmt.Errorf("the manifest runs %s %q (%s), not the binary %s", m.Server.Type, m.Server.MCPConfig.Command, m.Server.EntryPoint, entry)
	case !slices.Equal(m.Server.MCPConfig.Args, []string{"adb", "stdio"}):
		return fmt.Errorf("the manifest's args are %q, not [adb stdio]", m.Server.MCPConfig.Args)
	case !slices.Equal(m.Compatibility.Platforms, []string{b.platform}):
		return fmt.Errorf("the manifest is for %q, not [%s]", m.Compatibility.Platforms, b.platform)
	case len(b.clis) == 1 && !bytes.Equal(files[entry], binaries[b.clis[0]]):
		return fmt.Errorf("%s is not the binary of the %s archive", entry, b.clis[0])
	case len(b.clis) > 1:
		return checkUniversal(entry, files[entry], b.clis, binaries)
	}
	return nil
}

// checkUniversal checks that data, the bundle's entry, is a universal Mach-O binary whose slices
// are the binaries of the archives clis, one for each architecture.
func checkUniversal(entry string, data []byte, clis []string, binaries map[string][]byte) error {
	fat, err := macho.NewFatFile(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s is not a universal binary of %s: %v", entry, strings.Join(clis, " and "), err)
	}
	defer fat.Close()
	if len(fat.Arches) != len(clis) {
		return fmt.Errorf("%s has %d architectures, not the %d of %s", entry, len(fat.Arches), len(clis), strings.Join(clis, " and "))
	}
	cpus := map[macho.Cpu]string{macho.CpuAmd64: "amd64", macho.CpuArm64: "arm64"}
	for _, arch := range fat.Arches {
		name := cpus[arch.Cpu]
		cli := ""
		for _, c := range clis {
			if name != "" && strings.HasSuffix(c, "-"+name) {
				cli = c
			}
		}
		if cli == "" {
			return fmt.Errorf("%s has a slice for CPU %v, which none of %s is", entry, arch.Cpu, strings.Join(clis, " and "))
		}
		end := uint64(arch.Offset) + uint64(arch.Size)
		if end > uint64(len(data)) || !bytes.Equal(data[arch.Offset:end], binaries[cli]) {
			return fmt.Errorf("%s's %s slice is not the binary of the %s archive", entry, name, cli)
		}
	}
	return nil
}

// checkServerJSON validates server.json against the registry's schema, and checks that it names
// this version's PyPI package and every bundle with its SHA-256, at the address the GitHub release
// gives it, and not the npm package: a client installing from the registry would run that with npx
// in the project it opened, where npx runs a planted node_modules/.bin/mobilemcp first.
func checkServerJSON(path, schemaPath, version string, bundles map[string]string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("missing %s", filepath.Base(path))
	}
	if err := validateServerJSON(data, schemaPath); err != nil {
		return err
	}
	var s struct {
		Schema   string `json:"$schema"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Packages []struct {
			RegistryType string `json:"registryType"`
			Identifier   string `json:"identifier"`
			Version      string `json:"version"`
			FileSHA256   string `json:"fileSha256"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if s.Name != ServerName || s.Version != version {
		return fmt.Errorf("server.json names %s %s, not %s %s", s.Name, s.Version, ServerName, version)
	}
	want := map[string]string{"pypi mobilemcp": pep440(version)}
	for name, sum := range bundles {
		want["mcpb https://github.com/mobilemcp/mobilemcp/releases/download/v"+version+"/"+name] = version + " " + sum
	}
	got := map[string]string{}
	for _, p := range s.Packages {
		if p.RegistryType == "npm" {
			return fmt.Errorf("server.json names the npm package %s, which a client would run with npx in the project it opened, "+
				"where npx runs a planted node_modules/.bin/mobilemcp first; name the PyPI package and the bundles alone", p.Identifier)
		}
		v := p.Version
		if p.RegistryType == "mcpb" {
			v += " " + p.FileSHA256
		}
		got[p.RegistryType+" "+p.Identifier] = v
	}
	if !maps.Equal(got, want) {
		return fmt.Errorf("server.json's packages are %v, not %v", got, want)
	}
	return nil
}

// validateServerJSON validates a server.json against the registry's schema, and checks that it
// says it follows that schema.
func validateServerJSON(data []byte, schemaPath string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return fmt.Errorf("the registry's schema: %v", err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(raw, &schema); err != nil {
		return fmt.Errorf("%s: %v", schemaPath, err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return fmt.Errorf("%s: %v", schemaPath, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("server.json is not JSON: %v", err)
	}
	if doc["$schema"] != schema.ID {
		return fmt.Errorf("server.json's $schema is %v, not the pinned schema's %s", doc["$schema"], schema.ID)
	}
	if err := resolved.Validate(doc); err != nil {
		return fmt.Errorf("server.json does not follow %s: %v", schemaPath, err)
	}
	return nil
}
