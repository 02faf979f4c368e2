package sms

import (
	"fmt"
	"strings"
)

// E164Pattern is the JSON Schema pattern of a normalised phone number: a plus
// sign, a country code that does not start with 0, and 7 to 15 digits in all.
// The plus is a character class rather than an escaped \+ because the pattern
// also stands in the app's descriptor, an Android resource: the resource
// compilers read a backslash there as an escape of their own and drop it (aapt
// drops the plus too), so agents and the engine on the phone would read
// another pattern than the one written.
const E164Pattern = `^[+][1-9][0-9]{6,14}$`

// NormalizeNumber strips the spaces, dashes, dots and parentheses people
// write in phone numbers, then checks that what is left is E.164.
func NormalizeNumber(raw string) (string, error) {
	number := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '.', '(', ')', '\u00a0':
			return -1
		}
		return r
	}, raw)
	if !isE164(number) {
		return "", fmt.Errorf("%.40q is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567", raw)
	}
	return number, nil
}

func isE164(s string) bool {
	if len(s) < 8 || len(s) > 16 || s[0] != '+' || s[1] == '0' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
