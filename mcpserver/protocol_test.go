package mcpserver_test

import (
	"net/http"
	"testing"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// meta2026 is the _meta every 2026-07-28 request carries instead of an
// initialize handshake.
const meta2026 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"curl","version":"8"},"io.modelcontextprotocol/clientCapabilities":{}}`

func TestProtocol20260728WithPlainHTTP(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	serverInfo := `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"mobilemcp","title":"mobilemcp SMS","version":"` + mcpserver.Version() + `"}}`
	tests := []struct {
		name    string
		headers map[string]string
		body    string
		status  int
		want    string
	}{
		{"send_sms",
			map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "send_sms"},
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta2026 + `,"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}`,
			http.StatusOK,
			`{"jsonrpc":"2.0","id":2,"result":{` + serverInfo + `,"content":[{"type":"text","text":"SMS sent to +33785880347"}],"structuredContent":{"to_phone_number":"+33785880347","subscription_id":14,"encoding":"gsm7","segments":1},"resultType":"complete"}}`},
		{"a bad number",
			map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "send_sms"},
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{` + meta2026 + `,"name":"send_sms","arguments":{"to_phone_number":"0612","sms_text":"Hi","subscription_id":14}}}`,
			http.StatusOK,
			`{"jsonrpc":"2.0","id":3,"result":{"_meta":{"io.github.mobilemcp/error_code":"invalid_arguments","io.modelcontextprotocol/serverInfo":{"name":"mobilemcp","title":"mobilemcp SMS","version":"` + mcpserver.Version() + `"}},"content":[{"type":"text","text":"invalid_arguments: to_phone_number \"0612\" is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567"}],"isError":true,"resultType":"complete"}}`},
		{"without Mcp-Name",
			map[string]string{"Mcp-Method": "tools/call"},
			`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{` + meta2026 + `,"name":"send_sms","arguments":{}}}`,
			http.StatusBadRequest,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32020,"message":"missing required Mcp-Name header for method \"tools/call\""}}`},
		{"initialize does not exist",
			map[string]string{"Mcp-Method": "initialize"},
			`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{` + meta2026 + `,"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"curl","version":"8"}}}`,
			http.StatusNotFound,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"method not found: \"initialize\""}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28"}
			for k, v := range tt.headers {
				h[k] = v
			}
			status, body := s.post(h, tt.body)
			if status != tt.status || body != tt.want {
				t.Errorf("HTTP %d %s\nwant %d %s", status, body, tt.status, tt.want)
			}
		})
	}
}

func TestInitializeNegotiatesTheVersion(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	for _, tt := range []struct{ asked, got string }{
		{"2025-11-25", "2025-11-25"},
		{"2025-06-18", "2025-06-18"},
		{"2026-07-28", "2025-11-25"}, // initialize is the old handshake; 2026 clients skip it
		{"2099-01-01", "2025-11-25"},
	} {
		body := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + tt.asked + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		_, reply := s.post(map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}, body)
		want := `{"jsonrpc":"2.0","id":0,"result":{"capabilities":{"tools":{}},"protocolVersion":"` + tt.got + `","serverInfo":{"name":"mobilemcp","title":"mobilemcp SMS","version":"` + mcpserver.Version() + `"}}}`
		if reply != want {
			t.Errorf("asked %s:\n got %s\nwant %s", tt.asked, reply, want)
		}
	}
}
