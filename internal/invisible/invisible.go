// Package invisible finds and removes the characters that change how a
// text is read without being seen: Unicode's format characters (category
// Cf: bidirectional controls, zero-width characters, the tag characters
// U+E0000 to U+E007F, soft hyphens) and control characters. A model reads
// every one of them, so a tool description can carry instructions that
// the user who shares the tool never sees.
package invisible

import (
	"strings"
	"unicode"
)

// Is reports whether r is invisible: a format character, or a control
// character other than tab and newline, which a description may use to
// lay itself out.
func Is(r rune) bool {
	return unicode.Is(unicode.Cf, r) || unicode.IsControl(r) && r != '\t' && r != '\n'
}

// Contains reports whether s holds an invisible character.
func Contains(s string) bool { return strings.IndexFunc(s, Is) >= 0 }

// Strip returns s without its invisible characters.
func Strip(s string) string {
	if !Contains(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if Is(r) {
			return -1
		}
		return r
	}, s)
}

// Line returns s as one line without invisible characters: tabs, line
// breaks and Unicode's line and paragraph separators become spaces, so
// that a title cannot push text onto a line of its own.
func Line(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\u2028' || r == '\u2029':
			return ' '
		case Is(r):
			return -1
		}
		return r
	}, s)
}
