package text

import "testing"

func TestCount(t *testing.T) {
	for _, tt := range []struct {
		n    int
		noun string
		want string
	}{{0, "send", "0 sends"}, {1, "send", "1 send"}, {2, "second", "2 seconds"}, {-1, "error", "-1 errors"}} {
		if got := Plural(tt.n, tt.noun); got != tt.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tt.n, tt.noun, got, tt.want)
		}
	}
}
