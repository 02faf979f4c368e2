// The scanners (ForEachMember, ForEachElement, Unquote, Duplicate) walk JSON text directly instead of unmarshalling it
// through reflection. The engine's request decoder uses it because requests
// are tiny and on every transport's hot path; and walking lets a reader
// reject a duplicated key, which encoding/json silently resolves to the
// last value. Every function here requires text that json.Valid has
// accepted.

package rawjson

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mobilemcp/mobilemcp/internal/text"
)

// ForEachMember calls fn with each member of the object raw, in order. The
// value is a sub-slice of raw. It reports false when raw is not an object.
func ForEachMember(raw []byte, fn func(key, value []byte)) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return false
	}
	i++
	for {
		i = skipSpace(raw, i)
		if raw[i] == '}' {
			return true
		}
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
		keyEnd := skipValue(raw, i)
		key := unquoteKey(raw[i:keyEnd])
		i = skipSpace(raw, keyEnd) + 1 // past the colon
		i = skipSpace(raw, i)
		valueEnd := skipValue(raw, i)
		fn(key, raw[i:valueEnd])
		i = valueEnd
	}
}

// ForEachElement calls fn with each element of the array raw. It reports
// false when raw is not an array.
func ForEachElement(raw []byte, fn func(index int, value []byte)) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return false
	}
	i++
	for n := 0; ; n++ {
		i = skipSpace(raw, i)
		if raw[i] == ']' {
			return true
		}
		if raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
		end := skipValue(raw, i)
		fn(n, raw[i:end])
		i = end
	}
}

// skipValue returns the index just past the value starting at raw[i].
func skipValue(raw []byte, i int) int {
	switch raw[i] {
	case '"':
		for i++; ; i++ {
			switch raw[i] {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				return i + 1
			}
		}
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch raw[i] {
			case '"':
				i = skipValue(raw, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	}
	// A number or a literal runs to the next delimiter.
	for i < len(raw) {
		switch raw[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// unquoteKey returns a key's text. Keys almost never contain escapes, so
// the common case is a sub-slice and the slow path is left to encoding/json.
func unquoteKey(quoted []byte) []byte {
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return inner
	}
	var s string
	json.Unmarshal(quoted, &s) // valid by precondition
	return []byte(s)
}

// Duplicate returns the path of the first member, at any depth of raw,
// whose key its object has already had, such as "params.name", or "" when
// there is none. Elements of arrays are written [i], as in "[0].method",
// and keys that are empty or hold dots, brackets, quotes or spaces are
// quoted, as in `params._meta."io.github.mobilemcp/request_id"`.
// skip, when not nil, is asked about each member's path before its value
// is walked; a true answer leaves the value unexamined.
func Duplicate(raw []byte, skip func(path string) bool) string {
	return duplicate(raw, "", skip)
}

func duplicate(raw []byte, path string, skip func(string) bool) string {
	var found string
	seen := map[string]bool{}
	walk := func(key string, value []byte) {
		if found != "" {
			return
		}
		if seen[key] {
			found = key
			return
		}
		seen[key] = true
		if skip == nil || !skip(key) {
			found = duplicate(value, key, skip)
		}
	}
	ForEachMember(raw, func(key, value []byte) {
		walk(join(path, asDecoded(key)), value)
	})
	ForEachElement(raw, func(i int, value []byte) {
		if found == "" {
			found = duplicate(value, path+"["+strconv.Itoa(i)+"]", skip)
		}
	})
	return found
}

// asDecoded is key as encoding/json decodes it, which is how the SDK will
// see it: each byte that is not valid UTF-8 becomes U+FFFD, so "\xcd" and
// "\xc5" are one key. (ForEachMember keeps the raw bytes, which the
// engine needs to refuse such a name.)
func asDecoded(key []byte) string {
	if utf8.Valid(key) {
		return string(key)
	}
	return string([]rune(string(key))) // one U+FFFD per invalid byte
}

// join appends key to path. A key that is empty or holds what a path uses
// is written quoted, so that every path names one place and is never "".
func join(path, key string) string {
	if key == "" || strings.ContainsAny(key, ".[]\" \t\r\n") {
		key = strconv.Quote(key)
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// Unquote returns the text of the JSON string raw when it holds no escape,
// the common case that needs no decoding; ok is false otherwise, and for
// anything but a string.
func Unquote(raw []byte) (text string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		return "", false
	}
	return string(inner), true
}

// IsAbsent reports a member that is missing (nil) or an explicit null.
func IsAbsent(raw []byte) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// Describe names the kind of the JSON value raw for a message, with a
// short excerpt of a string, number or boolean: "string \"abc\"", "an
// object", "null".
func Describe(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	kind := "number"
	switch raw[0] {
	case '"':
		kind = "string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		kind = "boolean"
	case 'n':
		return "null"
	}
	return kind + " " + text.Excerpt(string(raw))
}
