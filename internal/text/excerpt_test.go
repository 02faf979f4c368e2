package text_test

import (
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/text"
)

func TestOfKeepsFortyCharactersWhole(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"+33785880347", "+33785880347"},
		{strings.Repeat("a", 40), strings.Repeat("a", 40)},
		{strings.Repeat("a", 41), strings.Repeat("a", 40) + "…"},
		// 41 characters of two bytes each: cut after the 40th character,
		// never inside one.
		{strings.Repeat("é", 41), strings.Repeat("é", 40) + "…"},
	} {
		if got := text.Excerpt(tt.in); got != tt.want {
			t.Errorf("Of(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQuoteShowsWhatIsSeenShortened(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"success", `"success"`},
		{"success\U000E0041\uFE0F\u3164\u2800", `"success" with 4 hidden characters`},
		{"x\u200b", `"x" with 1 hidden character`},
		{"a\u2003b\n", `"a b\n"`},
		{strings.Repeat("x", 50), `"` + strings.Repeat("x", 40) + `…"`},
	} {
		if got := text.Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%+q) = %s; want %s", tt.in, got, tt.want)
		}
	}
}
