package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

// TestReadGradle: the publications and POM dependencies come from the Gradle build's own files.
func TestReadGradle(t *testing.T) {
	pubs, err := readGradle(gradleDir, version)
	if err != nil {
		t.Fatal(err)
	}
	if p := pubs["sdk-testing-engine"]; p.Packaging != "jar" || p.Module != "sdk-testing-engine" {
		t.Errorf("sdk-testing-engine: %+v, want the jar of android/sdk-testing-engine", p)
	}
	// sdk-ksp applies Kotlin's JVM plugin (kotlin("jvm")): a jar, with Kotlin's standard library.
	if p := pubs["sdk-ksp"]; p.Packaging != "jar" || len(p.Dependencies) == 0 || p.Dependencies[len(p.Dependencies)-1].Artifact != "kotlin-stdlib" {
		t.Errorf("sdk-ksp: %+v, want the jar of android/sdk-ksp, on kotlin-stdlib", p)
	}
	if p := pubs[EngineAAR]; p.Packaging != "aar" {
		t.Errorf("%s: %+v, want an AAR", EngineAAR, p)
	}
	// sdk-ktx names the sdk compileOnly: apps add the sdk themselves, and its POM does not.
	var ktx bytes.Buffer
	if err := printDependencies(&ktx, gradleDir, version, "sdk-ktx"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(ktx.String(), "io.github.mobilemcp:sdk:") || !strings.Contains(ktx.String(), "org.jetbrains.kotlin:kotlin-stdlib:") {
		t.Errorf("sdk-ktx's POM dependencies:\n%s", ktx.String())
	}
	var testing_ bytes.Buffer
	if err := printDependencies(&testing_, gradleDir, version, "sdk-testing"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(testing_.String(), "io.github.mobilemcp:sdk-testing-engine:1.2.0 compile\n") {
		t.Errorf("sdk-testing's POM names no engine jar:\n%s", testing_.String())
	}

	// client-mcp leaves ktor out of the MCP Kotlin SDK's dependencies, and its POM says so.
	var mcp bytes.Buffer
	if err := printDependencies(&mcp, gradleDir, version, "client-mcp"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(mcp.String(), "io.modelcontextprotocol:kotlin-sdk-client:0.11.1 compile io.ktor\n") ||
		!strings.Contains(mcp.String(), "io.modelcontextprotocol:kotlin-sdk-server:0.11.1 runtime io.ktor\n") {
		t.Errorf("client-mcp's POM dependencies:\n%s", mcp.String())
	}

	// A dependency the gate cannot read is an error that names it, never a POM that misses it.
	dir := t.TempDir()
	for name, text := range map[string]string{
		"gradle/libs.versions.toml":   "[versions]\njunit = \"4.13.2\"\n[libraries]\njunit = { module = \"junit:junit\", version.ref = \"junit\" }\n",
		"lib/gradle.properties":       "mobilemcp.artifactId=lib\n",
		"lib/build.gradle.kts":        "plugins {\n    id(\"com.android.library\")\n}\ndependencies {\n    api(libs.junit)\n    implementation(\"com.example:thing:1.0\")\n}\n",
		"sample/build.gradle.kts":     "plugins {\n    id(\"com.android.application\")\n}\n",
		"sample/gradle.properties":    "mobilemcp.applicationId=com.example\n",
		"unrelated/gradle.properties": "",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err = readGradle(dir, version)
	want := filepath.Join(dir, "lib/build.gradle.kts") + `:6: "implementation(\"com.example:thing:1.0\")": a dependency this gate cannot read into a POM`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("an unreadable dependency: %v, want %s", err, want)
	}
}

// TestStagingGoodSetPasses: a staging repository of every publication, each with its files, POM,
// dependencies, LICENSE and a sources jar of sources, passes.
func TestStagingGoodSetPasses(t *testing.T) {
	staging := writeStaging(t, map[string][]byte{"linux-x86_64": testkit.ELF(0x1000)}, nil)
	out, failed := gate(options{staging: staging, engines: []string{"linux-x86_64"}})
	if failed {
		t.Fatalf("the good staging fails:\n%s", out)
	}
	for _, want := range []string{"PASS  staging: artifacts ", "PASS  sdk-ktx: POM dependencies ", "PASS  client-ktx: sources jar ",
		"PASS  sdk-testing-engine: engines ", "PASS  sdk: LICENSE "} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
}

// TestStagingBroken: each broken file fails its check, naming the artifact and the check.
func TestStagingBroken(t *testing.T) {
	pubs, err := readGradle(gradleDir, version)
	if err != nil {
		t.Fatal(err)
	}
	// The POM that the gate's stand-in once wrote for sdk-ktx: the sdk as a dependency, which the
	// Gradle build declares compileOnly and so leaves out.
	ktx := pubs["sdk-ktx"]
	ktx.Dependencies = append([]dependency{{Group, "sdk", version, "compile", ""}}, ktx.Dependencies...)
	// sdk-testing's without the engine jar it needs.
	sdkTesting := pubs["sdk-testing"]
	var noEngine []dependency
	for _, d := range sdkTesting.Dependencies {
		if d.Artifact != "sdk-testing-engine" {
			noEngine = append(noEngine, d)
		}
	}
	sdkTesting.Dependencies = noEngine
	sourcesWithEngines := jar("META-INF/LICENSE", string(apacheLicense), engineDir+"platforms", "linux-x86_64\n",
		engineDir+"linux-x86_64/libmobilemcp.so", "\x7fELF...")
	tests := []struct {
		name    string
		replace map[string][]byte
		check   string
		message string
	}{
		{"a POM with a dependency the build file does not declare", map[string][]byte{"sdk-ktx/sdk-ktx-1.2.0.pom": pomOf(ktx)},
			"sdk-ktx: POM dependencies", "sdk-ktx-1.2.0.pom lists io.github.mobilemcp:sdk:1.2.0 (compile), which the build file does not declare (android/sdk-ktx/build.gradle.kts)"},
		{"a POM without a dependency the build file declares", map[string][]byte{"sdk-testing/sdk-testing-1.2.0.pom": pomOf(sdkTesting)},
			"sdk-testing: POM dependencies", "sdk-testing-1.2.0.pom lacks io.github.mobilemcp:sdk-testing-engine:1.2.0 (compile), which the build file declares (android/sdk-testing/build.gradle.kts)"},
		{"a sources jar that carries the engines", map[string][]byte{"sdk-testing-engine/sdk-testing-engine-1.2.0-sources.jar": sourcesWithEngines},
			"sdk-testing-engine: sources jar", "sdk-testing-engine-1.2.0-sources.jar holds io/github/mobilemcp/sdk/testing/engine/linux-x86_64/libmobilemcp.so (7 bytes): a sources jar carries no binaries"},
		{"a javadoc jar without LICENSE", map[string][]byte{"client/client-1.2.0-javadoc.jar": jar("index.html", "<html></html>")},
			"client: LICENSE", "client-1.2.0-javadoc.jar holds no META-INF/LICENSE"},
		{"a POM without a description", map[string][]byte{"client/client-1.2.0.pom": regexp.MustCompile(`<description>.*</description>`).ReplaceAll(pomOf(pubs["client"]), nil)},
			"client: POM", "client-1.2.0.pom has no description"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			staging := writeStaging(t, map[string][]byte{"linux-x86_64": testkit.ELF(0x1000)}, tt.replace)
			out, failed := gate(options{staging: staging, engines: []string{"linux-x86_64"}})
			fails := failLines(out)
			want := fmt.Sprintf("FAIL  %-44s %s", tt.check, tt.message)
			if !failed || !strings.Contains(out, want) {
				t.Errorf("no FAIL line %q in:\n%s", want, out)
			}
			if len(fails) != 1 {
				t.Errorf("FAIL lines %q, want one of %s", fails, tt.check)
			}
		})
	}

	// An artifact no module publishes would reach Central unchecked.
	staging := writeStaging(t, map[string][]byte{"linux-x86_64": testkit.ELF(0x1000)}, nil)
	writeWithSums(t, filepath.Join(staging, "io/github/mobilemcp/sdk-extras/1.2.0/sdk-extras-1.2.0.jar"), jar("a", "b"))
	out, _ := gate(options{staging: staging, engines: []string{"linux-x86_64"}})
	if want := "sdk-extras, which no module of ../../../android publishes: it would reach Central unchecked"; !strings.Contains(out, "FAIL  staging: artifacts") || !strings.Contains(out, want) {
		t.Errorf("an extra artifact: no FAIL line with %q in:\n%s", want, out)
	}
}

// TestEngineJarMacOSMinimum: the macOS engines run on macOS 12, the oldest Go supports; one linked
// for a newer macOS (Xcode's linker, without a deployment target, takes the runner's) fails.
func TestEngineJarMacOSMinimum(t *testing.T) {
	engines := map[string][]byte{
		"linux-x86_64":  testkit.ELF(0x1000),
		"macos-x86_64":  testkit.GoBinary(t, "darwin", "amd64"),
		"macos-aarch64": testkit.GoBinary(t, "darwin", "arm64"),
	}
	want := []string{"linux-x86_64", "macos-x86_64", "macos-aarch64"}
	out, failed := gate(options{staging: writeStaging(t, engines, nil), engines: want})
	if line := fmt.Sprintf("PASS  %-44s %s", "sdk-testing-engine: macOS minimum", "macOS 12.0 or older: macos-aarch64 12.0, macos-x86_64 12.0"); failed || !strings.Contains(out, line) {
		t.Errorf("engines for macOS 12: no line %q in:\n%s", line, out)
	}
	engines["macos-aarch64"] = testkit.Dylib(t, "aarch64-macos.15.0")
	out, _ = gate(options{staging: writeStaging(t, engines, nil), engines: want})
	line := fmt.Sprintf("FAIL  %-44s %s", "sdk-testing-engine: macOS minimum",
		"the macos-aarch64 engine needs macOS 15.0, newer than 12.0: build it with MACOSX_DEPLOYMENT_TARGET=12.0 (scripts/host-engine.sh)")
	if fails := failLines(out); len(fails) != 1 || !strings.Contains(out, line) {
		t.Errorf("an engine for macOS 15: no single FAIL line %q in:\n%s", line, out)
	}
}

// TestHostEngineTargetsMinMacOS: the script that builds the macOS engines targets the macOS the gate
// holds them to.
func TestHostEngineTargetsMinMacOS(t *testing.T) {
	script, err := os.ReadFile("../../../scripts/host-engine.sh")
	if err != nil {
		t.Fatal(err)
	}
	if want := "export MACOSX_DEPLOYMENT_TARGET=" + MinMacOS + "\n"; !bytes.Contains(script, []byte(want)) {
		t.Errorf("scripts/host-engine.sh does not %s", strings.TrimSpace(want))
	}
}

// TestGoToolchain: a binary built with another Go than go.mod's toolchain fails; Go records its
// version in every binary it links, stripped or not.
func TestGoToolchain(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":  "module example.com/hello\n\ngo 1.26\n",
		"main.go": "package main\n\nfunc main() {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", "hello")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	binary, err := os.ReadFile(filepath.Join(dir, "hello"))
	if err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command("go", "env", "GOVERSION")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	goVersion, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	built := strings.TrimSpace(string(goVersion))
	if err := checkGoVersions(map[string][]byte{"linux-amd64": binary}, built); err != nil {
		t.Errorf("a binary of %s: %v", built, err)
	}
	err = checkGoVersions(map[string][]byte{"linux-amd64": binary, "windows-amd64": []byte("MZ")}, "go1.99.1")
	want := "linux-amd64 is built with " + built + ", not go1.99.1, go.mod's toolchain\nwindows-amd64 records no Go version: "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("another Go: %v, want %q", err, want)
	}
}
