package mcpwire

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// ProofPath answers a challenge with proof that the server knows its token,
// without anyone sending the token: GET ProofPath?nonce=N returns
// Proof(token, N, port), port being the one the request arrived on. The MCP
// server answers it behind the same Origin and Host checks as Path. A
// client such as 'mobilemcp adb connect' sends its token only to a server
// that proves it knows it already, so a program that took the port
// (another app on the phone, while the real server is off) never learns
// the token.
const ProofPath = Path + "/proof"

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
