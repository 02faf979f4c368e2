package mcpserver

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/text"
)

// The door filters every string of a JSON-RPC answer, member names and
// escaped characters included, keeps the message's id as the client sent
// it, and leaves the rest as it was but for spaces between tokens.
func TestTheDoorFiltersEveryStringButTheID(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"nothing to filter", `{"jsonrpc":"2.0","id":1,"result":{"a":[1,true,null,"x\n"]}}`, `{"jsonrpc":"2.0","id":1,"result":{"a":[1,true,null,"x\n"]}}`},
		{"raw characters", "{\"id\":1,\"result\":{\"text\":\"a\u200bb\U000E0041\u2003c\"}}", `{"id":1,"result":{"text":"ab c"}}`},
		{"escaped characters", `{"id":1,"result":{"text":"a\u200bb\ud83d\ude00\r\u2003c"}}`, "{\"id\":1,\"result\":{\"text\":\"ab\U0001F600 c\"}}"},
		{"member names", "{\"id\":1,\"result\":{\"se\uFE0Fcret\":{\"k\\u2800\":2}}}", `{"id":1,"result":{"secret":{"k":2}}}`},
		{"the client's id", "{\"id\":\"r\u200b1\",\"error\":{\"code\":-32602,\"message\":\"no\u200b\"}}", "{\"id\":\"r\u200b1\",\"error\":{\"code\":-32602,\"message\":\"no\"}}"},
		{"an id that is not the message's", "{\"id\":1,\"result\":{\"id\":\"b\u200b\",\"x\":[{\"id\":\"c\u200b\"}]}}", `{"id":1,"result":{"id":"b","x":[{"id":"c"}]}}`},
		{"a batch", "[{\"id\":\"a\u200b\",\"result\":{}}, {\"id\":2,\"result\":{\"id\":\"b\u200b\"}}]", "[{\"id\":\"a\u200b\",\"result\":{}},{\"id\":2,\"result\":{\"id\":\"b\"}}]"},
		{"spaces between tokens", " { \"id\" : 1 , \"x\" : [ \"\u200b\" ] }\n", "{\"id\":1,\"x\":[\"\"]}\n"},
		{"not JSON, filtered as text", "{\"a\":\"b\u200b", "{\"a\":\"b"},
		{"DEL, which JSON holds as it is, alone in an ASCII message", "{\"id\":1,\"result\":{\"body\":\"a\x7fb\"}}", `{"id":1,"result":{"body":"ab"}}`},
		{"a raw control character is not JSON", "{\"\\b\":\"\x1b\"}", "{\"\\b\":\"\"}"},
		{"bytes that are not UTF-8", "{\"a\":\"b\xff\u200b\"}", "{\"a\":\"b\uFFFD\"}"},
	} {
		if got := string(cleanJSON([]byte(tt.in))); got != tt.want {
			t.Errorf("%s: cleanJSON(%s) = %s; want %s", tt.name, tt.in, got, tt.want)
		}
	}
}

// FuzzCleanJSON checks the door on any body: nothing panics, and valid
// JSON stays valid, keeps nothing a person does not see outside the
// message's id, and a second pass changes nothing.
func FuzzCleanJSON(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a\u200bb"}]}}`,
		"{\"id\":\"x\u200b\",\"error\":{\"code\":1,\"message\":\"m\uFE0F\"}}",
		`[{"id":1,"result":{}},{"id":2,"result":{"k\u2800":[1,2.5e3,true,null]}}]`,
		"\"\U000E0041\"", `{"a":"\ud800"}`, `{`, `nul`, "",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		out := cleanJSON(body)
		if !json.Valid(body) {
			return // filtered as text
		}
		if again := cleanJSON(out); !bytes.Equal(again, out) {
			t.Fatalf("a second pass changed %q to %q", out, again)
		}
		if !json.Valid(out) {
			t.Fatalf("cleanJSON(%q) = %q, not JSON", body, out)
		}
		var v any
		json.Unmarshal(out, &v)
		if m, ok := v.(map[string]any); ok {
			delete(m, "id")
		}
		if a, ok := v.([]any); ok {
			for _, e := range a {
				if m, ok := e.(map[string]any); ok {
					delete(m, "id")
				}
			}
		}
		if s := unseen(v); s != "" {
			t.Fatalf("cleanJSON(%q) = %q keeps %+q", body, out, s)
		}
	})
}

// unseen returns the first string of v, a decoded JSON value, member names
// included, that holds a character a person does not see; "" if none does.
func unseen(v any) string {
	switch v := v.(type) {
	case string:
		if strings.IndexFunc(v, func(r rune) bool { return text.IsInvisible(r) || text.IsBlank(r) }) >= 0 {
			return v
		}
	case []any:
		for _, e := range v {
			if s := unseen(e); s != "" {
				return s
			}
		}
	case map[string]any:
		for k, e := range v {
			if s := unseen(k); s != "" {
				return s
			}
			if s := unseen(e); s != "" {
				return s
			}
		}
	}
	return ""
}
