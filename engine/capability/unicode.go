package capability

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// unicodeProblem says why the JSON text raw, which json.Valid accepts,
// does not hold valid Unicode text, or returns "". encoding/json turns an
// invalid UTF-8 byte and a \u escape of half a surrogate pair into U+FFFD
// without a word, so a text that is not what its sender meant would be
// sent; the engine refuses it instead.
func unicodeProblem(raw []byte) string {
	if !utf8.Valid(raw) {
		for i := 0; i < len(raw); {
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				return fmt.Sprintf("is not valid UTF-8: it holds the byte 0x%02x", raw[i])
			}
			i += size
		}
	}
	for i := bytes.IndexByte(raw, '\\'); i >= 0 && i+1 < len(raw); {
		next := i + 2 // past the escape; \\ cannot start another
		if raw[i+1] == 'u' {
			r := escapedRune(raw[i+2 : i+6])
			next = i + 6
			switch {
			case utf16.IsSurrogate(r) && r < 0xdc00 && next+6 <= len(raw) && raw[next] == '\\' && raw[next+1] == 'u' &&
				utf16.DecodeRune(r, escapedRune(raw[next+2:next+6])) != utf8.RuneError:
				next += 6 // a high half followed by its low half: one character
			case utf16.IsSurrogate(r):
				return fmt.Sprintf(`holds \u%04x, half of a UTF-16 surrogate pair without the other half, which is not a character`, r)
			}
		}
		j := bytes.IndexByte(raw[next:], '\\')
		if j < 0 {
			break
		}
		i = next + j
	}
	return ""
}

// escapedRune reads the four hex digits of a \u escape that json.Valid
// has accepted.
func escapedRune(hex []byte) rune {
	n, _ := strconv.ParseUint(string(hex), 16, 16)
	return rune(n)
}
