package mcpwire

import (
	"encoding/json"
	"fmt"

	"github.com/mobilemcp/mobilemcp/internal/text"
)

// What each protocol version allows that the SDK does not settle the way
// its spec says, on both transports:
//
//   - JSON-RPC batches exist in 2025-03-26 only: 2024-11-05 did not have
//     them and 2025-06-18 removed them. The SDK answers a batch in any
//     version over stdio (where it is never told the version) and refuses
//     one in a later version over HTTP with a text/plain 400 that clients
//     report as a broken connection. The server refuses it with JSON-RPC's
//     Invalid Request instead.
//   - ping is answered in every version. 2026-07-28 removed it, and the SDK
//     answers it there with "method not found", but hosts health-check
//     servers with it, and answering costs nothing.

// BatchVersion is the one protocol version that allows JSON-RPC batches.
const BatchVersion = "2025-03-26"

// NewProtocolVersion is the first version without initialize and ping, in
// which each request names its version (in _meta, and over HTTP in the
// MCP-Protocol-Version header).
const NewProtocolVersion = "2026-07-28"

// BatchRefusal says that a batch arrived in version, or before any version
// was agreed when version is "". where names the batch: "line 3", "the
// body". unit is what carries one message: "line", "request".
func BatchRefusal(where, version, unit string) string {
	if version == "" {
		return fmt.Sprintf("Invalid Request: %s is a batch, which is allowed only once initialize has agreed on protocol %s; send one message a %s", where, BatchVersion, unit)
	}
	return fmt.Sprintf("Invalid Request: %s is a batch, which protocol %s does not allow (only %s does); send one message a %s", where, text.Excerpt(version), BatchVersion, unit)
}

// PingResult is the answer to ping with id: an empty result.
func PingResult(id json.RawMessage) []byte {
	reply, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  struct{}        `json:"result"`
	}{"2.0", id, struct{}{}})
	return reply
}
