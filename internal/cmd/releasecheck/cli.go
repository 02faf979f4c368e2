package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/buildinfo"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
)

// release checks the CLI archives in o.release.
func (c *checker) release(o options) {
	c.report("CLI: SHA256SUMS", "every archive's checksum holds", checkSums(o.release))
	for _, p := range CLIPlatforms {
		name := "mobilemcp-" + o.version + "-" + p
		exe := "mobilemcp"
		archive := filepath.Join(o.release, name+".tar.gz")
		if strings.HasPrefix(p, "windows-") {
			exe = "mobilemcp.exe"
			archive = filepath.Join(o.release, name+".zip")
		}
		files, err := archiveFiles(archive)
		if err == nil {
			for _, want := range []string{exe, "LICENSE", "README.md"} {
				if _, ok := files[want]; !ok {
					err = fmt.Errorf("%s holds no %s", filepath.Base(archive), want)
					break
				}
			}
		}
		c.report("CLI "+p+": archive", filepath.Base(archive)+" holds "+exe+", LICENSE and README.md", err)
		if err != nil {
			continue
		}
		binary := files[exe]
		if strings.HasPrefix(p, "macos-") {
			min, err := nativelib.MacOSMinimum(bytes.NewReader(binary), exe)
			if err == nil && !nativelib.VersionAtMost(min, MinMacOS) {
				err = fmt.Errorf("%s needs macOS %s, newer than %s", exe, min, MinMacOS)
			}
			c.report("CLI "+p+": macOS minimum", "macOS "+min+", "+MinMacOS+" or older", err)
		}
		if o.goVersion != "" {
			c.report("CLI "+p+": Go toolchain", "built with "+o.goVersion, checkGoVersions(map[string][]byte{p: binary}, o.goVersion))
		}
		var run []string
		switch p {
		case "linux-amd64":
			run = []string{}
		case "linux-arm64":
			run = []string{"qemu-aarch64"}
		default:
			continue
		}
		detail, err := runVersion(binary, run, o.version, o.buildID)
		c.report("CLI "+p+": mobilemcp version", detail, err)
	}
}

// checkGoVersions checks that every binary (by name) records the Go toolchain want (go.mod's
// toolchain line), as Go writes its version into every binary it links, stripped or not.
func checkGoVersions(binaries map[string][]byte, want string) error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(binaries)) {
		info, err := buildinfo.Read(bytes.NewReader(binaries[name]))
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("%s records no Go version: %v", name, err))
		case info.GoVersion != want:
			errs = append(errs, fmt.Errorf("%s is built with %s, not %s, go.mod's toolchain", name, info.GoVersion, want))
		}
	}
	return errors.Join(errs...)
}

func checkSums(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		return errors.New("no SHA256SUMS")
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok {
			return fmt.Errorf("SHA256SUMS has the line %q, not \"SUM  NAME\"", line)
		}
		file, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("SHA256SUMS names %s, which is not there", name)
		}
		got := sha256.Sum256(file)
		if hex.EncodeToString(got[:]) != sum {
			return fmt.Errorf("%s does not match its SHA256SUMS line", name)
		}
		seen++
	}
	if seen < len(CLIPlatforms) {
		return fmt.Errorf("SHA256SUMS lists %d files, fewer than the %d CLI archives", seen, len(CLIPlatforms))
	}
	return nil
}

// archiveFiles reads every regular file of a .tar.gz or .zip.
func archiveFiles(path string) (map[string][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("missing %s", filepath.Base(path))
	}
	files := map[string][]byte{}
	if strings.HasSuffix(path, ".zip") {
		r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, err
		}
		for _, f := range r.File {
			b, err := readZipFile(f)
			if err != nil {
				return nil, err
			}
			files[f.Name] = b
		}
		return files, nil
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag == tar.TypeReg {
			b, err := io.ReadAll(tr)
			if err != nil {
				return nil, err
			}
			files[h.Name] = b
		}
	}
}

// runVersion writes the binary out and runs "mobilemcp version", through the runner (qemu) if any.
func runVersion(binary []byte, runner []string, version, buildID string) (string, error) {
	dir, err := os.MkdirTemp("", "releasecheck-cli-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	exe := filepath.Join(dir, "mobilemcp")
	if err := os.WriteFile(exe, binary, 0o755); err != nil {
		return "", err
	}
	args := append(slices.Clone(runner), exe, "version")
	if len(runner) > 0 {
		if _, err := exec.LookPath(runner[0]); err != nil {
			return "", fmt.Errorf("no %s to run it with: scripts/deps.sh qemu installs qemu-user", runner[0])
		}
	}
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	text := strings.TrimSpace(string(out))
	if err != nil {
		return "", fmt.Errorf("%s: %v: %s", strings.Join(args, " "), err, text)
	}
	want := "mobilemcp " + version + " (build " + buildID
	if buildID == "" {
		want = "mobilemcp " + version + " (build "
	}
	if !strings.Contains(text, want) {
		return "", fmt.Errorf("it printed %q, not %q", text, want+"…")
	}
	return text, nil
}
