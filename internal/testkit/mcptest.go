// PostMCP and Buffer are helpers for tests that talk to an MCP server over
// HTTP: the mcpserver tests, and those of the programs that embed it.

package testkit

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"sync"
)

// PostMCP sends one JSON-RPC message to an MCP endpoint with the headers every
// Streamable HTTP client sends, and a bearer token unless token is "". It
// uses a connection of its own, so a server stopped between two calls
// refuses the next one instead of the reuse failing on a dead connection.
func PostMCP(url, token, body string) (status int, reply string, err error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Close = true
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data), err
}

// Buffer is a bytes.Buffer that a server's goroutines may write while a
// test reads it, for a server's log or a command's output.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
