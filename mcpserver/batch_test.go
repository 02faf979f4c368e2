package mcpserver_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// batch is a JSON-RPC batch of a call, a notification and a ping.
const batch = `[{"jsonrpc":"2.0","id":"b1","method":"tools/call","params":{"name":"get_sms_subscriptions","arguments":{}}},` +
	`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"},` +
	`{"jsonrpc":"2.0","id":"b2","method":"ping"}]`

// batchReply is the one line that answers batch: its two requests, in
// their order, and nothing for the notification.
const batchReply = `[{"jsonrpc":"2.0","id":"b1","result":{"content":[{"type":"text","text":` + quotedSubscriptions +
	`}],"structuredContent":` + subscriptionsText + `}},{"jsonrpc":"2.0","id":"b2","result":{}}]`

// quotedSubscriptions is subscriptionsText as a JSON string.
const quotedSubscriptions = `"{\"count\":2,\"subscriptions\":[{\"subscription_id\":14,\"sim_slot_index\":0,\"carrier_name\":\"Vodafone UK\",\"display_name\":\"Vodafone UK\"},{\"subscription_id\":17,\"sim_slot_index\":1,\"carrier_name\":\"Yettel HU\",\"display_name\":\"Yettel HU\"}]}"`

// Over HTTP the version is the request's MCP-Protocol-Version header, which
// 2025-03-26 clients do not send: a batch without it, or with 2025-03-26, is
// answered, its replies in any order (JSON-RPC 2.0 allows it); with a
// later version it gets a JSON-RPC error a client can read, not the SDK's
// text/plain 400.
func TestHTTPBatchesFollowTheProtocolVersion(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	for _, tt := range []struct {
		version string
		status  int
		want    string
	}{
		{"", http.StatusOK, batchReply},
		{"2025-03-26", http.StatusOK, batchReply},
		{"2025-06-18", http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the body is a batch, which protocol 2025-06-18 does not allow (only 2025-03-26 does); send one message a request"}}`},
		{"2025-11-25", http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the body is a batch, which protocol 2025-11-25 does not allow (only 2025-03-26 does); send one message a request"}}`},
		{"2026-07-28", http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the body is a batch, which protocol 2026-07-28 does not allow (only 2025-03-26 does); send one message a request"}}`},
	} {
		headers := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		if tt.version != "" {
			headers["MCP-Protocol-Version"] = tt.version
		}
		status, body := s.post(headers, batch)
		if status != tt.status || inAnyOrder(body) != inAnyOrder(tt.want) {
			t.Errorf("version %q: HTTP %d %s\nwant %d %s", tt.version, status, body, tt.status, tt.want)
		}
	}
}

// inAnyOrder is a batch reply with its replies sorted, or a reply that is
// not a batch as it is.
func inAnyOrder(reply string) string {
	var replies []json.RawMessage
	if json.Unmarshal([]byte(reply), &replies) != nil {
		return strings.TrimSpace(reply)
	}
	sorted := make([]string, len(replies))
	for i, r := range replies {
		sorted[i] = string(r)
	}
	slices.Sort(sorted)
	return "[" + strings.Join(sorted, ",") + "]"
}
