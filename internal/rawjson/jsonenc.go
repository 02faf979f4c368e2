// AppendString and AppendValue write the JSON of replies by hand, byte for byte as
// encoding/json writes it with HTML escaping off: every transport's reply
// goes through it, and appending to one buffer costs a fraction of
// marshalling through reflection.

package rawjson

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// AppendValue appends an output value's JSON to buf, as every transport
// writes output values. Common value types are written directly, a
// json.RawMessage as it is, and the rest through encoding/json, without
// HTML escaping.
func AppendValue(buf []byte, value any) ([]byte, error) {
	switch x := value.(type) {
	case string:
		buf = AppendString(buf, x)
	case int:
		buf = strconv.AppendInt(buf, int64(x), 10)
	case int64:
		buf = strconv.AppendInt(buf, x, 10)
	case bool:
		buf = strconv.AppendBool(buf, x)
	case nil:
		buf = append(buf, "null"...)
	case json.RawMessage:
		// Trusted as valid, like a json.Marshaler's output: handlers use it
		// for values they have already encoded.
		buf = append(buf, x...)
	default:
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			return buf, err
		}
		buf = append(buf, bytes.TrimSuffix(out.Bytes(), []byte("\n"))...)
	}
	return buf, nil
}

// AppendString appends s to buf as a JSON string, exactly as encoding/json
// writes it with HTML escaping off: quotes, backslashes and control
// characters escaped, U+2028 and U+2029 escaped (JavaScript treats them as
// line ends), and invalid UTF-8 replaced by U+FFFD.
func AppendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch b {
			case '"', '\\':
				buf = append(buf, '\\', b)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
