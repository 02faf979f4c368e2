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
A tool's Android libraries and the host engine of its tests carry the same build id.`)
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if len(positional) != 0 {
		return usageError(e, fs, "version takes no arguments")
	}
	fmt.Fprintf(e.stdout, "mobilemcp %s (build %s)\n", buildinfo.Version(), buildinfo.ID())
	return exitOK
}
