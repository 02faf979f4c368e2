// Package excerpt shortens text that a message quotes back to its sender:
// a value of any length may arrive in a request, and a reply, a log line or
// a lint finding must stay readable and bounded.
package excerpt

import "unicode/utf8"

// Limit is how many characters of a text Of keeps.
const Limit = 40

// Of returns s shortened to its first Limit characters (runes, so that a
// character is never cut in two), followed by "…" when it was cut. It is
// the one shortening every message of the engine, the descriptor linter
// and the servers uses.
func Of(s string) string {
	if utf8.RuneCountInString(s) <= Limit {
		return s
	}
	runes := []rune(s)
	return string(runes[:Limit]) + "…"
}
