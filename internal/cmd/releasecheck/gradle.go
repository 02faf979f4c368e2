package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// A publication is what one module of the Gradle build (android/) publishes: the root build file
// gives every module whose gradle.properties names a mobilemcp.artifactId one publication, whose
// POM lists what its build file declares.
type publication struct {
	Module       string // the module's directory under android/
	Artifact     string // its artifactId
	Packaging    string // "aar" for an Android library, "jar" for a plain Java library
	Dependencies []dependency
}

// A dependency is one entry of a POM's dependencies. Excludes is the group whose artifacts it
// leaves out of its own dependencies (a POM's exclusion of that group's every artifact, *), or "".
type dependency struct {
	Group, Artifact, Version, Scope string
	Excludes                        string
}

func (d dependency) String() string {
	s := d.Group + ":" + d.Artifact + ":" + d.Version + " (" + d.Scope + ")"
	if d.Excludes != "" {
		s += " without " + d.Excludes + ":*"
	}
	return s
}

// The forms a dependency takes in the modules' build files: a configuration, then a project or a
// version catalog entry. api is the POM's compile scope and implementation its runtime scope, as
// Gradle's maven-publish maps them; compileOnly and the test configurations reach no POM, nor does a
// local file (files(...)), which the AAR carries itself. A dependency may leave out one group of
// its own dependencies, on the same line: api(libs.x) { exclude(group = "g") }, which Gradle writes
// into the POM as an exclusion of g:*.
var (
	dependencyLine  = regexp.MustCompile(`^\s*(api|implementation|runtimeOnly|compileOnly)\((.*?)\)(?:\s*\{\s*exclude\(group\s*=\s*"([\w.-]+)"\)\s*\})?\s*$`)
	projectNotation = regexp.MustCompile(`^project\("(:[\w-]+)"\)$`)
	catalogNotation = regexp.MustCompile(`^libs\.([\w.]+)$`)
	filesNotation   = regexp.MustCompile(`^files\(.*\)$`)
)

// versionCatalog is what of gradle/libs.versions.toml the POMs need.
type versionCatalog struct {
	Versions  map[string]string
	Libraries map[string]struct {
		Module  string
		Version struct{ Ref string }
	}
}

// catalogKey is the accessor Gradle generates for a catalog name: libs.kotlinx.coroutines.core for
// kotlinx-coroutines-core (Gradle maps -, _ and . alike).
func catalogKey(name string) string {
	return strings.NewReplacer("-", ".", "_", ".").Replace(name)
}

// readGradle returns every publication of the Gradle build in dir (android/) at version, by
// artifactId.
func readGradle(dir, version string) (map[string]publication, error) {
	var cat versionCatalog
	catalogFile := filepath.Join(dir, "gradle", "libs.versions.toml")
	if _, err := toml.DecodeFile(catalogFile, &cat); err != nil {
		return nil, fmt.Errorf("the version catalog %s: %v", catalogFile, err)
	}
	libs := map[string]string{} // accessor -> group:artifact:version
	for name, lib := range cat.Libraries {
		v, ok := cat.Versions[lib.Version.Ref]
		if !ok {
			return nil, fmt.Errorf("%s: library %s names version.ref %q, which [versions] does not hold", catalogFile, name, lib.Version.Ref)
		}
		libs[catalogKey(name)] = lib.Module + ":" + v
	}

	props, err := filepath.Glob(filepath.Join(dir, "*", "gradle.properties"))
	if err != nil {
		return nil, err
	}
	artifacts := map[string]string{} // module -> artifactId
	for _, p := range props {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if m := regexp.MustCompile(`(?m)^mobilemcp\.artifactId=(\S+)\s*$`).FindSubmatch(data); m != nil {
			artifacts[filepath.Base(filepath.Dir(p))] = string(m[1])
		}
	}
	if len(artifacts) == 0 {
		return nil, fmt.Errorf("no module of %s names a mobilemcp.artifactId in its gradle.properties", dir)
	}

	pubs := map[string]publication{}
	for module, artifact := range artifacts {
		file := filepath.Join(dir, module, "build.gradle.kts")
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("%s publishes %s, but: %v", module, artifact, err)
		}
		text := string(data)
		pub := publication{Module: module, Artifact: artifact}
		switch {
		case strings.Contains(text, `id("com.android.library")`):
			pub.Packaging = "aar"
		case strings.Contains(text, "`java-library`") || strings.Contains(text, `id("java-library")`),
			kotlinJVM(text):
			pub.Packaging = "jar"
		default:
			return nil, fmt.Errorf("%s applies neither com.android.library, java-library nor Kotlin's JVM plugin: what does it publish?", file)
		}
		// The Kotlin plugin adds its standard library to api, at its own version: the catalog's.
		if strings.Contains(text, `id("org.jetbrains.kotlin.android")`) || kotlinJVM(text) {
			stdlib, ok := libs[catalogKey("kotlin-stdlib")]
			if !ok {
				return nil, fmt.Errorf("%s applies Kotlin, and the catalog lists no kotlin-stdlib", file)
			}
			pub.Dependencies = append(pub.Dependencies, newDependency(stdlib, "compile"))
		}
		for i, line := range strings.Split(text, "\n") {
			m := dependencyLine.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			config, notation, excludes := m[1], strings.TrimSpace(m[2]), m[3]
			if config == "compileOnly" || filesNotation.MatchString(notation) {
				continue
			}
			scope := "runtime"
			if config == "api" {
				scope = "compile"
			}
			if p := projectNotation.FindStringSubmatch(notation); p != nil {
				other, ok := artifacts[strings.TrimPrefix(p[1], ":")]
				if !ok {
					return nil, fmt.Errorf("%s:%d: %s depends on %s, which publishes nothing", file, i+1, module, p[1])
				}
				pub.Dependencies = append(pub.Dependencies, dependency{Group, other, version, scope, excludes})
				continue
			}
			if c := catalogNotation.FindStringSubmatch(notation); c != nil {
				coords, ok := libs[c[1]]
				if !ok {
					return nil, fmt.Errorf("%s:%d: libs.%s is not in the version catalog", file, i+1, c[1])
				}
				d := newDependency(coords, scope)
				d.Excludes = excludes
				pub.Dependencies = append(pub.Dependencies, d)
				continue
			}
			return nil, fmt.Errorf("%s:%d: %q: a dependency this gate cannot read into a POM (a project, a libs.* entry or files(...))", file, i+1, strings.TrimSpace(line))
		}
		sortDependencies(pub.Dependencies)
		pubs[artifact] = pub
	}
	return pubs, nil
}

// kotlinJVM reports whether a build file applies Kotlin's JVM plugin (kotlin("jvm"), or by its id),
// which makes a plain jar, as java-library does, of Kotlin.
func kotlinJVM(text string) bool {
	return strings.Contains(text, `kotlin("jvm")`) || strings.Contains(text, `id("org.jetbrains.kotlin.jvm")`)
}

func newDependency(coords, scope string) dependency {
	parts := strings.SplitN(coords, ":", 3)
	return dependency{parts[0], parts[1], parts[2], scope, ""}
}

func sortDependencies(deps []dependency) {
	sort.Slice(deps, func(i, j int) bool { return deps[i].String() < deps[j].String() })
}

// sortedArtifacts returns the artifactIds of pubs, sorted.
func sortedArtifacts(pubs map[string]publication) []string {
	names := make([]string, 0, len(pubs))
	for a := range pubs {
		names = append(names, a)
	}
	sort.Strings(names)
	return names
}
