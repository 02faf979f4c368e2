package mcpserver_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

func TestCallResults(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	tests := []struct {
		name, tool, args string
		want             string
	}{
		{"send_sms returns the transcripts' text and its outputs", "send_sms",
			`{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}`,
			`{"content":[{"type":"text","text":"SMS sent to +33785880347"}],"structuredContent":{"to_phone_number":"+33785880347","subscription_id":14,"encoding":"gsm7","segments":1}}`},
		{"arguments as LLMs send them are coerced", "send_sms",
			`{"to_phone_number":"+36 20 123 4567","sms_text":"Szia, hogy vagy? Ő","subscription_id":"17"}`,
			`{"content":[{"type":"text","text":"SMS sent to +36201234567"}],"structuredContent":{"to_phone_number":"+36201234567","subscription_id":17,"encoding":"ucs2","segments":1}}`},
		{"get_sms_subscriptions returns the transcripts' JSON text", "get_sms_subscriptions", `{}`,
			`{"content":[{"type":"text","text":` + quote(subscriptionsText) + `}],"structuredContent":` + subscriptionsText + `}`},
		{"absent arguments are no arguments", "get_sms_subscriptions", `null`,
			`{"content":[{"type":"text","text":` + quote(subscriptionsText) + `}],"structuredContent":` + subscriptionsText + `}`},
		{"a bad number is an isError result with the code", "send_sms",
			`{"to_phone_number":"12","sms_text":"Hello world","subscription_id":14}`,
			`{"_meta":{"io.github.mobilemcp/error_code":"invalid_arguments"},"content":[{"type":"text","text":"invalid_arguments: to_phone_number \"12\" is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567"}],"isError":true}`},
		{"a missing subscription with two SIMs is explained", "send_sms",
			`{"to_phone_number":"+33785880347","sms_text":"Hello world"}`,
			`{"_meta":{"io.github.mobilemcp/error_code":"invalid_arguments"},"content":[{"type":"text","text":"invalid_arguments: subscription_id is required because 2 SIMs are active: 14 (slot 0, Vodafone UK), 17 (slot 1, Yettel HU); call get_sms_subscriptions and pass the subscription_id of the SIM to send from"}],"isError":true}`},
		{"a misspelt argument is rejected, not ignored", "send_sms",
			`{"to_phone_number":"+33785880347","sms_text":"Hi","subscription":17}`,
			`{"_meta":{"io.github.mobilemcp/error_code":"invalid_arguments"},"content":[{"type":"text","text":"invalid_arguments: send_sms: unknown argument \"subscription\"; known arguments: to_phone_number, sms_text, subscription_id"}],"isError":true}`},
		{"a duplicated argument is rejected", "send_sms",
			`{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14,"subscription_id":17}`,
			`{"_meta":{"io.github.mobilemcp/error_code":"invalid_request"},"content":[{"type":"text","text":"invalid_request: arguments: argument \"subscription_id\" is given twice"}],"isError":true}`},
		{"arguments that are not an object are rejected", "get_sms_subscriptions", `14`,
			`{"_meta":{"io.github.mobilemcp/error_code":"invalid_request"},"content":[{"type":"text","text":"invalid_request: arguments must be an object of arguments, got number 14"}],"isError":true}`},
		{"a radio failure is a platform_error", "send_sms",
			`{"to_phone_number":"+15555550100","sms_text":"Hi","subscription_id":14}`,
			`{"_meta":{"io.github.mobilemcp/error_code":"platform_error"},"content":[{"type":"text","text":"platform_error: SMS to +15555550100 failed: no service"}],"isError":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			result, rpcErr := s.call(tt.tool, tt.args)
			if rpcErr != "" || result != tt.want {
				t.Errorf("tools/call %s %s:\n got %s%s\nwant %s", tt.tool, tt.args, result, rpcErr, tt.want)
			}
		})
	}
	// Two successful sends and one radio failure reached the phone.
	if n := s.sends(); n != 3 {
		t.Errorf("outbox has %d records, want 3", n)
	}
}

func TestUnknownToolIsAJSONRPCError(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	result, rpcErr := s.call("send_mms", `{}`)
	if want := `{"code":-32602,"message":"unknown tool \"send_mms\""}`; result != "" || rpcErr != want {
		t.Errorf("got result %s error %s, want error %s", result, rpcErr, want)
	}
}

// panicky capabilities fail in the two places a panic can start: inside the
// handler, which the engine recovers, and while the result is encoded,
// outside the engine, which only the tool handler's own recover catches.
func panicky() []capability.Capability {
	return []capability.Capability{
		{ID: "boom", Description: "Panics in its handler.", Version: "1.0",
			Handler: func(context.Context, capability.Args) (capability.Result, error) { panic("handler exploded") }},
		{ID: "bad_output", Description: "Returns an output that panics when encoded.", Version: "1.0",
			Output: []capability.Param{{Name: "x", Type: capability.Object, Description: "x"}},
			Handler: func(context.Context, capability.Args) (capability.Result, error) {
				return capability.Result{Message: "ok", Output: []capability.Value{{Name: "x", Type: capability.Object, Value: explosive{}}}}, nil
			}},
		{ID: "unencodable", Description: "Returns an output JSON cannot hold.", Version: "1.0",
			Output: []capability.Param{{Name: "x", Type: capability.Object, Description: "x"}},
			Handler: func(context.Context, capability.Args) (capability.Result, error) {
				return capability.Result{Message: "ok", Output: []capability.Value{{Name: "x", Type: capability.Object, Value: make(chan int)}}}, nil
			}},
	}
}

type explosive struct{}

func (explosive) MarshalJSON() ([]byte, error) { panic("encoder exploded") }

func TestPanicsBecomeInternalErrors(t *testing.T) {
	s := startServer(t, mcpserver.Options{}, panicky()...)
	tests := []struct{ tool, want string }{
		{"boom", `{"_meta":{"io.github.mobilemcp/error_code":"internal_error"},"content":[{"type":"text","text":"internal_error: boom failed with an internal error: handler exploded"}],"isError":true}`},
		{"bad_output", `{"_meta":{"io.github.mobilemcp/error_code":"internal_error"},"content":[{"type":"text","text":"internal_error: bad_output failed with an internal error: encoder exploded"}],"isError":true}`},
		{"unencodable", `{"_meta":{"io.github.mobilemcp/error_code":"internal_error"},"content":[{"type":"text","text":"internal_error: unencodable returned the output \"x\" as a value that cannot be encoded as JSON: json: unsupported type: chan int"}],"isError":true}`},
	}
	for _, tt := range tests {
		result, rpcErr := s.call(tt.tool, `{}`)
		if result != tt.want {
			t.Errorf("%s:\n got %s%s\nwant %s", tt.tool, result, rpcErr, tt.want)
		}
	}
	// The server survived and still serves.
	if result, _ := s.call("get_sms_subscriptions", `{}`); !strings.Contains(result, `"count":2`) {
		t.Errorf("after the panics: %s", result)
	}
	if !strings.Contains(s.log.String(), `msg="recovered panic" where=bad_output panic="encoder exploded"`) {
		t.Errorf("the panic was not logged:\n%s", s.log.String())
	}
}

func TestCallLogHasOneLinePerCallAndNoArgumentValues(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	s.call("send_sms", `{"to_phone_number":"+33785880347","sms_text":"secret words","subscription_id":14}`)
	s.call("send_sms", `{"to_phone_number":"+33785880347","sms_text":"secret words"}`)
	s.call("nope", `{}`)
	s.call(strings.Repeat("x", 60_000), `{}`) // an unknown name is logged in short
	lines := strings.Split(strings.TrimSpace(s.log.String()), "\n")
	wants := []string{
		`level=INFO msg=tools/call client=loopback tool=send_sms outcome=ok duration=`,
		`level=INFO msg=tools/call client=loopback tool=send_sms outcome=invalid_arguments duration=`,
		`level=INFO msg=tools/call client=loopback tool=nope outcome=rpc_error:-32602 duration=`,
		`level=INFO msg=tools/call client=loopback tool=` + strings.Repeat("x", 40) + `… outcome=rpc_error:-32602 duration=`,
	}
	if len(lines) != len(wants) {
		t.Fatalf("%d log lines, want %d:\n%s", len(lines), len(wants), s.log.String())
	}
	for i, want := range wants {
		if !strings.HasPrefix(lines[i], "time=") || !strings.Contains(lines[i], want) {
			t.Errorf("line %d: %s\nwant it to contain %s", i+1, lines[i], want)
		}
	}
	if n := len(lines[3]); n > 300 {
		t.Errorf("the line of a 60,000-byte tool name is %d bytes", n)
	}
	if !strings.HasSuffix(lines[0], " arg_bytes=81") {
		t.Errorf("line 1 does not end with the argument size: %s", lines[0])
	}
	if log := s.log.String(); strings.Contains(log, "secret") || strings.Contains(log, "+33785880347") {
		t.Errorf("the log holds argument values:\n%s", log)
	}
}

func quote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// Text that is not Unicode (an invalid UTF-8 byte, half a surrogate pair)
// is refused naming the argument, never turned into U+FFFD and sent.
func TestTextThatIsNotUnicodeIsInvalidArguments(t *testing.T) {
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Off()})
	for _, tt := range []struct{ text, want string }{
		{`\ud800`, `sms_text holds \\ud800, half of a UTF-16 surrogate pair without the other half, which is not a character`},
		{`Hi \udc00`, `sms_text holds \\udc00, half of a UTF-16 surrogate pair without the other half, which is not a character`},
		{"H\xffi", `sms_text is not valid UTF-8: it holds the byte 0xff`},
	} {
		status, body := s.post(nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"`+tt.text+`","subscription_id":14}}}`)
		want := `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.github.mobilemcp/error_code":"invalid_arguments"},"content":[{"type":"text","text":"invalid_arguments: send_sms: ` + tt.want + `"}],"isError":true}}`
		if status != http.StatusOK || strings.TrimSpace(body) != want {
			t.Errorf("%q: HTTP %d\n got %s\nwant %s", tt.text, status, body, want)
		}
	}
	if n := s.sends(); n != 0 {
		t.Errorf("%d sends", n)
	}
}
