package capability

import (
	"regexp"
	"strings"
	"testing"
)

// idPattern is what ValidID matches, as the regular expression it
// replaces.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// FuzzValidID holds ValidID equal to idPattern.
func FuzzValidID(f *testing.F) {
	for _, seed := range []string{"", "send_sms", "a.b-c_D9", "a b", "é", "\x00", "send_sms\n",
		strings.Repeat("a", 128), strings.Repeat("a", 129), "\xff", "a/b", "a:b", "-"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := ValidID(id), idPattern.MatchString(id); got != want {
			t.Errorf("ValidID(%q) = %v; the regular expression says %v", id, got, want)
		}
	})
}
