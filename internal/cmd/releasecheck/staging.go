package main

import (
	"archive/zip"
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
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

// staging checks the Maven repository o.staging against the publications of the Gradle build.
func (c *checker) staging(o options, pubs map[string]publication) {
	keyring := ""
	if o.publicKey != "" {
		var err error
		keyring, err = importKey(o.publicKey)
		c.report("signing key", o.publicKey, err)
		if keyring != "" {
			defer os.RemoveAll(keyring)
		}
	}
	group := filepath.Join(o.staging, strings.ReplaceAll(Group, ".", "/"))
	entries, _ := os.ReadDir(group)
	var extra []string
	for _, e := range entries {
		if _, ok := pubs[e.Name()]; e.IsDir() && !ok {
			extra = append(extra, e.Name())
		}
	}
	var err error
	if len(extra) > 0 {
		err = fmt.Errorf("%s holds %s, which no module of %s publishes: it would reach Central unchecked", group, strings.Join(extra, ", "), o.gradle)
	}
	c.report("staging: artifacts", "exactly the Gradle build's publications", err)

	for _, a := range sortedArtifacts(pubs) {
		pub := pubs[a]
		base := filepath.Join(group, a, o.version, a+"-"+o.version)
		packaging := pub.Packaging
		if o.jars {
			packaging = "jar"
		}
		files := []string{base + "." + packaging, base + ".pom", base + "-sources.jar", base + "-javadoc.jar"}
		c.report(a+": files", fmt.Sprintf("%s, POM, sources and javadoc jars, with MD5 and SHA-1", packaging),
			checkFiles(files, keyring != ""))
		c.report(a+": POM", "every element Maven Central requires", checkPOM(base+".pom", a, o.version))
		c.report(a+": POM dependencies", pomDependenciesDetail(pub), checkPOMDependencies(base+".pom", pub))
		if keyring != "" {
			c.report(a+": signatures", "each file's .asc verifies", checkSignatures(files, keyring))
		}
		jars := []string{base + "-sources.jar", base + "-javadoc.jar"}
		if packaging == "jar" {
			jars = append([]string{base + ".jar"}, jars...)
		}
		c.report(a+": LICENSE", "META-INF/LICENSE inside the "+strings.Join(jarKinds(jars, base), ", ")+" jars", checkLicenses(jars))
		c.report(a+": sources jar", "no native binary inside", checkNoNatives(base+"-sources.jar"))
		if a == "sdk-testing-engine" {
			c.engineJar(base+".jar", o.engines, o.goVersion)
		}
	}
}

// jarKinds names the jars by what follows base: main, sources, javadoc.
func jarKinds(jars []string, base string) []string {
	var kinds []string
	for _, j := range jars {
		kind := strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(j, base), ".jar"), "-")
		if kind == "" {
			kind = "main"
		}
		kinds = append(kinds, kind)
	}
	return kinds
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

// pom is what Maven Central requires of a POM (central.sonatype.org, "Requirements"), and its
// dependencies.
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
	Dependencies []struct {
		GroupID    string `xml:"groupId"`
		ArtifactID string `xml:"artifactId"`
		Version    string `xml:"version"`
		Scope      string `xml:"scope"`
		Exclusions []struct {
			GroupID    string `xml:"groupId"`
			ArtifactID string `xml:"artifactId"`
		} `xml:"exclusions>exclusion"`
	} `xml:"dependencies>dependency"`
}

func readPOM(file string) (pom, error) {
	var p pom
	data, err := os.ReadFile(file)
	if err != nil {
		return p, fmt.Errorf("missing %s", filepath.Base(file))
	}
	if err := xml.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("%s is not XML: %v", filepath.Base(file), err)
	}
	return p, nil
}

func checkPOM(file, artifact, version string) error {
	p, err := readPOM(file)
	if err != nil {
		return err
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

func pomDependenciesDetail(pub publication) string {
	if len(pub.Dependencies) == 0 {
		return "none, as android/" + pub.Module + "/build.gradle.kts declares"
	}
	var names []string
	for _, d := range pub.Dependencies {
		names = append(names, d.Artifact)
	}
	return "as android/" + pub.Module + "/build.gradle.kts declares: " + strings.Join(names, ", ")
}

// checkPOMDependencies checks that the POM lists the dependencies the module's build file declares,
// each in its scope (compile for api, runtime for implementation; a POM's default is compile), and
// no other.
func checkPOMDependencies(file string, pub publication) error {
	p, err := readPOM(file)
	if err != nil {
		return err
	}
	var got []dependency
	for _, d := range p.Dependencies {
		scope := strings.TrimSpace(d.Scope)
		if scope == "" {
			scope = "compile"
		}
		var excludes []string
		for _, e := range d.Exclusions {
			excludes = append(excludes, strings.TrimSpace(e.GroupID)+":"+strings.TrimSpace(e.ArtifactID))
		}
		dep := dependency{strings.TrimSpace(d.GroupID), strings.TrimSpace(d.ArtifactID), strings.TrimSpace(d.Version), scope, ""}
		if len(excludes) == 1 && strings.HasSuffix(excludes[0], ":*") {
			dep.Excludes = strings.TrimSuffix(excludes[0], ":*")
		} else if len(excludes) > 0 {
			dep.Excludes = strings.Join(excludes, ",") // no build file declares this: it shows as extra
		}
		got = append(got, dep)
	}
	sortDependencies(got)
	var extra, missing []string
	for _, d := range got {
		if !slices.Contains(pub.Dependencies, d) {
			extra = append(extra, d.String())
		}
	}
	for _, d := range pub.Dependencies {
		if !slices.Contains(got, d) {
			missing = append(missing, d.String())
		}
	}
	var problems []string
	if len(extra) > 0 {
		problems = append(problems, "lists "+strings.Join(extra, ", ")+", which the build file does not declare")
	}
	if len(missing) > 0 {
		problems = append(problems, "lacks "+strings.Join(missing, ", ")+", which the build file declares")
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s %s (android/%s/build.gradle.kts)", filepath.Base(file), strings.Join(problems, "; and "), pub.Module)
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
			return fmt.Errorf("%s.asc does not verify: %s", filepath.Base(f), lastLine(out))
		}
	}
	return nil
}

// lastLine is the last line of a command's output: where gpg and zipalign say what failed.
func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}

// jarHasLicense reports whether a jar holds the license as the Jar tasks put it, META-INF/LICENSE
// (or LICENSE, LICENSE.txt beside it).
func jarHasLicense(r *zip.Reader) bool {
	for _, f := range r.File {
		if f.Name == "META-INF/LICENSE" || f.Name == "META-INF/LICENSE.txt" || f.Name == "LICENSE" {
			return true
		}
	}
	return false
}

func checkLicenses(jars []string) error {
	for _, f := range jars {
		r, err := zip.OpenReader(f)
		if err != nil {
			return fmt.Errorf("%s: %v", filepath.Base(f), err)
		}
		ok := jarHasLicense(&r.Reader)
		r.Close()
		if !ok {
			return fmt.Errorf("%s holds no META-INF/LICENSE", filepath.Base(f))
		}
	}
	return nil
}

// nativeSuffixes name the native libraries of Android, Linux, macOS and Windows.
var nativeSuffixes = []string{".so", ".dylib", ".dll", ".jnilib"}

func isNative(name string) bool {
	for _, s := range nativeSuffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// checkNoNatives checks that the jar holds no native library: a sources jar holds sources.
func checkNoNatives(jar string) error {
	r, err := zip.OpenReader(jar)
	if err != nil {
		return fmt.Errorf("%s: %v", filepath.Base(jar), err)
	}
	defer r.Close()
	for _, f := range r.File {
		if isNative(f.Name) {
			return fmt.Errorf("%s holds %s (%d bytes): a sources jar carries no binaries", filepath.Base(jar), f.Name, f.UncompressedSize64)
		}
	}
	return nil
}

func readZipFile(f *zip.File) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// engineDir is where the engine jar keeps its engines, one directory per platform.
const engineDir = "io/github/mobilemcp/sdk/testing/engine/"

// engineLibrary names the engine of a platform.
func engineLibrary(platform string) string {
	switch {
	case strings.HasPrefix(platform, "windows-"):
		return "mobilemcp.dll"
	case strings.HasPrefix(platform, "macos-"):
		return "libmobilemcp.dylib"
	}
	return "libmobilemcp.so"
}

// engineJar checks the engine jar: its platforms, their libraries, the macOS ones' minimum macOS,
// and the Go that built them.
func (c *checker) engineJar(file string, want []string, goVersion string) {
	engines, detail, err := readEngineJar(file, want)
	c.report("sdk-testing-engine: engines", detail, err)
	if err != nil {
		return
	}
	var macos []string
	var errs []error
	for _, p := range slices.Sorted(maps.Keys(engines)) {
		if !strings.HasPrefix(p, "macos-") {
			continue
		}
		min, err := nativelib.MacOSMinimum(bytes.NewReader(engines[p]), p+"/"+engineLibrary(p))
		if err == nil && !nativelib.VersionAtMost(min, MinMacOS) {
			err = fmt.Errorf("the %s engine needs macOS %s, newer than %s: build it with MACOSX_DEPLOYMENT_TARGET=%s (scripts/host-engine.sh)", p, min, MinMacOS, MinMacOS)
		}
		errs = append(errs, err)
		macos = append(macos, p+" "+min)
	}
	if len(macos) > 0 || slices.ContainsFunc(want, func(p string) bool { return strings.HasPrefix(p, "macos-") }) {
		c.report("sdk-testing-engine: macOS minimum", "macOS "+MinMacOS+" or older: "+strings.Join(macos, ", "), errors.Join(errs...))
	}
	if goVersion != "" {
		c.report("sdk-testing-engine: Go toolchain", "every engine built with "+goVersion, checkGoVersions(engines, goVersion))
	}
}

// readEngineJar checks that the engine jar lists want among its platforms, and that each library it
// lists is there, matches its recorded SHA-256 and is within the budget; it returns the libraries by
// platform.
func readEngineJar(file string, want []string) (map[string][]byte, string, error) {
	r, err := zip.OpenReader(file)
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	files := map[string]*zip.File{}
	for _, f := range r.File {
		files[f.Name] = f
	}
	index, ok := files[engineDir+"platforms"]
	if !ok {
		return nil, "", errors.New("the engine jar has no list of its platforms (" + engineDir + "platforms)")
	}
	data, err := readZipFile(index)
	if err != nil {
		return nil, "", err
	}
	held := strings.Fields(string(data))
	for _, p := range want {
		if !slices.Contains(held, p) {
			return nil, "", fmt.Errorf("the engine jar holds %s, not %s", strings.Join(held, ", "), p)
		}
	}
	var sizes []string
	engines := map[string][]byte{}
	for _, p := range held {
		lib := engineLibrary(p)
		f, ok := files[engineDir+p+"/"+lib]
		if !ok {
			return nil, "", fmt.Errorf("the engine jar lists %s but has no %s", p, engineDir+p+"/"+lib)
		}
		if f.UncompressedSize64 > EngineBudget {
			return nil, "", fmt.Errorf("the %s engine is %d bytes, over the budget of %d", p, f.UncompressedSize64, EngineBudget)
		}
		libData, err := readZipFile(f)
		if err != nil {
			return nil, "", err
		}
		sumFile, ok := files[engineDir+p+"/"+lib+".sha256"]
		if !ok {
			return nil, "", fmt.Errorf("the %s engine has no SHA-256 beside it", p)
		}
		want, _ := readZipFile(sumFile)
		got := sha256.Sum256(libData)
		if hex.EncodeToString(got[:]) != strings.TrimSpace(string(want)) {
			return nil, "", fmt.Errorf("the %s engine does not match its recorded SHA-256", p)
		}
		engines[p] = libData
		sizes = append(sizes, fmt.Sprintf("%s %d bytes", p, f.UncompressedSize64))
	}
	return engines, strings.Join(sizes, ", "), nil
}
