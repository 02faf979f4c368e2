package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// FuzzMCPHandler posts arbitrary bodies to the whole HTTP handler (token,
// Origin, body limit, Accept, the SDK, the engine) in process. Whatever
// arrives, the handler must not panic, and every answer must be a status
// the protocol allows with a body that matches it: JSON-RPC JSON for 200,
// nothing for 202.
func FuzzMCPHandler(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_sms_subscriptions","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"send_sms","_meta":{"io.github.mobilemcp/request_id":"r"},"arguments":{"to_phone_number":"x"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}`,
		`[{"jsonrpc":"2.0","id":6,"method":"ping"}]`, `{`, `null`, ``,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_sms_subscriptions","name":"send_sms","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"send_sms","arguments":{"sms_text":"a","sms_text":"b"}}}`,
	} {
		f.Add([]byte(seed))
	}
	phone, _ := simphone.New(simphone.DefaultConfig(), simphone.Options{})
	reg, _ := capability.NewRegistry(sms.Capabilities(phone)...)
	srv, err := mcpserver.New(capability.NewEngine(reg, capability.Options{}), mcpserver.Options{
		Addr: "127.0.0.1:9531", RateLimit: ratelimit.Off(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		f.Fatal(err)
	}
	handler := srv.Handler()
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9531}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:9531/mcp", bytes.NewReader(body))
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, loopback))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK:
			var msg struct {
				JSONRPC string          `json:"jsonrpc"`
				Result  json.RawMessage `json:"result"`
				Error   json.RawMessage `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &msg); err != nil || msg.JSONRPC != "2.0" || (msg.Result == nil) == (msg.Error == nil) {
				t.Fatalf("200 with a body that is not one JSON-RPC response: %q", rec.Body.String())
			}
		case http.StatusAccepted:
			if rec.Body.Len() != 0 {
				t.Fatalf("202 with a body: %q", rec.Body.String())
			}
		case http.StatusBadRequest:
			// A member given twice is refused with a JSON-RPC error; the
			// SDK's own 400s are plain text.
			if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
				var msg struct {
					Error *struct{ Code int } `json:"error"`
				}
				if json.Unmarshal(rec.Body.Bytes(), &msg) != nil || msg.Error == nil || msg.Error.Code != -32600 {
					t.Fatalf("400 with a JSON body that is not an Invalid Request error: %q", rec.Body.String())
				}
			}
		case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType:
		default:
			t.Fatalf("status %d for %q: %s", rec.Code, body, rec.Body.String())
		}
	})
}
