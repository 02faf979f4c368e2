package rawjson_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
)

func TestDuplicate(t *testing.T) {
	for _, tt := range []struct{ raw, want string }{
		{`{"a":1,"b":2}`, ""},
		{`{"a":1,"a":2}`, "a"},
		{`{"a":{"b":1,"c":{"d":1,"d":2}}}`, "a.c.d"},
		{`{"a":1,"\u0061":2}`, "a"}, // the same key, escaped
		{`[{"m":1},{"m":1,"m":2}]`, "[1].m"},
		{`{"p":{"args":{"x":1,"x":2}},"p2":{"y":1,"y":1}}`, "p2.y"}, // p.args skipped
		{`{"a":[1,{"b":0,"b":0}]}`, "a[1].b"},
		{`{"":0,"":1}`, `""`},
		{"{\"\xcd\":0,\"\xc5\":1}", "\ufffd"}, // encoding/json reads both as U+FFFD
		{`{"m":{"a.b":0,"a.b":1}}`, `m."a.b"`},
		{`"text"`, ""}, {`7`, ""}, {`{}`, ""}, {`[]`, ""},
	} {
		if got := rawjson.Duplicate([]byte(tt.raw), func(path string) bool { return path == "p.args" }); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.raw, got, tt.want)
		}
	}
}

// FuzzDuplicate holds Duplicate to a walk of encoding/json's tokens: on
// any valid JSON, it finds a key given twice in one object exactly when
// there is one.
func FuzzDuplicate(f *testing.F) {
	for _, seed := range []string{`{"a":1,"a":2}`, `[{"a":{"b":[1,{"c":0,"c":1}]}}]`, `{"a\u0062":1,"ab":2}`, `{"x":"}\"{","y":[]}`, `1`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return
		}
		want, err := hasDuplicate(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := rawjson.Duplicate(raw, nil); (got != "") != want {
			t.Fatalf("%q: Duplicate says %q; encoding/json finds a duplicate: %v", raw, got, want)
		}
	})
}

// hasDuplicate walks raw's tokens with encoding/json and reports whether
// some object has a key twice.
func hasDuplicate(raw []byte) (bool, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // 1E700 is valid JSON, beyond a float64
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("encoding/json: %w", err)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); !ok || d != '}' {
				key := tok.(string)
				if top.keys[key] {
					return true, nil
				}
				top.keys[key] = true
				top.key = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true // a value ended; a key comes next
		}
	}
}
