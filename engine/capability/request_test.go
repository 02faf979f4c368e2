package capability_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

func TestDecodeRequestRejectsDuplicateKeys(t *testing.T) {
	tests := []struct {
		request string
		want    string
	}{
		{`{"mobile-mcp-request":{"version":"1.0","request":{"id":"d1","capability":{"id":"echo","args":{"text":"a","text":"b"}}}}}`,
			`mobile-mcp-request.request.capability.args: argument "text" is given twice`},
		{`{"mobile-mcp-request":{"version":"1.0","request":{"id":"d2","id":"d3","capability":{"id":"echo"}}}}`,
			`mobile-mcp-request.request has "id" twice; send it once`},
		{`{"id":"d4","capability":{"id":"echo","id":"noargs"}}`,
			`capability has "id" twice; send it once`},
		{`{"mobile-mcp-request":{"version":"1.0","version":"2.0","request":{}}}`,
			`mobile-mcp-request has "version" twice; send it once`},
	}
	for _, tt := range tests {
		_, err := capability.DecodeRequest([]byte(tt.request))
		var e *capability.Error
		if !errors.As(err, &e) || e.Code != capability.CodeInvalidRequest || e.Message != tt.want {
			t.Errorf("%s:\n got %v\nwant %s", tt.request, err, tt.want)
		}
	}
}

func TestDecodeRequestToleratesLayout(t *testing.T) {
	// Whitespace everywhere, escaped keys, unknown members and values full of
	// brackets and quotes must not confuse the scanner.
	request := " \n{ \"mobile-mcp-request\" : { \"trace\" : [1,{\"x\":\"]}\"}], \"version\":\"1.0\" ,\"request\":{\"capability\":{\"\\u0069d\":\"echo\",\"args\":{ \"text\" : \"a\\\"}]{\" , \"meta\":{\"k\":[\"}\",\"{\"]}}},\"id\":\"w1\"}}}\t"
	req, err := capability.DecodeRequest([]byte(request))
	if err != nil {
		t.Fatal(err)
	}
	if req.ID != "w1" || req.CapabilityID != "echo" || string(req.Args["text"]) != `"a\"}]{"` || string(req.Args["meta"]) != `{"k":["}","{"]}` {
		t.Errorf("decoded %+v args %q", req, req.Args)
	}
}

// FuzzDecodeRequest checks that decoding never panics, and that whatever the
// scanner reads agrees with encoding/json on the same text.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"mobile-mcp-request":{"version":"1.0","request":{"id":"r","capability":{"id":"send_sms","args":{"to_phone_number":"+33785880347","sms_text":"Hi"}}}}}`,
		`{"mobile-mcp-request":{"version":"1.0","request":{"id":"r","capability":{"id":"x","input":[{"name":"a","type":"string","value":"b"}]}}}}`,
		`{"id":"p","capability":{"id":"send_sms","input":"{\"sms_text\":\"x\"}"}}`,
		`{"version":"1.0","request":{"id":"u","capability":{"id":"x"}}}`,
		`{"id":"e","capability":{"\u0069d":"x","args":{"a":[1,{"b":"]"}]}}}`,
		`[]`, `null`, `{"mobile-mcp-request":null}`, "{\"id\":\"\xff\"}",
		`{"id":"\ud83d\ude00","capability":{"id":"x","input":"{\"a\":\"\\ud800\"}"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := capability.DecodeRequest(data)
		if err != nil {
			var e *capability.Error
			if !errors.As(err, &e) || e.Code != capability.CodeInvalidRequest && e.Code != capability.CodeUnsupportedVersion && e.Code != capability.CodeInvalidArguments {
				t.Fatalf("unexpected error %#v", err)
			}
			return
		}
		if !utf8.ValidString(req.ID) || !utf8.ValidString(req.CapabilityID) {
			t.Fatalf("decoded an id that is not UTF-8: %q %q", req.ID, req.CapabilityID)
		}
		var ref map[string]any
		if json.Unmarshal(data, &ref) != nil {
			t.Fatalf("decoded text encoding/json rejects: %q", data)
		}
		body := ref
		if req.Shape == capability.ShapeSpec {
			if env, ok := ref["mobile-mcp-request"].(map[string]any); ok {
				ref = env
			}
			body, _ = ref["request"].(map[string]any)
		}
		if body["id"] != req.ID {
			t.Fatalf("id %q, encoding/json reads %v", req.ID, body["id"])
		}
		c, _ := body["capability"].(map[string]any)
		if c["id"] != req.CapabilityID {
			t.Fatalf("capability id %q, encoding/json reads %v", req.CapabilityID, c["id"])
		}
		if args, ok := c["args"].(map[string]any); ok {
			for name, raw := range req.Args {
				var got any
				if json.Unmarshal(raw, &got) != nil {
					t.Fatalf("argument %s is not JSON: %q", name, raw)
				}
				want, _ := json.Marshal(args[name])
				have, _ := json.Marshal(got)
				if string(want) != string(have) {
					t.Fatalf("argument %s = %s, encoding/json reads %s", name, have, want)
				}
			}
		}
	})
}

// TestCallRawArgsAreDecodedLikeARequestsArgs: a transport that decoded its
// request itself (an MCP tools/call) hands the engine the arguments as it
// received them, and they are read in the same layouts, and refused the
// same way, as a Mobile-MCP request's.
func TestToolCallArgsAreDecodedLikeARequestsArgs(t *testing.T) {
	eng := newTestEngine(t)
	tests := []struct{ name, raw, want string }{
		{"an object", `{"text":"hi","count":3}`, `{"id":"a1","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"count":3,"text":"hi"}}]},"status":"success","message":"echo a1"}`},
		{"a string holding one", `"{\"text\":\"hi\"}"`, `{"id":"a1","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"text":"hi"}}]},"status":"success","message":"echo a1"}`},
		{"the spec prose's list", `[{"name":"text","type":"string","value":"hi"}]`, `{"id":"a1","capability":{"id":"echo","output":[{"name":"args","type":"object","value":{"text":"hi"}}]},"status":"success","message":"echo a1"}`},
		{"a name given twice", `{"text":"a","text":"b"}`, `{"id":"a1","capability":{"id":"echo"},"status":"failure","message":"arguments: argument \"text\" is given twice","error_code":"invalid_request"}`},
		{"not JSON", `{"text":`, `{"id":"a1","capability":{"id":"echo"},"status":"failure","message":"arguments are not valid JSON","error_code":"invalid_request"}`},
		{"null, with a required argument", `null`, `{"id":"a1","capability":{"id":"echo"},"status":"failure","message":"echo: text is required (string: a short text)","error_code":"invalid_arguments"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply := eng.Do(context.Background(), capability.NewToolCall("a1", "echo", json.RawMessage(tt.raw), capability.Caller{}, nil))
			if got := string(reply.FlatJSON()); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestTextMustBeUnicode: an argument that is not Unicode text is refused
// naming it, and a field the decoder reads (an id) likewise, instead of
// being read as U+FFFD. A surrogate pair written as two escapes is one
// character, and an escaped backslash before a u is not an escape.
func TestTextMustBeUnicode(t *testing.T) {
	eng := newTestEngine(t)
	tests := []struct{ name, text, want string }{
		{"a surrogate pair", `"\ud83d\ude00"`, `"status":"success"`},
		{"a pair in capitals", `"\uD83D\uDE00"`, `"status":"success"`},
		{"an escaped backslash before u", `"\\ud8"`, `"status":"success"`},
		{"U+FFFD itself", `"\ufffd"`, `"status":"success"`},
		{"a lone high half", `"a\ud800"`, `"message":"echo: text holds \\ud800, half of a UTF-16 surrogate pair without the other half, which is not a character","error_code":"invalid_arguments"`},
		{"a lone low half", `"\udfff"`, `"message":"echo: text holds \\udfff, half of a UTF-16 surrogate pair without the other half, which is not a character","error_code":"invalid_arguments"`},
		{"two high halves", `"\ud800\ud800"`, `"message":"echo: text holds \\ud800, half of a UTF-16 surrogate pair without the other half, which is not a character","error_code":"invalid_arguments"`},
		{"a high half before a letter", `"\ud800\u0041"`, `"message":"echo: text holds \\ud800, half of a UTF-16 surrogate pair without the other half, which is not a character","error_code":"invalid_arguments"`},
		{"an invalid byte", "\"a\xffb\"", `"message":"echo: text is not valid UTF-8: it holds the byte 0xff","error_code":"invalid_arguments"`},
		{"UTF-8 of a surrogate", "\"\xed\xa0\x80\"", `"message":"echo: text is not valid UTF-8: it holds the byte 0xed","error_code":"invalid_arguments"`},
		{"in a nested object", "{\"k\":\"\\udc00\"}", `"message":"echo: text holds \\udc00, half of a UTF-16 surrogate pair without the other half, which is not a character; meta holds \\udc00, half of a UTF-16 surrogate pair without the other half, which is not a character","error_code":"invalid_arguments"`},
	}
	for _, tt := range tests {
		args := `{"text":` + tt.text + `}`
		if strings.HasPrefix(tt.text, "{") {
			args = `{"text":"\udc00","meta":` + tt.text + `}`
		}
		got := string(eng.Do(context.Background(), capability.NewCall([]byte(spec(`{"id":"u","capability":{"id":"echo","args":`+args+`}}`)), capability.Caller{}, nil)).JSON())
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s: %s\nwant it to contain %s", tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct{ name, request, want string }{
		{"an invalid byte in the id", "{\"id\":\"\xff\",\"capability\":{\"id\":\"echo\"}}",
			`{"id":null,"status":"failure","message":"id is not valid UTF-8: it holds the byte 0xff","error_code":"invalid_request"}`},
		{"a lone half in the id", spec(`{"id":"a\ud800","capability":{"id":"echo"}}`),
			specReply(`{"id":null,"status":"failure","message":"mobile-mcp-request.request.id holds \\ud800, half of a UTF-16 surrogate pair without the other half, which is not a character","error_code":"invalid_request"}`)},
		{"an invalid byte in an ignored member", "{\"id\":\"i\",\"note\":\"\xff\",\"capability\":{\"id\":\"noargs\"}}",
			specReply(`{"id":null,"status":"failure","message":"request has a member that is not valid UTF-8","error_code":"invalid_request"}`)},
		{"an invalid byte in an argument name", spec("{\"id\":\"n\",\"capability\":{\"id\":\"echo\",\"args\":{\"te\xffxt\":\"a\"}}}"),
			specReply(`{"id":"n","capability":{"id":"echo"},"status":"failure","message":"mobile-mcp-request.request.capability.args: an argument name is not valid UTF-8; names are text, such as \"sms_text\"","error_code":"invalid_arguments"}`)},
		{"a lone half in arguments sent as a string", `{"id":"s","capability":{"id":"echo","input":"{\"text\":\"\ud800\"}"}}`,
			`{"id":"s","capability":{"id":"echo"},"status":"failure","message":"capability.input is a string of arguments that holds \\ud800, half of a UTF-16 surrogate pair without the other half, which is not a character","error_code":"invalid_arguments"}`},
	} {
		if got := string(eng.Do(context.Background(), capability.NewCall([]byte(tt.request), capability.Caller{}, nil)).JSON()); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// FuzzUnicodeText holds the engine's Unicode check to encoding/json's
// decoding: on text without U+FFFD of its own (neither the character nor
// its escape), a string argument is accepted exactly when encoding/json
// decodes it without putting U+FFFD in its place.
func FuzzUnicodeText(f *testing.F) {
	for _, seed := range []string{`"a"`, `"\ud800"`, `"\ud83d\ude00"`, `"\\ud800"`, "\"\xff\"", `"\ud800\u0041"`, `"\udc00\ud800"`, `"\u00e9\\\ud800"`} {
		f.Add([]byte(seed))
	}
	reg, err := capability.NewRegistry(capability.Capability{ID: "t", Version: "1", Input: []capability.Param{{Name: "s", Type: capability.String}}})
	if err != nil {
		f.Fatal(err)
	}
	c, _ := reg.Lookup("t")
	f.Fuzz(func(t *testing.T, raw []byte) {
		// The decoder hands Bind a string value as it is written, from its
		// opening quote to its closing one.
		raw = bytes.TrimSpace(raw)
		var s string
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return
		}
		lower := strings.ToLower(string(raw))
		if strings.Contains(lower, `ufffd`) || strings.Contains(string(raw), "\ufffd") {
			return
		}
		_, err := c.Bind(map[string]json.RawMessage{"s": raw})
		if replaced := strings.ContainsRune(s, utf8.RuneError); replaced != (err != nil) {
			t.Fatalf("%q: encoding/json replaced a character: %v; Bind: %v", raw, replaced, err)
		}
	})
}
