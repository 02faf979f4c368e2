// Command releasecheck is the release gate: it checks what a version tag would publish, and prints
// one PASS or FAIL line per check, exiting 1 on any FAIL. ci/release-check.sh (make
// release-check) assembles everything that builds without the Android Gradle Plugin and runs it;
// the release workflow runs it again on what Gradle staged, with -android for the AARs and APKs.
//
//	go run ./internal/cmd/releasecheck -version 1.2.0 [-staging DIR] [-release DIR [-packages DIR]] [-android DIR]
//	    [-public-key FILE] [-build-id ID] [-engines linux-x86_64,...]
//
//	-staging     a Maven repository: for each artifact, its main file, POM, sources and javadoc
//	             jars, and with -public-key their signatures, all present, checksummed as Central
//	             requires, with LICENSE inside every jar, and the POM with every element Central
//	             requires; the engine jar holds the -engines platforms, each at most 4.5 MB
//	-release     the CLI archives and SHA256SUMS: the checksums hold, six platforms, LICENSE and a
//	             README in each; the linux-amd64 mobilemcp prints the version and the build id, and
//	             the linux-arm64 one too, under qemu-aarch64
//	-packages    the npm, PyPI and Claude Desktop packages (ci/release-packages.sh): each holds the
//	             binary of its system's CLI archive, the npm and PyPI packages name the MCP
//	             Registry's server, and server.json follows the registry's pinned schema
//	-android     the AGP-built AARs and APKs: all four ABIs, every library aligned to 16 KB, the
//	             consumer ProGuard rules, and zipalign -c -P 16 on every APK
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
)

// Group is the Maven group of every artifact.
const Group = "io.github.mobilemcp"

// EngineBudget is the most an engine may weigh, per platform.
const EngineBudget = 4_500_000

// Artifacts maps each published artifact to its packaging in Gradle's publication.
var Artifacts = map[string]string{
	"sdk":                "aar",
	"client":             "aar",
	"sdk-testing":        "aar",
	"sdk-ktx":            "aar",
	"client-ktx":         "aar",
	"sdk-testing-engine": "jar",
}

// CLIPlatforms are the CLI archives a release attaches.
var CLIPlatforms = []string{"linux-amd64", "linux-arm64", "macos-amd64", "macos-arm64", "windows-amd64", "windows-arm64"}

type checker struct {
	failed bool
}

func (c *checker) report(name string, detail string, err error) {
	if err != nil {
		c.failed = true
		fmt.Printf("FAIL  %-36s %v\n", name, err)
		return
	}
	fmt.Printf("PASS  %-36s %s\n", name, detail)
}

func main() {
	version := flag.String("version", "", "the version the tag gives, such as 1.2.0")
	staging := flag.String("staging", "", "the staging Maven repository")
	release := flag.String("release", "", "the directory of the CLI archives and SHA256SUMS")
	android := flag.String("android", "", "the directory of the AGP-built AARs and APKs")
	publicKey := flag.String("public-key", "", "the armored public key the staging repository is signed with")
	buildID := flag.String("build-id", "", "the build id the CLI must print (default: not checked)")
	engines := flag.String("engines", "linux-x86_64,linux-aarch64,windows-x86_64", "the platforms the engine jar must hold")
	jarPackaging := flag.Bool("jars", false, "the Android libraries are staged as jars (the host harness's stand-ins for the AARs)")
	packages := flag.String("packages", "", "the directory of the npm, PyPI and Claude Desktop packages and server.json (needs -release)")
	flag.Parse()
	if *version == "" || flag.NArg() != 0 || (*packages != "" && *release == "") {
		fmt.Fprintln(os.Stderr, "usage: releasecheck -version VERSION [-staging DIR] [-release DIR [-packages DIR]] [-android DIR] [-public-key FILE] [-build-id ID] [-engines P,...] [-jars]")
		os.Exit(2)
	}
	c := &checker{}
	if *staging != "" {
		c.staging(*staging, *version, *publicKey, strings.Split(*engines, ","), *jarPackaging)
	}
	if *release != "" {
		c.release(*release, *version, *buildID)
	}
	if *packages != "" {
		c.packages(*packages, *release, *version)
	}
	if *android != "" {
		c.android(*android)
	}
	if c.failed {
		os.Exit(1)
	}
}

// staging checks the Maven repository dir.
func (c *checker) staging(dir, version, publicKey string, engines []string, jars bool) {
	names := make([]string, 0, len(Artifacts))
	for a := range Artifacts {
		names = append(names, a)
	}
	slices.Sort(names)
	keyring := ""
	if publicKey != "" {
		var err error
		keyring, err = importKey(publicKey)
		c.report("signing key", publicKey, err)
		if keyring != "" {
			defer os.RemoveAll(keyring)
		}
	}
	for _, a := range names {
		base := filepath.Join(dir, strings.ReplaceAll(Group, ".", "/"), a, version, a+"-"+version)
		packaging := Artifacts[a]
		if jars {
			packaging = "jar"
		}
		files := []string{base + "." + packaging, base + ".pom", base + "-sources.jar", base + "-javadoc.jar"}
		c.report(a+": files", fmt.Sprintf("%s, POM, sources and javadoc jars, with MD5 and SHA-1", packaging),
			checkFiles(files, keyring != ""))
		c.report(a+": POM", "every element Maven Central requires", checkPOM(base+".pom", a, version))
		if keyring != "" {
			c.report(a+": signatures", "each file's .asc verifies", checkSignatures(files, keyring))
		}
		var licensed []string
		for _, f := range files {
			if strings.HasSuffix(f, ".pom") {
				continue
			}
			licensed = append(licensed, f)
		}
		c.report(a+": LICENSE", "inside the "+packaging+", sources and javadoc jars", checkLicenses(licensed))
		if a == "sdk-testing-engine" {
			detail, err := checkEngineJar(base+".jar", engines)
			c.report(a+": engines", detail, err)
		}
	}
}

func checkFiles(files []string, signed bool) error {
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("missing %s: Maven Central refuses a release without it", filepath.Base(f))
		}
		md := md5.Sum(data)
		sh := sha1.Sum(data)
		for ext, want := range map[string]string{".md5": hex.EncodeToString(md[:]), ".sha1": hex.EncodeToString(sh[:])} {
			got, err := os.ReadFile(f + ext)
			if err != nil {
				return fmt.Errorf("missing %s", filepath.Base(f+ext))
			}
			if strings.TrimSpace(string(got)) != want {
				return fmt.Errorf("%s says %s, but the file's is %s", filepath.Base(f+ext), strings.TrimSpace(string(got)), want)
			}
		}
		if signed {
			if _, err := os.Stat(f + ".asc"); err != nil {
				return fmt.Errorf("missing %s: Maven Central refuses unsigned files", filepath.Base(f+".asc"))
			}
		}
	}
	return nil
}

// pom is what Maven Central requires of a POM (central.sonatype.org, "Requirements").
type pom struct {
	GroupID     string `xml:"groupId"`
	ArtifactID  string `xml:"artifactId"`
	Version     string `xml:"version"`
	Name        string `xml:"name"`
	Description string `xml:"description"`
	URL         string `xml:"url"`
	Licenses    []struct {
		Name string `xml:"name"`
		URL  string `xml:"url"`
	} `xml:"licenses>license"`
	Developers []struct {
		ID   string `xml:"id"`
		Name string `xml:"name"`
	} `xml:"developers>developer"`
	SCM struct {
		URL        string `xml:"url"`
		Connection string `xml:"connection"`
	} `xml:"scm"`
}

func checkPOM(file, artifact, version string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("missing %s", filepath.Base(file))
	}
	var p pom
	if err := xml.Unmarshal(data, &p); err != nil {
		return fmt.Errorf("%s is not XML: %v", filepath.Base(file), err)
	}
	var missing []string
	for _, f := range []struct{ name, value, want string }{
		{"groupId", p.GroupID, Group}, {"artifactId", p.ArtifactID, artifact}, {"version", p.Version, version},
		{"name", p.Name, ""}, {"description", p.Description, ""}, {"url", p.URL, ""},
		{"scm/url", p.SCM.URL, ""}, {"scm/connection", p.SCM.Connection, ""},
	} {
		switch {
		case f.value == "":
			missing = append(missing, f.name)
		case f.want != "" && f.value != f.want:
			return fmt.Errorf("%s has %s %q, not %q", filepath.Base(file), f.name, f.value, f.want)
		}
	}
	if len(p.Licenses) == 0 || p.Licenses[0].Name == "" || p.Licenses[0].URL == "" {
		missing = append(missing, "licenses/license (name and url)")
	} else if !strings.Contains(p.Licenses[0].Name, "Apache") {
		return fmt.Errorf("%s declares the license %q, not the Apache License 2.0 of LICENSE", filepath.Base(file), p.Licenses[0].Name)
	}
	if len(p.Developers) == 0 || p.Developers[0].Name == "" {
		missing = append(missing, "developers/developer")
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s has no %s", filepath.Base(file), strings.Join(missing, ", "))
	}
	return nil
}

// importKey makes a keyring of its own holding the public key, and returns its directory.
func importKey(publicKey string) (string, error) {
	home, err := os.MkdirTemp("", "releasecheck-gpg-")
	if err != nil {
		return "", err
	}
	cmd := exec.Command("gpg", "--batch", "--homedir", home, "--import", publicKey)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(home)
		return "", fmt.Errorf("gpg --import %s: %v: %s", publicKey, err, out)
	}
	return home, nil
}

func checkSignatures(files []string, keyring string) error {
	for _, f := range files {
		cmd := exec.Command("gpg", "--batch", "--homedir", keyring, "--verify", f+".asc", f)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s.asc does not verify: %s", filepath.Base(f), firstLine(out))
		}
	}
	return nil
}

func firstLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// zipHasLicense reports whether a zip (a jar, an AAR's classes.jar) holds LICENSE or META-INF/LICENSE.
func zipHasLicense(r *zip.Reader) bool {
	for _, f := range r.File {
		if f.Name == "LICENSE" || f.Name == "META-INF/LICENSE" || f.Name == "META-INF/LICENSE.txt" {
			return true
		}
	}
	return false
}

func checkLicenses(files []string) error {
	for _, f := range files {
		r, err := zip.OpenReader(f)
		if err != nil {
			return fmt.Errorf("%s: %v", filepath.Base(f), err)
		}
		ok := zipHasLicense(&r.Reader)
		if !ok && strings.HasSuffix(f, ".aar") {
			ok = classesJarHasLicense(&r.Reader)
		}
		r.Close()
		if !ok {
			return fmt.Errorf("%s holds no LICENSE", filepath.Base(f))
		}
	}
	return nil
}

func classesJarHasLicense(aar *zip.Reader) bool {
	for _, f := range aar.File {
		if f.Name != "classes.jar" {
			continue
		}
		data, err := readZipFile(f)
		if err != nil {
			return false
		}
		jar, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		return err == nil && zipHasLicense(jar)
	}
	return false
}

func readZipFile(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// checkEngineJar checks that the engine jar lists want among its platforms, and that each library it
// lists is there, matches its recorded SHA-256 and is within the budget.
func checkEngineJar(file string, want []string) (string, error) {
	r, err := zip.OpenReader(file)
	if err != nil {
		return "", err
	}
	defer r.Close()
	files := map[string]*zip.File{}
	for _, f := range r.File {
		files[f.Name] = f
	}
	const dir = "io/github/mobilemcp/sdk/testing/engine/"
	index, ok := files[dir+"platforms"]
	if !ok {
		return "", errors.New("the engine jar has no list of its platforms (" + dir + "platforms)")
	}
	data, err := readZipFile(index)
	if err != nil {
		return "", err
	}
	held := strings.Fields(string(data))
	for _, p := range want {
		if !slices.Contains(held, p) {
			return "", fmt.Errorf("the engine jar holds %s, not %s", strings.Join(held, ", "), p)
		}
	}
	var sizes []string
	for _, p := range held {
		lib := "libmobilemcp.so"
		switch {
		case strings.HasPrefix(p, "windows-"):
			lib = "mobilemcp.dll"
		case strings.HasPrefix(p, "macos-"):
			lib = "libmobilemcp.dylib"
		}
		f, ok := files[dir+p+"/"+lib]
		if !ok {
			return "", fmt.Errorf("the engine jar lists %s but has no %s", p, dir+p+"/"+lib)
		}
		if f.UncompressedSize64 > EngineBudget {
			return "", fmt.Errorf("the %s engine is %d bytes, over the budget of %d", p, f.UncompressedSize64, EngineBudget)
		}
		libData, err := readZipFile(f)
		if err != nil {
			return "", err
		}
		sumFile, ok := files[dir+p+"/"+lib+".sha256"]
		if !ok {
			return "", fmt.Errorf("the %s engine has no SHA-256 beside it", p)
		}
		want, _ := readZipFile(sumFile)
		got := sha256.Sum256(libData)
		if hex.EncodeToString(got[:]) != strings.TrimSpace(string(want)) {
			return "", fmt.Errorf("the %s engine does not match its recorded SHA-256", p)
		}
		sizes = append(sizes, fmt.Sprintf("%s %d bytes", p, f.UncompressedSize64))
	}
	return strings.Join(sizes, ", "), nil
}

// release checks the CLI archives.
func (c *checker) release(dir, version, buildID string) {
	c.report("CLI: SHA256SUMS", "every archive's checksum holds", checkSums(dir))
	for _, p := range CLIPlatforms {
		name := "mobilemcp-" + version + "-" + p
		exe := "mobilemcp"
		archive := filepath.Join(dir, name+".tar.gz")
		if strings.HasPrefix(p, "windows-") {
			exe = "mobilemcp.exe"
			archive = filepath.Join(dir, name+".zip")
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
		var run []string
		switch p {
		case "linux-amd64":
			run = []string{}
		case "linux-arm64":
			run = []string{"qemu-aarch64"}
		default:
			continue
		}
		if err != nil {
			continue
		}
		detail, err := runVersion(files[exe], run, version, buildID)
		c.report("CLI "+p+": mobilemcp version", detail, err)
	}
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

// android checks the AGP-built AARs and APKs in dir.
func (c *checker) android(dir string) {
	aars, _ := filepath.Glob(filepath.Join(dir, "*.aar"))
	apks, _ := filepath.Glob(filepath.Join(dir, "*.apk"))
	if len(aars)+len(apks) == 0 {
		c.report("android", "", fmt.Errorf("no AAR or APK in %s", dir))
		return
	}
	for _, aar := range aars {
		name := filepath.Base(aar)
		r, err := zip.OpenReader(aar)
		if err != nil {
			c.report(name, "", err)
			continue
		}
		files := map[string]*zip.File{}
		for _, f := range r.File {
			files[f.Name] = f
		}
		c.report(name+": ABIs and 16 KB pages", "jni/<abi>/libmobilemcp.so for "+strings.Join(nativelib.ABIs, ", ")+", LOAD segments at 16 KB",
			checkAARLibs(files))
		err = nil
		if f, ok := files["proguard.txt"]; !ok {
			err = errors.New("no proguard.txt: an app that shrinks its code would strip the classes the engine calls by name")
		} else if rules, _ := readZipFile(f); !bytes.Contains(rules, []byte("-keep class io.github.mobilemcp.engine.go.**")) ||
			!bytes.Contains(rules, []byte("-keep class io.github.mobilemcp.intentbridge.**")) {
			err = errors.New("proguard.txt does not keep io.github.mobilemcp.engine.go.** and io.github.mobilemcp.intentbridge.**")
		}
		c.report(name+": consumer ProGuard rules", "keep the engine's classes", err)
		r.Close()
	}
	for _, apk := range apks {
		name := filepath.Base(apk)
		data, err := os.ReadFile(apk)
		if err == nil {
			for _, abi := range nativelib.ABIs {
				if err = nativelib.CheckAPK(data, abi, "libmobilemcp.so"); err != nil {
					break
				}
			}
		}
		c.report(name+": ABIs and 16 KB pages", "lib/<abi>/libmobilemcp.so for all four ABIs, aligned to 16 KB", err)
		zipalign := os.Getenv("ZIPALIGN")
		if zipalign == "" {
			zipalign = "zipalign"
		}
		out, err := exec.Command(zipalign, "-c", "-P", "16", "4", apk).CombinedOutput()
		if err != nil {
			err = fmt.Errorf("%s -c -P 16 4 %s: %v: %s", zipalign, name, err, firstLine(out))
		}
		c.report(name+": zipalign -c -P 16", "uncompressed libraries at 16 KB in the APK", err)
	}
}

func checkAARLibs(files map[string]*zip.File) error {
	for _, abi := range nativelib.ABIs {
		name := "jni/" + abi + "/libmobilemcp.so"
		f, ok := files[name]
		if !ok {
			return fmt.Errorf("no %s", name)
		}
		data, err := readZipFile(f)
		if err != nil {
			return err
		}
		if err := nativelib.CheckELF(bytes.NewReader(data), name); err != nil {
			return err
		}
	}
	return nil
}
