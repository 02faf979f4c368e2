// Command releasecheck is the release gate: it checks what a version tag would publish, and prints
// one PASS or FAIL line per check, naming the artifact and the check, exiting 1 on any FAIL.
// ci/release-check.sh (make release-check) assembles everything that builds without the Android
// Gradle Plugin and runs it; every run of the release's jobs (the release and its rehearsal) runs it
// on what Gradle built, with -android for the AARs and APKs (ci/pipeline.sh gate).
//
//	go run ./internal/cmd/releasecheck -version 1.2.0 [-staging DIR] [-release DIR [-packages DIR]]
//	    [-android DIR] [-gradle DIR] [-public-key FILE] [-build-id ID] [-engines linux-x86_64,...]
//	    [-go go1.X.Y] [-jars]
//	go run ./internal/cmd/releasecheck -version 1.2.0 -pom-dependencies ARTIFACT
//
//	-staging     a Maven repository holding every artifact the Gradle build publishes (-gradle): for
//	             each, its main file, POM, sources and javadoc jars, and with -public-key their
//	             signatures, all present, checksummed as Central requires, with LICENSE inside every
//	             jar; the POM with every element Central requires and the dependencies the module's
//	             build file declares; a sources jar without native binaries; the engine jar holding
//	             the -engines platforms, each at most 4.5 MB, the macOS ones for macOS 12 and newer
//	-release     the CLI archives and SHA256SUMS: the checksums hold, six platforms, LICENSE and a
//	             README in each; the macOS binaries for macOS 12 and newer; the linux-amd64 mobilemcp
//	             prints the version and the build id, and the linux-arm64 one too, under qemu-aarch64
//	-packages    the npm, PyPI and Claude Desktop packages (ci/release-packages.sh): each holds the
//	             binary of its system's CLI archive, the npm and PyPI packages name the MCP
//	             Registry's server, and server.json follows the registry's pinned schema
//	-android     the AGP-built AARs (ARTIFACT-VERSION.aar) and APKs, each held to what it must carry:
//	             every AAR the entries of AGP's AAR format and LICENSE at its root; the sdk AAR the
//	             engine for all four ABIs, every LOAD segment at 16 KB, the consumer ProGuard rules
//	             that keep the engine's classes, and an api.jar at its root of the sdk's classes and
//	             none of the engine's, what an app compiles against; every other AAR no native
//	             library at all; every APK the engine for all four ABIs, 16 KB-aligned, and
//	             zipalign -c -P 16 ($ZIPALIGN)
//	-gradle      the Gradle build (default android), whose modules name the artifacts and their
//	             dependencies
//	-go          the Go toolchain (go.mod's toolchain line) that every Go binary must record: the
//	             engine jar's engines and the CLI's binaries
//	-pom-dependencies ARTIFACT
//	             prints the dependencies the Gradle build gives ARTIFACT's POM, one
//	             "group:artifact:version scope" a line (and the group it excludes, if any), and exits (ci/release-check.sh writes the POMs
//	             of its stand-in jars from them)
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// Group is the Maven group of every artifact.
const Group = "io.github.mobilemcp"

// EngineBudget is the most an engine may weigh, per platform.
const EngineBudget = 4_500_000

// MinMacOS is the oldest macOS the engines and the CLI run on: the oldest that Go supports, which
// Go's linker writes into the CLI and scripts/host-engine.sh gives Xcode's linker for the engines
// (MACOSX_DEPLOYMENT_TARGET).
const MinMacOS = "12.0"

// EngineAAR is the one artifact that carries the engine: the sdk, the library every tool app adds.
const EngineAAR = "sdk"

// CLIPlatforms are the CLI archives a release attaches.
var CLIPlatforms = []string{"linux-amd64", "linux-arm64", "macos-amd64", "macos-arm64", "windows-amd64", "windows-arm64"}

// A checker prints one line per check and remembers whether any failed.
type checker struct {
	out    io.Writer
	failed bool
}

// report prints the PASS or FAIL line of the check name (the artifact, a colon, the check).
func (c *checker) report(name string, detail string, err error) {
	if err != nil {
		c.failed = true
		fmt.Fprintf(c.out, "FAIL  %-44s %v\n", name, err)
		return
	}
	fmt.Fprintf(c.out, "PASS  %-44s %s\n", name, detail)
}

// options are the gate's flags.
type options struct {
	version, staging, release, packages, android, gradle, publicKey, buildID, goVersion string
	engines                                                                             []string
	jars                                                                                bool
}

func main() {
	var o options
	var engines, pomDependencies string
	flag.StringVar(&o.version, "version", "", "the version the tag gives, such as 1.2.0")
	flag.StringVar(&o.staging, "staging", "", "the staging Maven repository")
	flag.StringVar(&o.release, "release", "", "the directory of the CLI archives and SHA256SUMS")
	flag.StringVar(&o.android, "android", "", "the directory of the AGP-built AARs and APKs")
	flag.StringVar(&o.gradle, "gradle", "android", "the Gradle build whose modules name the artifacts")
	flag.StringVar(&o.publicKey, "public-key", "", "the armored public key the staging repository is signed with")
	flag.StringVar(&o.buildID, "build-id", "", "the build id the CLI must print (default: not checked)")
	flag.StringVar(&o.goVersion, "go", "", "the Go toolchain every Go binary must record, such as go1.26.11 (default: not checked)")
	flag.StringVar(&engines, "engines", "linux-x86_64,linux-aarch64,windows-x86_64", "the platforms the engine jar must hold")
	flag.BoolVar(&o.jars, "jars", false, "the Android libraries are staged as jars (the host harness's stand-ins for the AARs)")
	flag.StringVar(&o.packages, "packages", "", "the directory of the npm, PyPI and Claude Desktop packages and server.json (needs -release)")
	flag.StringVar(&pomDependencies, "pom-dependencies", "", "print the dependencies of this artifact's POM, and exit")
	flag.Parse()
	if o.version == "" || flag.NArg() != 0 || (o.packages != "" && o.release == "") {
		fmt.Fprintln(os.Stderr, "usage: releasecheck -version VERSION [-staging DIR] [-release DIR [-packages DIR]] [-android DIR] [-gradle DIR] [-public-key FILE] [-build-id ID] [-engines P,...] [-go go1.X.Y] [-jars]")
		fmt.Fprintln(os.Stderr, "       releasecheck -version VERSION [-gradle DIR] -pom-dependencies ARTIFACT")
		os.Exit(2)
	}
	o.engines = strings.Split(engines, ",")
	if pomDependencies != "" {
		if err := printDependencies(os.Stdout, o.gradle, o.version, pomDependencies); err != nil {
			fmt.Fprintln(os.Stderr, "releasecheck:", err)
			os.Exit(1)
		}
		return
	}
	c := &checker{out: os.Stdout}
	c.run(o)
	if c.failed {
		os.Exit(1)
	}
}

// run checks what the options name.
func (c *checker) run(o options) {
	var pubs map[string]publication
	if o.staging != "" || o.android != "" {
		var err error
		pubs, err = readGradle(o.gradle, o.version)
		c.report("the Gradle build", "its publications: "+strings.Join(sortedArtifacts(pubs), ", "), err)
		if err != nil {
			return
		}
	}
	if o.staging != "" {
		c.staging(o, pubs)
	}
	if o.release != "" {
		c.release(o)
	}
	if o.packages != "" {
		c.packages(o.packages, o.release, o.version)
	}
	if o.android != "" {
		c.android(o.android, o.version, pubs)
	}
}

// printDependencies prints the dependencies the Gradle build gives artifact's POM.
func printDependencies(w io.Writer, gradle, version, artifact string) error {
	pubs, err := readGradle(gradle, version)
	if err != nil {
		return err
	}
	pub, ok := pubs[artifact]
	if !ok {
		return fmt.Errorf("no module of %s publishes %s; they publish %s", gradle, artifact, strings.Join(sortedArtifacts(pubs), ", "))
	}
	for _, d := range pub.Dependencies {
		if d.Excludes != "" {
			fmt.Fprintf(w, "%s:%s:%s %s %s\n", d.Group, d.Artifact, d.Version, d.Scope, d.Excludes)
		} else {
			fmt.Fprintf(w, "%s:%s:%s %s\n", d.Group, d.Artifact, d.Version, d.Scope)
		}
	}
	return nil
}
