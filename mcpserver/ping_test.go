package mcpserver_test

import (
	"net/http"
	"testing"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// ping2026 is a ping as a 2026-07-28 client sends it: no initialize before
// it, and the version in _meta. That version removed ping, but hosts still
// health-check with it, so it is answered as in every other version.
const ping2026 = `{"jsonrpc":"2.0","id":2,"method":"ping","params":{` + meta2026 + `}}`

func TestHTTPAnswersPingInEveryVersion(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	for _, tt := range []struct {
		name    string
		headers map[string]string
		body    string
	}{
		{"2026-07-28",
			map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "ping"},
			ping2026},
		{"2025-11-25",
			map[string]string{"MCP-Protocol-Version": "2025-11-25"},
			`{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	} {
		h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		for k, v := range tt.headers {
			h[k] = v
		}
		status, body := s.post(h, tt.body)
		if want := `{"jsonrpc":"2.0","id":2,"result":{}}`; status != http.StatusOK || body != want {
			t.Errorf("%s: HTTP %d %s\nwant 200 %s", tt.name, status, body, want)
		}
	}
}
