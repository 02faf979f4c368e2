package mcpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"
)

// wrap puts the protections in front of the SDK's handler: first from
// which page the request comes, then with which credentials, then what the
// SDK needs to see.
func (s *Server) wrap(sdk http.Handler, origins originPolicy) http.Handler {
	var want [sha256.Size]byte
	if s.opts.Token != "" {
		want = sha256.Sum256([]byte(s.opts.Token))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !origins.allows(origin) {
			// A browser page from another site must never reach a tool
			// that sends SMS, whatever else the request carries.
			http.Error(w, fmt.Sprintf("Forbidden: Origin %q is not allowed", origin), http.StatusForbidden)
			return
		}
		var client string
		switch {
		case s.opts.Token != "":
			got, ok := bearer(r)
			sum := sha256.Sum256([]byte(got))
			// Comparing hashes keeps the comparison constant-time even
			// when the lengths differ.
			if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="mobilemcp"`)
				http.Error(w, "Unauthorized: send the server's token as Authorization: Bearer <token>", http.StatusUnauthorized)
				return
			}
			// There is one token, so its holders are one client. Nothing
			// derived from the token goes into logs.
			client = "token"
		case !arrivedOnLoopback(r):
			// Only Listen sees the bind address; this catches a handler
			// mounted on a public listener by other code.
			http.Error(w, "Forbidden: this server has no token, so it only answers on loopback", http.StatusForbidden)
			return
		default:
			client = "ip:" + remoteIP(r)
		}
		normalizeAccept(r)
		sdk.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, client)))
	})
}

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

// clientFrom returns "token" for a caller with the token and "ip:<address>"
// when the server has no token: the identity the rate limit and the call
// log use.
func clientFrom(ctx context.Context) string {
	id, _ := ctx.Value(clientKey{}).(string)
	return id
}

func remoteIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func arrivedOnLoopback(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return true // not from a net/http server (a test calling ServeHTTP)
	}
	tcp, ok := local.(*net.TCPAddr)
	return !ok || tcp.IP.IsLoopback()
}
