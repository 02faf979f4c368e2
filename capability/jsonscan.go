package capability

import (
	"bytes"
	"encoding/json"
)

// The request decoder walks the request's JSON text directly instead of
// unmarshalling it through reflection: requests are tiny and on every
// transport's hot path, and walking lets the decoder reject a duplicated key,
// which encoding/json silently resolves to the last value. Every function
// here requires text that json.Valid has accepted.

// forEachMember calls fn with each member of the object raw, in order. The
// value is a sub-slice of raw. It reports false when raw is not an object.
func forEachMember(raw []byte, fn func(key, value []byte)) bool {
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

// forEachElement calls fn with each element of the array raw. It reports
// false when raw is not an array.
func forEachElement(raw []byte, fn func(index int, value []byte)) bool {
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
