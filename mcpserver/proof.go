package mcpserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
)

// ProofPath answers a challenge with proof that the server knows its token,
// without anyone sending the token: GET ProofPath?nonce=N returns
// Proof(token, N). A client such as 'mobilemcp adb connect' sends its token
// only to a server that proves it knows it already, so a program that took
// the port (another app on the phone, while the real server is off) never
// learns the token.
const ProofPath = Path + "/proof"

// Nonce lengths ProofPath accepts, in hex digits: 16 to 64 random bytes.
const (
	minNonceHex = 32
	maxNonceHex = 128
)

// Proof is the answer to nonce of a server whose token is token: the hex
// HMAC-SHA256 of a fixed label and nonce, keyed by the token. It reveals
// nothing of the token, and a server that does not know the token cannot
// make it.
func Proof(token, nonce string) string {
	mac := hmac.New(sha256.New, []byte(token))
	mac.Write([]byte("mobilemcp token proof\x00" + nonce))
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
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write([]byte(Proof(s.opts.Token, nonce)))
}
