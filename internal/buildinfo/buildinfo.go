// Package buildinfo names the build that is running: the release version
// and the build id, the commit it was built from. The CLI prints both
// ('mobilemcp version'); the engine carries the build id, so that a host
// engine and the Android libraries can be checked to come from one commit.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Set by the release build with -ldflags "-X" (ci/release-binaries.sh,
// the engine builds); empty in a plain go build, which falls back to what
// the Go toolchain recorded.
var (
	version string
	id      string
)

// Version is the release version, such as "1.2.0": the one the release
// build set, else the module version go install recorded (v1.2.0 for
// 'go install ...@v1.2.0'), else "devel" for a build from a checkout.
func Version() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		if v := info.Main.Version; v != "" && v != "(devel)" {
			return strings.TrimPrefix(v, "v")
		}
	}
	return "devel"
}

// ID is the build id: the commit the build came from, as the release build
// set it, else as the Go toolchain recorded it from the checkout (with
// "-dirty" when it had uncommitted changes), else "unknown" (go install of
// a module version records no commit).
func ID() string {
	if id != "" {
		return id
	}
	return fromSettings(readSettings())
}

// StampedID is the build id the build set, as every engine's build sets
// it (scripts/host-engine.sh, scripts/android-build.sh), else "unknown".
// The engines report it rather than ID, whose fallback reads what the
// toolchain recorded: that reader would add to the engine every tool app
// ships, and an engine is never built without the id.
func StampedID() string {
	if id != "" {
		return id
	}
	return "unknown"
}

func readSettings() []debug.BuildSetting {
	if info, ok := debug.ReadBuildInfo(); ok {
		return info.Settings
	}
	return nil
}

// fromSettings is the build id that the vcs.revision and vcs.modified
// settings describe.
func fromSettings(settings []debug.BuildSetting) string {
	var revision string
	var modified bool
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	switch {
	case revision == "":
		return "unknown"
	case modified:
		return revision + "-dirty"
	}
	return revision
}
