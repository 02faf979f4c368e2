package main

import (
	"fmt"

	"github.com/mobilemcp/mobilemcp/internal/buildinfo"
)

func init() {
	register(command{name: "version", summary: "print the version and the build id", run: runVersion})
}

func runVersion(e *env, args []string) int {
	fs := newFlags(e, "version", "", `Prints the release version and the build id (the commit it was built from).
A tool's Android libraries and the host engine of its tests carry the same build id.
A build that recorded no commit says why.`)
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if len(positional) != 0 {
		return usageError(e, fs, "version takes no arguments")
	}
	fmt.Fprintln(e.stdout, versionLine(buildinfo.Version(), buildinfo.ID()))
	return exitOK
}

// versionLine is what 'mobilemcp version' prints for a version and a build
// id. A build without a commit says why there is none, and how to get one,
// rather than a bare "unknown" that reads like a broken build.
func versionLine(version, id string) string {
	switch {
	case id != "unknown":
		return fmt.Sprintf("mobilemcp %s (build %s)", version, id)
	case version == "devel":
		return "mobilemcp devel (build unknown: go run and go build -buildvcs=false record no commit; " +
			"go build in a git checkout records it, and a release names its version too)"
	}
	return fmt.Sprintf("mobilemcp %s (build unknown: go install of a module version records the version, v%s, and no commit)", version, version)
}
