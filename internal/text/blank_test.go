package text_test

import (
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/text"
)

// The blank spaces of other widths (U+2000 to U+200A, U+205F, U+3000) can
// carry data in which of them stands where, which a model reads and a
// person does not: in free text each becomes a plain space.
func TestBlankSpacesBecomePlainSpaces(t *testing.T) {
	for _, r := range []rune{0x2000, 0x2001, 0x2005, 0x2009, 0x200A, 0x205F, 0x3000} {
		in := "Sends" + string(r) + "an SMS."
		if got := text.StripInvisible(in); got != "Sends an SMS." {
			t.Errorf("StripInvisible(%q) = %q; want %q", in, got, "Sends an SMS.")
		}
		if got := text.InvisibleLine(in); got != "Sends an SMS." {
			t.Errorf("InvisibleLine(%q) = %q; want %q", in, got, "Sends an SMS.")
		}
	}
	// The spaces text needs stay: the plain one, and the no-break ones.
	for _, in := range []string{"a b", "10\u00a0km", "Prix\u202f:"} {
		if got := text.StripInvisible(in); got != in {
			t.Errorf("StripInvisible(%q) = %q; want it unchanged", in, got)
		}
	}
}

// A name, an id, a pattern or an error code is never cleaned, since it is
// sent back as it was declared: IndexUnseen finds what refuses it, a blank
// space or a tab as well as an invisible character.
func TestIndexUnseen(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"create_note", -1}, {"^[a-z]+$", -1}, {"título", -1}, {"10\u00a0km", -1},
		{"ti\u2003tle", 2}, {"a\tb", 1}, {"a\nb", 1}, {"x\ufe04", 1}, {"\u200bx", 0}, {"a\u3000", 1},
	} {
		if got := text.IndexUnseen(tt.in); got != tt.want {
			t.Errorf("IndexUnseen(%q) = %d; want %d", tt.in, got, tt.want)
		}
	}
}
