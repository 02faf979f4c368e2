package descriptor

import (
	"regexp"
	"strings"
	"testing"
)

// The regular expressions that isVersionNumber and isModelToolName are
// written out from: the engine every tool ships carries no regexp, and
// these tests hold the two equal.
var (
	versionNumber  = regexp.MustCompile(`^[vV]?[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.+-]+)?$`)
	modelToolNames = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
)

// FuzzMatchers holds each matcher equal to its regular expression.
func FuzzMatchers(f *testing.F) {
	for _, seed := range []string{
		"", "1", "1.0", "v2", "V2.1.3", "1.0-beta", "1.0+build.5", "2-rc.1+x", "v", "vv1", "1.", ".1", "1..2",
		"1.0-", "1.0+", "1-a_b", "one", "1.0 ", "1.0\n", "1a", "1.0-beta+exp.sha.5114f85", "01", "1.2.3.4.5", "1-+-",
		"send_sms", "send-sms", "send.sms", strings.Repeat("a", 64), strings.Repeat("a", 65), "é", "a b", "_", "-",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isVersionNumber(s), versionNumber.MatchString(s); got != want {
			t.Errorf("isVersionNumber(%q) = %v; the regular expression says %v", s, got, want)
		}
		if got, want := isModelToolName(s), modelToolNames.MatchString(s); got != want {
			t.Errorf("isModelToolName(%q) = %v; the regular expression says %v", s, got, want)
		}
	})
}
