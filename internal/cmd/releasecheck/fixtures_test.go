package main

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

// The fixtures are laid out as the Android Gradle Plugin lays out what it builds: an AAR as its
// format says (http://tools.android.com/tech-docs/new-build-system/aar-format: AndroidManifest.xml,
// classes.jar, res/, R.txt at the root, then the optional jni/<abi>/*.so, proguard.txt, libs/*.jar,
// and AGP's own META-INF/com/android/build/gradle/aar-metadata.properties), plus the LICENSE the
// root build file adds; an APK with lib/<abi>/*.so stored uncompressed at 16 KB, as zipalign -P 16
// leaves it. The libraries are ELF files with chosen LOAD alignments (testkit).

const version = "1.2.0"

// gradleDir is the repository's own Gradle build: the fixtures follow its publications.
const gradleDir = "../../../android"

var apacheLicense, _ = os.ReadFile("../../../LICENSE")

// jar returns a jar of the entries (name, content, in order).
func jar(entries ...string) []byte {
	var list []testkit.Entry
	for i := 0; i+1 < len(entries); i += 2 {
		list = append(list, testkit.Entry{Name: entries[i], Data: []byte(entries[i+1])})
	}
	return testkit.Zip(list, 0)
}

// anAAR is the entries of an AAR, which a test may change before aar() zips them.
type anAAR []testkit.Entry

// set replaces the entry name, or adds it.
func (a anAAR) set(name string, data []byte) anAAR {
	for i, e := range a {
		if e.Name == name {
			a[i].Data = data
			return a
		}
	}
	return append(a, testkit.Entry{Name: name, Data: data})
}

// without drops every entry whose name begins with prefix.
func (a anAAR) without(prefix string) anAAR {
	var out anAAR
	for _, e := range a {
		if !strings.HasPrefix(e.Name, prefix) {
			out = append(out, e)
		}
	}
	return out
}

func (a anAAR) zip() []byte { return testkit.Zip(a, 0) }

// goodAAR is the AAR of an artifact as AGP builds it: the sdk with the engine for every ABI, its
// Java in libs/, the consumer rules and an api.jar of the sdk's own classes, every other one with
// none of these.
func goodAAR(artifact string) anAAR {
	pkg := "io.github.mobilemcp." + strings.ReplaceAll(artifact, "-", ".")
	a := anAAR{
		{Name: "AndroidManifest.xml", Data: []byte(`<?xml version="1.0" encoding="utf-8"?>
<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="` + pkg + `">
    <uses-sdk android:minSdkVersion="24" />
</manifest>`)},
		{Name: "R.txt", Data: []byte("int string mobilemcp_name 0x0\n")},
		{Name: "res/values/values.xml", Data: []byte(`<resources><string name="mobilemcp_name">mobilemcp</string></resources>`)},
		{Name: "classes.jar", Data: jar("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n",
			strings.ReplaceAll(pkg, ".", "/")+"/Tool.class", "\xca\xfe\xba\xbe")},
		{Name: "META-INF/com/android/build/gradle/aar-metadata.properties", Data: []byte("aarFormatVersion=1.0\naarMetadataVersion=1.0\nminCompileSdk=1\n")},
		{Name: "LICENSE", Data: apacheLicense},
	}
	if artifact == EngineAAR {
		for _, abi := range nativelib.ABIs {
			a = append(a, testkit.Entry{Name: "jni/" + abi + "/libmobilemcp.so", Data: testkit.ELF(0x4000, 0x4000)})
		}
		a = append(a, testkit.Entry{Name: "proguard.txt", Data: []byte(
			"# gobind's classes, which JNI reaches by name.\n-keep class io.github.mobilemcp.engine.go.** { *; }\n-keep class io.github.mobilemcp.intentbridge.** { *; }\n")})
		a = append(a,
			testkit.Entry{Name: "libs/intentbridge.jar", Data: jar("io/github/mobilemcp/engine/go/Seq.class", "\xca\xfe\xba\xbe",
				"io/github/mobilemcp/intentbridge/Bridge.class", "\xca\xfe\xba\xbe")},
			testkit.Entry{Name: "api.jar", Data: apiJar()})
	}
	return a
}

// apiJar is the sdk's api.jar as its build file writes it, with any further entries (name,
// content): the sdk's classes, LICENSE, and none of the engine's classes.
func apiJar(more ...string) []byte {
	return jar(append([]string{"META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n", "META-INF/LICENSE", string(apacheLicense),
		"io/github/mobilemcp/sdk/ToolSettings.class", "\xca\xfe\xba\xbe"}, more...)...)
}

// goodAPK is an APK as the release builds it: the engine for every ABI, stored at 16 KB.
func goodAPK() []testkit.Entry {
	a := []testkit.Entry{
		{Name: "AndroidManifest.xml", Data: []byte("\x03\x00\x08\x00binary manifest")},
		{Name: "classes.dex", Data: []byte("dex\n035\x00")},
		{Name: "resources.arsc", Data: []byte("\x02\x00\x0c\x00")},
	}
	for _, abi := range nativelib.ABIs {
		a = append(a, testkit.Entry{Name: "lib/" + abi + "/libmobilemcp.so", Data: testkit.ELF(0x4000, 0x4000)})
	}
	return a
}

// aarArtifacts are the artifacts the Gradle build publishes as AARs.
func aarArtifacts(t *testing.T) []string {
	t.Helper()
	pubs, err := readGradle(gradleDir, version)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range sortedArtifacts(pubs) {
		if pubs[a].Packaging == "aar" {
			out = append(out, a)
		}
	}
	return out
}

// writeAndroid writes the good AARs and APKs into a directory, with the ones in replace (by file
// name) instead, and returns it.
func writeAndroid(t *testing.T, artifacts []string, replace map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{
		"mobilemcp-app-" + version + ".apk":   testkit.Zip(goodAPK(), nativelib.PageAlign),
		"mobilemcp-notes-" + version + ".apk": testkit.Zip(goodAPK(), nativelib.PageAlign),
	}
	for _, a := range artifacts {
		files[a+"-"+version+".aar"] = goodAAR(a).zip()
	}
	for name, data := range replace {
		files[name] = data
	}
	for name, data := range files {
		if data == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fakeZipalign is a stand-in for the build-tools' zipalign -c, which this machine lacks: it fails
// an APK whose name says "unaligned", as zipalign reports one.
func fakeZipalign(t *testing.T) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "zipalign")
	text := "#!/bin/sh\ncase \"$5\" in *unaligned*) echo \"Verifying alignment of $5...\"; echo \"Verification FAILED\"; exit 1 ;; esac\n"
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ZIPALIGN", script)
}

// gate runs the checks of o and returns their lines and whether any failed.
func gate(o options) (string, bool) {
	var out bytes.Buffer
	c := &checker{out: &out}
	if o.gradle == "" {
		o.gradle = gradleDir
	}
	if o.version == "" {
		o.version = version
	}
	c.run(o)
	return out.String(), c.failed
}

// failLines are the FAIL lines of out.
func failLines(out string) []string {
	var fails []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "FAIL") {
			fails = append(fails, l)
		}
	}
	return fails
}

// writeWithSums writes data to file with the .md5 and .sha1 files Central requires beside it.
func writeWithSums(t *testing.T, file string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	md := md5.Sum(data)
	sh := sha1.Sum(data)
	for name, content := range map[string][]byte{
		file: data, file + ".md5": []byte(hex.EncodeToString(md[:])), file + ".sha1": []byte(hex.EncodeToString(sh[:])),
	} {
		if err := os.WriteFile(name, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pomOf is the POM Gradle writes for a publication.
func pomOf(pub publication) []byte {
	var deps strings.Builder
	for _, d := range pub.Dependencies {
		exclusions := ""
		if d.Excludes != "" {
			exclusions = "      <exclusions><exclusion><groupId>" + d.Excludes + "</groupId><artifactId>*</artifactId></exclusion></exclusions>\n"
		}
		fmt.Fprintf(&deps, "    <dependency>\n      <groupId>%s</groupId>\n      <artifactId>%s</artifactId>\n      <version>%s</version>\n      <scope>%s</scope>\n%s    </dependency>\n",
			d.Group, d.Artifact, d.Version, d.Scope, exclusions)
	}
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.mobilemcp</groupId>
  <artifactId>` + pub.Artifact + `</artifactId>
  <version>` + version + `</version>
  <packaging>` + pub.Packaging + `</packaging>
  <name>mobilemcp ` + pub.Artifact + `</name>
  <description>The mobilemcp ` + pub.Artifact + `</description>
  <url>https://github.com/mobilemcp/mobilemcp</url>
  <licenses><license><name>Apache License, Version 2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0.txt</url></license></licenses>
  <developers><developer><id>mobilemcp</id><name>The mobilemcp authors</name></developer></developers>
  <scm><url>https://github.com/mobilemcp/mobilemcp</url><connection>scm:git:https://github.com/mobilemcp/mobilemcp.git</connection></scm>
  <dependencies>
` + deps.String() + `  </dependencies>
</project>
`)
}

// engineJar is the engine jar holding a library per platform, each with its SHA-256.
func engineJar(libs map[string][]byte) []byte {
	entries := []testkit.Entry{{Name: "META-INF/LICENSE", Data: apacheLicense}}
	var platforms []string
	for _, p := range []string{"linux-x86_64", "linux-aarch64", "macos-x86_64", "macos-aarch64", "windows-x86_64"} {
		lib, ok := libs[p]
		if !ok {
			continue
		}
		platforms = append(platforms, p)
		sum := sha256.Sum256(lib)
		entries = append(entries,
			testkit.Entry{Name: engineDir + p + "/" + engineLibrary(p), Data: lib},
			testkit.Entry{Name: engineDir + p + "/" + engineLibrary(p) + ".sha256", Data: []byte(hex.EncodeToString(sum[:]) + "\n")})
	}
	entries = append(entries, testkit.Entry{Name: engineDir + "platforms", Data: []byte(strings.Join(platforms, "\n") + "\n")})
	return testkit.Zip(entries, 0)
}

// writeStaging writes a staging repository of every publication as Gradle publishes it, with
// the files in replace (by path under the version's directory, "sdk/sdk-1.2.0.pom") instead, and
// returns it.
func writeStaging(t *testing.T, engines map[string][]byte, replace map[string][]byte) string {
	t.Helper()
	pubs, err := readGradle(gradleDir, version)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for a, pub := range pubs {
		base := a + "/" + a + "-" + version
		files := map[string][]byte{
			base + ".pom":         pomOf(pub),
			base + "-sources.jar": jar("META-INF/LICENSE", string(apacheLicense), "io/github/mobilemcp/Tool.java", "class Tool {}"),
			base + "-javadoc.jar": jar("META-INF/LICENSE", string(apacheLicense), "index.html", "<html></html>"),
		}
		switch {
		case a == "sdk-testing-engine":
			files[base+".jar"] = engineJar(engines)
		case pub.Packaging == "aar":
			files[base+".aar"] = goodAAR(a).zip()
		default:
			files[base+".jar"] = jar("META-INF/LICENSE", string(apacheLicense))
		}
		for name, data := range files {
			if r, ok := replace[name]; ok {
				data = r
			}
			writeWithSums(t, filepath.Join(dir, "io/github/mobilemcp", a, version, filepath.Base(name)), data)
		}
	}
	return dir
}
