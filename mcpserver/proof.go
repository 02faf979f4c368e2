package mcpserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
)

// ProofPath answers a challenge with proof that the server knows its token,
// without anyone sending the token: GET ProofPath?nonce=N returns
// Proof(token, N, port), port being the one the request arrived on. It
// stands behind the same Origin and Host checks as Path. A client such as 'mobilemcp adb connect' sends its token
// only to a server that proves it knows it already, so a program that took
// the port (another app on the phone, while the real server is off) never
// learns the token.
const ProofPath = Path + "/proof"

// Nonce lengths ProofPath accepts, in hex digits: 16 to 64 random bytes.
const (
	minNonceHex = 32
	maxNonceHex = 128
)

// Proof is the answer to nonce of a server whose token is token and that
// listens on port: the hex HMAC-SHA256 of a fixed label, the port and the
// nonce, keyed by the token. It reveals nothing of the token, and a server
// that does not know the token cannot make it. The port is the one the
// server accepted the challenge on, so a program on another port that
// passes the challenge on to the real server (a relay, on the phone) gets
// back the answer for the real server's port, which a client that asked
// its own port refuses.
func Proof(token, nonce string, port int) string {
	mac := hmac.New(sha256.New, []byte(token))
	fmt.Fprintf(mac, "mobilemcp token proof\x00%d\x00%s", port, nonce)
	return hex.EncodeToString(mac.Sum(nil))
}

// serveProof answers GET ProofPath. A server without a token has nothing to
// prove: 404.
func (s *Server) serveProof(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "use GET "+ProofPath+"?nonce=HEX", http.StatusMethodNotAllowed)
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
	w.Write([]byte(Proof(s.opts.Token, nonce, local.Port)))
}
