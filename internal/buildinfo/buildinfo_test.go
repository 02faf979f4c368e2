package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestFromSettings(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	for _, tc := range []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"no vcs information", nil, "unknown"},
		{"a clean checkout", []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "false"}}, rev},
		{"uncommitted changes", []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: "true"}}, rev + "-dirty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fromSettings(tc.settings); got != tc.want {
				t.Errorf("fromSettings = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTheReleaseBuildWins(t *testing.T) {
	defer func(v, i string) { version, id = v, i }(version, id)
	version, id = "1.2.0", "abc123"
	if Version() != "1.2.0" || ID() != "abc123" {
		t.Errorf("Version, ID = %q, %q; want the values set with -X", Version(), ID())
	}
}
