package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// The MCP SDK answers a request for a method it does not know with HTTP 400
// and a text body ("JSON RPC not handled: ..."), which clients report as a
// transport failure. JSON-RPC 2.0 answers it with error -32601 instead; the
// SDK's own answer is the one place that knows which methods it handles, so
// this writer holds a 400 back until it has seen the body, and turns that
// one answer into the JSON-RPC error.

// methodNotFound is JSON-RPC 2.0's "Method not found" error code.
const methodNotFound = -32601

// notHandled starts the SDK's body for a method it does not handle.
var notHandled = []byte("JSON RPC not handled")

// unknownMethodWriter passes everything through but a 400, which it keeps
// for finish.
type unknownMethodWriter struct {
	http.ResponseWriter
	held bool
	body bytes.Buffer
}

func (u *unknownMethodWriter) WriteHeader(code int) {
	if code == http.StatusBadRequest {
		u.held = true
		return
	}
	u.ResponseWriter.WriteHeader(code)
}

func (u *unknownMethodWriter) Write(p []byte) (int, error) {
	if u.held {
		if u.body.Len() < 4096 { // a refusal is short; more is not kept
			u.body.Write(p)
		}
		return len(p), nil
	}
	return u.ResponseWriter.Write(p)
}

// Flush passes a flush through unless the answer is held.
func (u *unknownMethodWriter) Flush() {
	if f, ok := u.ResponseWriter.(http.Flusher); ok && !u.held {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (u *unknownMethodWriter) Unwrap() http.ResponseWriter { return u.ResponseWriter }

// finish sends what was held: for a request (it has an id) whose method the
// SDK does not handle, JSON-RPC's -32601 naming the method; otherwise the
// SDK's 400 as it was.
func (u *unknownMethodWriter) finish(request []byte) {
	if !u.held {
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if bytes.HasPrefix(u.body.Bytes(), notHandled) && json.Unmarshal(request, &msg) == nil && len(msg.ID) > 0 && string(msg.ID) != "null" {
		u.ResponseWriter.Header().Del("X-Content-Type-Options")
		// In the SDK's words for the same error over stdio, so that both
		// transports read alike.
		writeRPCError(u.ResponseWriter, http.StatusOK, msg.ID, methodNotFound, fmt.Sprintf("method not found: %q", text.Excerpt(msg.Method)))
		return
	}
	u.ResponseWriter.WriteHeader(http.StatusBadRequest)
	u.ResponseWriter.Write(u.body.Bytes())
}

// writeRPCError answers with status and a JSON-RPC error reply to the
// request id (nil for null: the request was not read), as every refusal
// the server makes itself is written.
func writeRPCError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(mcpwire.ErrorResponse(id, code, message))
}
