package repotest

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

const (
	android     = "../../android"
	catalogFile = android + "/gradle/libs.versions.toml"
)

// name is file as the repository names it.
func name(file string) string { return strings.TrimPrefix(file, "../../") }

// read returns the content of file, or fails t.
func read(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// catalog is what of libs.versions.toml the builds share.
type catalog struct {
	Versions  map[string]string
	Libraries map[string]struct {
		Module  string
		Version struct{ Ref string } // version.ref
	}
	Plugins map[string]struct {
		ID      string
		Version struct{ Ref string }
	}
}

// readCatalog returns the catalog's version of each library, by
// group:artifact, and of each plugin, by id.
func readCatalog(t *testing.T) (libs, plugins map[string]string) {
	t.Helper()
	var c catalog
	if _, err := toml.DecodeFile(catalogFile, &c); err != nil {
		t.Fatal(err)
	}
	version := func(what, ref string) string {
		v, ok := c.Versions[ref]
		if !ok {
			t.Fatalf("%s: %s names version.ref %q, which [versions] does not hold", name(catalogFile), what, ref)
		}
		return v
	}
	libs, plugins = map[string]string{}, map[string]string{}
	for name, l := range c.Libraries {
		libs[l.Module] = version(name, l.Version.Ref)
	}
	for name, p := range c.Plugins {
		plugins[p.ID] = version(name, p.Version.Ref)
	}
	return libs, plugins
}

// Only Gradle builds these: the host harness runs no device test, and
// builds no APK or AAR.
var gradleOnly = []string{"androidx.test:runner"}

// A Maven POM, as far as its versions go.
type pom struct {
	Properties struct {
		Entries []struct {
			XMLName xml.Name
			Value   string `xml:",chardata"`
		} `xml:",any"`
	} `xml:"properties"`
	Dependencies []dependency `xml:"dependencies>dependency"`
	Managed      []dependency `xml:"dependencyManagement>dependencies>dependency"`
	Plugins      []dependency `xml:"build>plugins>plugin"`
	Managed2     []dependency `xml:"build>pluginManagement>plugins>plugin"`
}

type dependency struct {
	GroupID    string `xml:"groupId"`
	ArtifactID string `xml:"artifactId"`
	Version    string `xml:"version"`
}

var property = regexp.MustCompile(`\$\{([^}]+)\}`)

// mavenVersions returns the version that android/pom.xml and each module's
// POM give each group:artifact, with their properties resolved, and where.
func mavenVersions(t *testing.T) map[string][]string {
	t.Helper()
	poms, err := filepath.Glob(android + "/*/pom.xml")
	if err != nil {
		t.Fatal(err)
	}
	poms = append([]string{android + "/pom.xml"}, poms...)
	props := map[string]string{}
	found := map[string][]string{}
	for _, file := range poms {
		var p pom
		if err := xml.Unmarshal(read(t, file), &p); err != nil {
			t.Fatalf("%s: %v", name(file), err)
		}
		own := map[string]string{}
		for k, v := range props { // the parent's, which android/pom.xml, read first, sets
			own[k] = v
		}
		for _, e := range p.Properties.Entries {
			own[e.XMLName.Local] = strings.TrimSpace(e.Value)
		}
		if file == android+"/pom.xml" {
			props = own
		}
		for _, d := range slices.Concat(p.Dependencies, p.Managed, p.Plugins, p.Managed2) {
			v := strings.TrimSpace(d.Version)
			for range 5 { // properties that name properties
				v = property.ReplaceAllStringFunc(v, func(ref string) string {
					if r, ok := own[ref[2:len(ref)-1]]; ok {
						return r
					}
					return ref
				})
			}
			if v == "" || strings.Contains(v, "project.version") {
				continue
			}
			key := d.GroupID + ":" + d.ArtifactID
			found[key] = append(found[key], v+" ("+name(file)+")")
		}
	}
	return found
}

// mavenArtifact is the catalog's library that a Maven artifact is: Maven,
// which reads no Gradle module metadata, names the JVM variant of a Kotlin
// multiplatform library itself (kotlinx-serialization-json-jvm); the Kotlin
// compiler's plugin is Kotlin's version.
func mavenArtifact(key string) string {
	if key == "org.jetbrains.kotlin:kotlin-maven-plugin" {
		return "org.jetbrains.kotlin:kotlin-stdlib"
	}
	return strings.TrimSuffix(key, "-jvm")
}

// Gradle and Maven build with one version of each library: the catalog's.
// (The POMs of make release-check's stand-ins take theirs from the catalog
// too, through the release gate, internal/cmd/releasecheck.)
func TestOneVersionOfEachLibrary(t *testing.T) {
	libs, plugins := readCatalog(t)
	seen := map[string]bool{}
	for key, versions := range mavenVersions(t) {
		want, ok := libs[mavenArtifact(key)]
		if !ok {
			continue // the harness's own: android-all, Maven's plugins
		}
		seen[mavenArtifact(key)] = true
		for _, v := range versions {
			if got := strings.Fields(v)[0]; got != want {
				t.Errorf("Maven builds %s %s, and %s says %s; change both together", key, v, name(catalogFile), want)
			}
		}
	}
	for module := range libs {
		if !seen[module] && !slices.Contains(gradleOnly, module) {
			t.Errorf("%s lists %s, which no Maven POM of android/ names: the host tests build without it", name(catalogFile), module)
		}
	}

	// The Gradle builds name no version of their own, but the tool app that
	// the release's smoke test builds, whose build file is a user's.
	files, err := filepath.Glob(android + "/*.gradle.kts")
	if err != nil {
		t.Fatal(err)
	}
	modules, _ := filepath.Glob(android + "/*/*.gradle.kts")
	literal := regexp.MustCompile(`"[\w.-]+:[\w.-]+:[0-9][^"]*"|\bversion\s+"[^"]+"`)
	for _, file := range append(files, modules...) {
		smoke := filepath.Base(filepath.Dir(file)) == "consumer-smoke"
		for _, v := range literal.FindAllString(string(read(t, file)), -1) {
			if !smoke {
				t.Errorf("%s names %s: take it from %s (libs.*)", name(file), v, name(catalogFile))
			}
		}
	}
	smoke := read(t, android+"/consumer-smoke/build.gradle.kts")
	// The consumer smoke names its plugins' versions, as a user's build does: the catalog's.
	for _, id := range []string{"com.android.application", "org.jetbrains.kotlin.android", "com.google.devtools.ksp"} {
		applied := regexp.MustCompile(`id\("` + regexp.QuoteMeta(id) + `"\) version "([^"]+)"`).FindSubmatch(smoke)
		if applied == nil {
			t.Errorf("consumer-smoke/build.gradle.kts applies no %s version", id)
		} else if want := plugins[id]; string(applied[1]) != want {
			t.Errorf("consumer-smoke/build.gradle.kts applies %s %s, and %s says %s", id, applied[1], name(catalogFile), want)
		}
	}
}
