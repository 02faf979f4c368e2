// The invisible characters: IsInvisible, HasInvisible, StripInvisible and
// InvisibleLine find and remove the characters that change what a model
// reads without being seen. A model reads every character of a tool's
// title, description and messages; a person reads what a font draws. So a
// tool that another app shares can carry instructions that the user who
// shares it never sees: spelt in tag characters, or in variation selectors
// (one per half byte), or hidden behind bidirectional controls, zero-width
// characters or blank fillers. The blank spaces of other widths (U+2000 to
// U+200A, U+205F, U+3000) are seen as spaces, but which of them stands
// where can carry data too: in free text each becomes a plain space, and
// a name, an id, a pattern or an error code holding one is refused
// (IndexUnseen), as one holding an invisible character is.
//
// They are the one filter for every string that reaches a model from a tool:
// the MCP tool conversion (descriptor.NewTool) runs them on titles and
// descriptions, the MCP server on every string of every answer it writes
// out (its door, whatever made the string), and the
// Android client library on what it hands an assistant, with a table this
// package generates (see InvisibleRanges).

package text

import (
	"strings"
	"unicode"
)

// hidden are the characters IsInvisible reports, besides tab and newline.
var hidden = []*unicode.RangeTable{
	// Format characters: bidirectional controls, zero-width characters,
	// the tag characters U+E0001 and U+E0020 to U+E007F, soft hyphens.
	unicode.Cf,
	// Control characters.
	unicode.Cc,
	// Variation selectors: U+FE00 to U+FE0F, U+E0100 to U+E01EF and the
	// Mongolian ones. Each may follow any character and shows nothing.
	unicode.Variation_Selector,
	// The other characters Unicode says to draw as nothing: the Hangul
	// fillers U+115F, U+1160, U+3164 and U+FFA0, the combining grapheme
	// joiner, and the unassigned rest of the tag block.
	unicode.Other_Default_Ignorable_Code_Point,
	// Private use: a font draws them as it likes, often not at all.
	unicode.Co,
	// The blank Braille pattern, which draws as a space but is not one.
	{R16: []unicode.Range16{{Lo: 0x2800, Hi: 0x2800, Stride: 1}}},
}

// blank are the spaces of other widths that IsBlank reports. The
// no-break spaces U+00A0 and U+202F are not among them: text needs them
// (French puts one before a colon), and each has one width.
var blank = &unicode.RangeTable{R16: []unicode.Range16{
	{Lo: 0x2000, Hi: 0x200A, Stride: 1}, // en quad to hair space
	{Lo: 0x205F, Hi: 0x205F, Stride: 1}, // medium mathematical space
	{Lo: 0x3000, Hi: 0x3000, Stride: 1}, // ideographic space
}}

// IsBlank reports whether r is a blank space of another width than a plain
// space's, which StripInvisible and InvisibleLine turn into a plain space.
func IsBlank(r rune) bool { return unicode.Is(blank, r) }

// IsUnseen reports whether r has no place in a name, an id, a pattern or
// an error code, which a model reads as they are and which are never
// cleaned: an invisible character, tab and newline included, or a blank
// space (IsBlank), which reads as the name's end.
func IsUnseen(r rune) bool { return unicode.IsOneOf(hidden, r) || IsBlank(r) }

// IndexUnseen returns the index in s of the first character IsUnseen
// reports, or -1 when s has none: a name holding one must be refused, not
// cleaned, because it is sent back to the app as it was declared.
func IndexUnseen(s string) int { return strings.IndexFunc(s, IsUnseen) }

// IsInvisible reports whether r is invisible: a character of the kinds above, other
// than tab and newline, which a description may use to lay itself out.
func IsInvisible(r rune) bool {
	return r != '\t' && r != '\n' && unicode.IsOneOf(hidden, r)
}

// HasInvisible reports whether s holds an invisible character.
func HasInvisible(s string) bool { return strings.IndexFunc(s, IsInvisible) >= 0 }

// StripInvisible returns s without its invisible characters, and with a
// plain space for each blank space (IsBlank).
func StripInvisible(s string) string {
	if strings.IndexFunc(s, strips) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case IsBlank(r):
			return ' '
		case IsInvisible(r):
			return -1
		}
		return r
	}, s)
}

// strips reports whether StripInvisible changes r.
func strips(r rune) bool { return IsInvisible(r) || IsBlank(r) }

// InvisibleLine returns s as one line without invisible characters: tabs, line
// breaks, Unicode's line and paragraph separators and the blank spaces
// become plain spaces, so that a title cannot push text onto a line of its
// own.
func InvisibleLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\u2028' || r == '\u2029' || IsBlank(r):
			return ' '
		case IsInvisible(r):
			return -1
		}
		return r
	}, s)
}

// InvisibleRange is a run of invisible characters, from Lo to Hi inclusive.
type InvisibleRange struct{ Lo, Hi rune }

// InvisibleRanges lists every invisible character, in order, as the fewest runs:
// the table a filter in another language takes, so that it removes what
// this one does (the client library's is generated from it, and checked
// by this package's tests).
func InvisibleRanges() []InvisibleRange { return runs(IsInvisible) }

// BlankRanges lists the blank spaces (IsBlank) as the fewest runs, for a
// filter in another language as InvisibleRanges does.
func BlankRanges() []InvisibleRange { return runs(IsBlank) }

// runs lists the characters is reports, in order, as the fewest runs.
func runs(is func(rune) bool) []InvisibleRange {
	var out []InvisibleRange
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !is(r) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Hi == r-1 {
			out[n-1].Hi = r
		} else {
			out = append(out, InvisibleRange{r, r})
		}
	}
	return out
}
