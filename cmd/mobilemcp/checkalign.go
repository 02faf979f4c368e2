package main

import (
	"fmt"
	"strings"

	"github.com/mobilemcp/mobilemcp/internal/nativelib"
)

func init() {
	register(command{name: "check-align", summary: "check that native libraries load on Android devices with 16 KB pages", run: runCheckAlign})
}

func runCheckAlign(e *env, args []string) int {
	fs := newFlags(e, "check-align", "[--lib NAME] DIR",
		`Checks that DIR/<abi>/NAME of every ABI gomobile builds (`+strings.Join(nativelib.ABIs, ", ")+`)
loads on Android devices with 16 KB memory pages (Android 15+ may use them):
every ELF LOAD segment must be aligned to 16 KB or more. make aar runs it on
android/sdk/jniLibs, where it unpacks the AAR's libraries.

Exit status: 0 when every library passes, 1 otherwise, 2 on a usage error.`)
	lib := fs.String("lib", "libmobilemcp.so", "the library's file `name` in each ABI's directory")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if len(positional) != 1 {
		return usageError(e, fs, "name one directory, such as android/sdk/jniLibs")
	}
	if err := nativelib.CheckDir(positional[0], nativelib.ABIs, *lib); err != nil {
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintf(e.stderr, "mobilemcp check-align: %s\n", line)
		}
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "%s of %s: every LOAD segment aligned to 16 KB or more\n", *lib, strings.Join(nativelib.ABIs, " "))
	return exitOK
}
