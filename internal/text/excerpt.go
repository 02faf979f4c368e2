// Excerpt shortens text that a message quotes back to its sender:
// a value of any length may arrive in a request, and a reply, a log line or
// a lint finding must stay readable and bounded.

package text

import "unicode/utf8"

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
