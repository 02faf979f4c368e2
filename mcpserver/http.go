package mcpserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// wrap puts the protections in front of the SDK's handler, behind the
// browser guard (guardPages): first with which credentials, decided on
// the headers alone; then the body, read within the read timeout and the
// size limit, and checked for members given twice; then what the SDK
// needs to see.
func (s *Server) wrap(sdk http.Handler) http.Handler {
	var want [sha256.Size]byte
	if s.opts.Token != "" {
		want = sha256.Sum256([]byte(s.opts.Token))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var client string
		switch {
		case s.opts.Token != "":
			if problem := authProblem(r, want); problem != nil {
				refuseAuth(w, problem)
				return
			}
			// There is one token, so its holders are one client. Nothing
			// derived from the token goes into logs.
			client = "token"
		case !arrivedOnLoopback(r):
			// Only Listen sees the bind address; this catches a handler
			// mounted on a public listener by other code.
			refuse(w, http.StatusForbidden, "Forbidden: this server has no token, so it only answers on loopback")
			return
		default:
			// Every loopback address is this machine, so its callers are
			// one client: 127.0.0.2 does not get a budget of its own.
			client = "loopback"
		}
		var body []byte
		if r.Method == http.MethodPost {
			var status int
			var problem string
			body, status, problem = s.readBody(w, r)
			if status != 0 {
				refuse(w, status, problem)
				return
			}
			// Invalid JSON is the SDK's to refuse.
			if json.Valid(body) {
				if path := rawjson.Duplicate(body, mcpwire.IsArguments); path != "" {
					refuseDuplicate(w, body, path)
					return
				}
				if status, reply := answerByVersion(r, body); reply != nil {
					writeJSON(w, status, reply)
					return
				}
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		normalizeAccept(r)
		r = r.WithContext(context.WithValue(r.Context(), clientKey{}, client))
		if body == nil {
			sdk.ServeHTTP(w, r)
			return
		}
		held := &unknownMethodWriter{ResponseWriter: w}
		sdk.ServeHTTP(held, r)
		held.finish(body)
	})
}

// refuse answers with an error and closes the connection after it, without
// reading what is left of the body. net/http would read up to 256 KiB of
// it, to keep the connection for another request; a client that sends a
// byte at a time makes that last as long as it likes, so the connection's
// read deadline is set to now.
func refuse(w http.ResponseWriter, status int, message string) {
	http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Connection", "close")
	http.Error(w, message, status)
}

// readBody reads r's body within the read timeout and the body limit. It
// returns the status and message of a refusal when it cannot.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) (body []byte, status int, problem string) {
	rc := http.NewResponseController(w)
	// Not supported outside net/http's server (a test's recorder), where
	// there is no connection to hold.
	rc.SetReadDeadline(time.Now().Add(s.opts.ReadTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	var tooLarge *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooLarge):
		return nil, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes", s.opts.MaxBodyBytes)
	case errors.As(err, &netErr) && netErr.Timeout():
		return nil, http.StatusRequestTimeout, fmt.Sprintf("Request Timeout: the body did not arrive within %s", s.opts.ReadTimeout)
	case err != nil:
		return nil, http.StatusBadRequest, "Bad Request: reading the body: " + err.Error()
	}
	// The call may take a minute; a deadline left on the connection would
	// end it as if the client had gone.
	rc.SetReadDeadline(time.Time{})
	return body, 0, ""
}

// refuseDuplicate answers a JSON-RPC message that gives the member at path
// twice with an Invalid Request error (duplicateError).
func refuseDuplicate(w http.ResponseWriter, body []byte, path string) {
	id, message := mcpwire.DuplicateError(body, path)
	writeRPCError(w, http.StatusBadRequest, id, -32600, message) // Invalid Request
}

// An authFailure is why a request's credentials were refused: what the
// 401's JSON-RPC error says, and the WWW-Authenticate error code (RFC 6750
// §3.1) when there is one.
type authFailure struct {
	message   string
	errorCode string // "invalid_token", "invalid_request", or "" for no credentials at all
}

// authProblem says why r does not carry the token whose SHA-256 is want, or
// nil when it does.
func authProblem(r *http.Request, want [sha256.Size]byte) *authFailure {
	header := r.Header.Get("Authorization")
	if header == "" {
		return &authFailure{message: "no token: this server needs the token it was started with; send it as the header Authorization: Bearer <token>"}
	}
	got, ok := bearer(r)
	if !ok {
		scheme, _, _ := strings.Cut(strings.TrimSpace(header), " ")
		if strings.EqualFold(scheme, "Bearer") {
			return &authFailure{errorCode: "invalid_request", message: "the Authorization header has no token after Bearer; send Authorization: Bearer <token>"}
		}
		return &authFailure{errorCode: "invalid_request",
			message: fmt.Sprintf("the Authorization header uses the %q scheme; send the token as Authorization: Bearer <token>", text.Excerpt(scheme))}
	}
	sum := sha256.Sum256([]byte(got))
	// Comparing hashes keeps the comparison constant-time even when the
	// lengths differ.
	if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
		return &authFailure{errorCode: "invalid_token",
			message: "wrong token: it is not the one this server was started with; copy it again (the phone app makes a new one each time its server is turned on)"}
	}
	return nil
}

// refuseAuth answers 401 with a JSON-RPC error that says what is wrong, so
// that an MCP client can show it, and a WWW-Authenticate challenge that
// names the error (a client that starts OAuth on any 401 sees
// invalid_token, not an invitation to register).
func refuseAuth(w http.ResponseWriter, f *authFailure) {
	challenge := `Bearer realm="mobilemcp"`
	if f.errorCode != "" {
		challenge += `, error="` + f.errorCode + `", error_description="` + strings.ReplaceAll(f.message, `"`, "'") + `"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Connection", "close")
	writeRPCError(w, http.StatusUnauthorized, nil, unauthorizedCode, "Unauthorized: "+f.message)
}

// unauthorizedCode is the JSON-RPC error code of a 401: one of the codes
// JSON-RPC 2.0 leaves to servers (-32000 to -32099).
const unauthorizedCode = -32001

// bearer returns the token of an "Authorization: Bearer <token>" header.
// The scheme is case-insensitive (RFC 9110 §11.1).
func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// normalizeAccept lets clients that accept only application/json through.
// The SDK insists on "application/json, text/event-stream" even in JSON
// mode, and some real clients send one type or none. This server only ever
// answers application/json, so adding the second type changes nothing in
// the reply. A client that accepts only text/event-stream still gets the
// SDK's 400: it would not accept the JSON this server sends.
func normalizeAccept(r *http.Request) {
	if r.Method != http.MethodPost {
		return
	}
	accept := strings.ToLower(strings.Join(r.Header.Values("Accept"), ","))
	if accept == "" || strings.Contains(accept, "application/json") || strings.Contains(accept, "application/*") || strings.Contains(accept, "*/*") {
		if !strings.Contains(accept, "text/event-stream") {
			r.Header.Set("Accept", "application/json, text/event-stream")
		}
	}
}

// clientKey carries the caller's identity from the HTTP layer to the tool
// handlers, which the SDK runs with the request's context.
type clientKey struct{}

// clientFrom returns "token" for a caller with the token and "loopback"
// when the server has no token: the identity the rate limit, the reply
// store and the call log use.
func clientFrom(ctx context.Context) string {
	id, _ := ctx.Value(clientKey{}).(string)
	return id
}

func arrivedOnLoopback(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true // not from a net/http server (a test calling ServeHTTP)
	}
	tcp, ok := local.(*net.TCPAddr)
	return !ok || tcp.IP.IsLoopback()
}

// answerByVersion answers what the request's protocol version settles
// otherwise than the SDK (see internal/mcpwire's versions.go): a batch in a version without
// batches, and ping in 2026-07-28. It returns a nil reply for everything
// else. The version is the MCP-Protocol-Version header, which 2025-03-26
// clients do not send, read as the SDK reads it. body is valid JSON.
func answerByVersion(r *http.Request, body []byte) (status int, reply []byte) {
	version := r.Header.Get("MCP-Protocol-Version")
	if version == "" {
		version = mcpwire.BatchVersion
	}
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '[' {
		if version != mcpwire.BatchVersion {
			return http.StatusBadRequest, mcpwire.ErrorResponse(nil, jsonrpc.CodeInvalidRequest, mcpwire.BatchRefusal("the body", version, "request"))
		}
		return 0, nil
	}
	if version < mcpwire.NewProtocolVersion {
		return 0, nil // the SDK answers ping itself
	}
	var method, id []byte
	rawjson.ForEachMember(body, func(key, value []byte) {
		switch string(key) {
		case "method":
			method = value
		case "id":
			id = value
		}
	})
	if string(method) == `"ping"` && id != nil && string(id) != "null" {
		return http.StatusOK, mcpwire.PingResult(id)
	}
	return 0, nil
}

// writeJSON answers with status and the JSON reply.
func writeJSON(w http.ResponseWriter, status int, reply []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(reply)
}
