package capability_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/mobilemcp/mobilemcp/capability"
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
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := capability.DecodeRequest(data)
		if err != nil {
			var e *capability.Error
			if !errors.As(err, &e) || e.Code != capability.CodeInvalidRequest && e.Code != capability.CodeUnsupportedVersion {
				t.Fatalf("unexpected error %#v", err)
			}
			return
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

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		raw  string
		want string // the arguments re-encoded, or the error
	}{
		{``, `null`},
		{` null `, `null`},
		{`{}`, `null`}, // no arguments, like absent
		{`{"to_phone_number":"+33785880347","subscription_id":14}`, `{"subscription_id":14,"to_phone_number":"+33785880347"}`},
		{`"{\"sms_text\":\"Hi\"}"`, `{"sms_text":"Hi"}`},
		{`[{"name":"sms_text","type":"string","value":"Hi"}]`, `{"sms_text":"Hi"}`},
		{`{"subscription_id":14,"subscription_id":17}`, `invalid_request: arguments: argument "subscription_id" is given twice`},
		{`14`, `invalid_request: arguments must be an object of arguments, got number 14`},
		{`{"a":`, `invalid_request: arguments are not valid JSON`},
	}
	for _, tt := range tests {
		args, err := capability.DecodeArgs(json.RawMessage(tt.raw))
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			data, _ := json.Marshal(args)
			got = string(data)
		}
		if got != tt.want {
			t.Errorf("DecodeArgs(%s):\n got %s\nwant %s", tt.raw, got, tt.want)
		}
	}
}
