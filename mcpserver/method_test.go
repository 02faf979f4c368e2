package mcpserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// A method the server does not know is JSON-RPC's -32601 for that request,
// not an HTTP error that clients report as a broken transport; what else
// the SDK refuses stays as it answers it.
func TestAnUnknownMethodIsMethodNotFound(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	for _, tt := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"an unknown method", `{"jsonrpc":"2.0","id":5,"method":"foo/bar","params":{}}`, http.StatusOK,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"Method not found: foo/bar"}}` + "\n"},
		{"an unknown method, string id", `{"jsonrpc":"2.0","id":"a<b","method":"tools/frobnicate"}`, http.StatusOK,
			`{"jsonrpc":"2.0","id":"a<b","error":{"code":-32601,"message":"Method not found: tools/frobnicate"}}` + "\n"},
		{"a known method", `{"jsonrpc":"2.0","id":6,"method":"tools/list"}`, http.StatusOK, `"tools":[`},
		{"not JSON-RPC", `{"hello":1}`, http.StatusBadRequest, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, reply := s.post(nil, tt.body)
			if status != tt.status || !strings.Contains(reply, tt.want) {
				t.Errorf("HTTP %d %q; want %d with %q", status, reply, tt.status, tt.want)
			}
		})
	}
}
