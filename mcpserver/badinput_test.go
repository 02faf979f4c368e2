package mcpserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// TestBadInputCatalogOverMCP sends the catalogued bad requests that MCP can
// carry, those whose envelope is sound and whose fault is in the capability
// or its arguments, as tools/call. Each gets the catalogued error_code (an
// unknown capability is an unknown tool, a JSON-RPC error), and none
// reaches the phone. The rest are Mobile-MCP envelope faults; over MCP the
// SDK's JSON-RPC decoding answers those.
func TestBadInputCatalogOverMCP(t *testing.T) {
	cases, err := testkit.LoadBadInputs()
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Off()})
	carried, refused := 0, 0
	for _, c := range cases {
		req, derr := capability.DecodeRequest(c.Request)
		if derr != nil {
			continue
		}
		carried++
		name, _ := json.Marshal(req.CapabilityID)
		args, _ := json.Marshal(req.Args)
		status, body := s.post(nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":`+string(name)+`,"arguments":`+string(args)+`}}`)
		var reply struct {
			Result struct {
				IsError bool              `json:"isError"`
				Meta    map[string]string `json:"_meta"`
			} `json:"result"`
			Error *struct{ Code int } `json:"error"`
		}
		switch {
		case status == http.StatusRequestEntityTooLarge && c.ErrorCode == string(capability.CodeTooLarge):
			continue // the body limit answers before anything is parsed
		case status == http.StatusBadRequest && strings.HasPrefix(body, "malformed payload: "):
			refused++ // the SDK's decoder refuses it whole, such as nesting past its depth limit
			continue
		case status != http.StatusOK || json.Unmarshal([]byte(body), &reply) != nil:
			t.Errorf("%s: HTTP %d %.300s", c.Name, status, body)
			continue
		}
		switch {
		case c.ErrorCode == string(capability.CodeUnknownCapability):
			if reply.Error == nil || reply.Error.Code != -32602 {
				t.Errorf("%s: want the unknown-tool error -32602, got %.300s", c.Name, body)
			}
		case !reply.Result.IsError || reply.Result.Meta[mcpserver.MetaErrorCode] != c.ErrorCode:
			t.Errorf("%s: want isError with %s, got %.300s", c.Name, c.ErrorCode, body)
		}
	}
	if carried < 20 {
		t.Errorf("only %d of %d cases could be carried over MCP", carried, len(cases))
	}
	if n := s.sends(); n != 0 {
		t.Errorf("%d bad requests reached the phone", n)
	}
	if refused > 1 {
		t.Errorf("%d requests refused as malformed by the SDK; the catalogue has one it should refuse", refused)
	}
	t.Logf("%d of %d catalogued bad requests carried as tools/call", carried, len(cases))
}

// TestBadInputCatalogAsRawBodies posts every catalogued request, as it is,
// to the MCP endpoint, as a confused client or an attacker might: none is a
// JSON-RPC message, so each must be refused in the protocol's terms (an
// HTTP error, or a JSON-RPC error object), never run, and never crash the
// server.
func TestBadInputCatalogAsRawBodies(t *testing.T) {
	cases, err := testkit.LoadBadInputs()
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Off()})
	byStatus := map[int]int{}
	for _, c := range cases {
		status, body := s.post(nil, string(c.Request))
		byStatus[status]++
		switch status {
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		case http.StatusOK:
			var reply struct {
				Error *struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if json.Unmarshal([]byte(body), &reply) != nil || reply.Error == nil || reply.Error.Message == "" {
				t.Errorf("%s: HTTP 200 without a JSON-RPC error: %.300s", c.Name, body)
			}
		default:
			t.Errorf("%s: HTTP %d %.300s", c.Name, status, body)
		}
	}
	if n := s.sends(); n != 0 {
		t.Errorf("%d raw bodies reached the phone", n)
	}
	// The server still serves after all of them.
	if result, rpcErr := s.call("get_sms_subscriptions", "{}"); rpcErr != "" || !strings.Contains(result, `"count\":2`) {
		t.Errorf("after the catalogue: %s %s", result, rpcErr)
	}
	t.Logf("%d raw bodies, by HTTP status: %v", len(cases), byStatus)
}
