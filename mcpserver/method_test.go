package mcpserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// A method the server does not know is JSON-RPC's -32601 for that request,
// not an HTTP error that clients report as a broken transport, with the
// message the SDK gives it over stdio; what else the SDK refuses stays as it
// answers it.
func TestAnUnknownMethodIsMethodNotFound(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	for _, tt := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"an unknown method", `{"jsonrpc":"2.0","id":5,"method":"foo/bar","params":{}}`, http.StatusOK,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"method not found: \"foo/bar\""}}` + "\n"},
		{"an unknown method, string id", `{"jsonrpc":"2.0","id":"a<b","method":"tools/frobnicate"}`, http.StatusOK,
			`{"jsonrpc":"2.0","id":"a<b","error":{"code":-32601,"message":"method not found: \"tools/frobnicate\""}}` + "\n"},
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

// An agent sees the same error for an unknown method over either transport:
// over stdio the SDK answers it; over HTTP this server writes it, in the
// SDK's words.
func TestAnUnknownMethodReadsTheSameOverStdioAndHTTP(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	const call = `{"jsonrpc":"2.0","id":5,"method":"foo/bar","params":{}}`
	_, overHTTP := s.post(nil, call)
	c := serveStdio(t, s)
	c.send(stdioInit)
	c.reply()
	c.send(call)
	if overStdio := c.reply(); overHTTP != overStdio+"\n" {
		t.Errorf("over HTTP %s; over stdio %s", overHTTP, overStdio)
	}
}
