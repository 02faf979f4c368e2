package text

import "testing"

func TestClosest(t *testing.T) {
	commands := []string{"call", "serve", "lint", "gen", "tools"}
	for _, tt := range []struct {
		got, want string
	}{
		{"serv", "serve"}, {"SERVE", "serve"}, {"lnt", "lint"}, {"tool", "tools"},
		{"fly", ""}, {"", ""}, {"generate", ""},
	} {
		if got := Closest(tt.got, commands); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.got, got, tt.want)
		}
	}
	if got := Closest("mobile.mcp.SERVICES", []string{"mobile.mcp.SERVICE"}); got != "mobile.mcp.SERVICE" {
		t.Errorf("Closest(mobile.mcp.SERVICES) = %q", got)
	}
}
