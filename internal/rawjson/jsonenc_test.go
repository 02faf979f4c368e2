package rawjson

import (
	"bytes"
	"encoding/json"
	"testing"
)

// stdlibString is what encoding/json writes for s without HTML escaping.
func stdlibString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

var stringCases = []string{
	"", "plain", `quote " and backslash \`, "tab\tnew\nline\rret", "\b\f\x00\x01\x1f\x7f",
	"<html> & 'x'", "emoji 😀 and € and ж", "\u2028\u2029", "bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate half",
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range stringCases {
		if got, want := AppendString(nil, s), stdlibString(s); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := AppendString(nil, s), stdlibString(s); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
	})
}
