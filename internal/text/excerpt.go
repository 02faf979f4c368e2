// Excerpt shortens text that a message quotes back to its sender:
// a value of any length may arrive in a request, and a reply, a log line or
// a lint finding must stay readable and bounded.

package text

import (
	"strconv"
	"unicode/utf8"
)

// ExcerptLimit is how many characters of a text Excerpt keeps.
const ExcerptLimit = 40

// Excerpt returns s shortened to its first ExcerptLimit characters (runes, so that a
// character is never cut in two), followed by "…" when it was cut. It is
// the one shortening every message of the engine, the descriptor linter
// and the servers uses.
func Excerpt(s string) string {
	if utf8.RuneCountInString(s) <= ExcerptLimit {
		return s
	}
	runes := []rune(s)
	return string(runes[:ExcerptLimit]) + "…"
}

// Quote returns s as a message quotes a value its sender chose, such as
// a reply's status: without invisible characters (StripInvisible), which
// Go's quoting would keep or spell out as escapes, shortened (Excerpt),
// and in double quotes, as %q writes them; followed by how many
// characters were removed, if any, so that a value that reads like a
// valid one is seen not to be.
func Quote(s string) string {
	seen := StripInvisible(s)
	q := strconv.Quote(Excerpt(seen))
	if hidden := utf8.RuneCountInString(s) - utf8.RuneCountInString(seen); hidden > 0 {
		q += " with " + Plural(hidden, "hidden character")
	}
	return q
}
