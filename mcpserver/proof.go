package mcpserver

import (
	"encoding/hex"
	"net"
	"net/http"

	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
)

// Nonce lengths mcpwire.ProofPath accepts, in hex digits: 16 to 64 random
// bytes.
const (
	minNonceHex = 32
	maxNonceHex = 128
)

// serveProof answers GET mcpwire.ProofPath. A server without a token has
// nothing to prove: 404.
func (s *Server) serveProof(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "use GET "+mcpwire.ProofPath+"?nonce=HEX", http.StatusMethodNotAllowed)
		return
	}
	if s.opts.Token == "" {
		http.Error(w, "this server has no token to prove", http.StatusNotFound)
		return
	}
	nonce := r.URL.Query().Get("nonce")
	if _, err := hex.DecodeString(nonce); err != nil || len(nonce) < minNonceHex || len(nonce) > maxNonceHex {
		http.Error(w, "nonce must be 32 to 128 hex digits", http.StatusBadRequest)
		return
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if !ok {
		// Not from a net/http server on TCP (a test calling ServeHTTP):
		// there is no port to prove.
		http.Error(w, "this server cannot tell the port the challenge arrived on", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(mcpwire.Proof(s.opts.Token, nonce, local.Port)))
}
