package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// recorder notes the JSON-RPC method and protocol header of every request a
// client sends, to show which protocol it really spoke.
type recorder struct {
	next     http.RoundTripper
	mu       sync.Mutex
	requests []string // "METHOD rpc-method version"
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	method := ""
	if req.Body != nil {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct{ Method string }
		json.Unmarshal(body, &msg)
		method = msg.Method
	}
	r.mu.Lock()
	r.requests = append(r.requests, strings.TrimSpace(req.Method+" "+method+" "+req.Header.Get("MCP-Protocol-Version")))
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

// TestGoSDKClient runs the official Go SDK client through the whole reference
// flow, once with the 2025-11-25 handshake and once with the SDK's default,
// 2026-07-28, which has no initialize at all.
func TestGoSDKClient(t *testing.T) {
	for _, tt := range []struct {
		ask, want string
		first     string // the first request the client sends
	}{
		{"2025-11-25", "2025-11-25", "POST initialize"},
		{"", "2026-07-28", "POST server/discover 2026-07-28"},
	} {
		t.Run("protocol "+tt.want, func(t *testing.T) {
			s := startServer(t, mcpserver.Options{})
			rec := &recorder{next: s.client.Transport}
			ctx := context.Background()
			client := mcp.NewClient(&mcp.Implementation{Name: "go-interop", Version: "1.0.0"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
				Endpoint:   s.url,
				HTTPClient: &http.Client{Transport: rec},
			}, &mcp.ClientSessionOptions{ProtocolVersion: tt.ask})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()

			init := cs.InitializeResult()
			if init.ProtocolVersion != tt.want {
				t.Errorf("negotiated %s, want %s", init.ProtocolVersion, tt.want)
			}
			if info := init.ServerInfo; info.Name != "mobilemcp" || info.Title != "mobilemcp SMS" || info.Version != mcpserver.Version() {
				t.Errorf("serverInfo %+v", info)
			}
			checkGoTools(t, ctx, cs)
			checkGoCalls(t, ctx, cs)
			if n := s.sends(); n != 1 {
				t.Errorf("%d SMS sent, want 1", n)
			}

			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.requests) == 0 || rec.requests[0] != tt.first {
				t.Errorf("requests %q; want the first to be %q", rec.requests, tt.first)
			}
			if tt.want == "2026-07-28" && slices.ContainsFunc(rec.requests, func(r string) bool { return strings.Contains(r, "initialize") }) {
				t.Errorf("the 2026-07-28 client sent an initialize: %q", rec.requests)
			}
		})
	}
}

func checkGoTools(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
	t.Helper()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	type schema struct {
		Type       string
		Required   []string
		Properties map[string]struct{ Type string }
	}
	got := map[string]string{}
	for _, tool := range list.Tools {
		data, _ := json.Marshal(tool.InputSchema)
		var in schema
		json.Unmarshal(data, &in)
		props := []string{}
		for name, p := range in.Properties {
			props = append(props, name+":"+p.Type)
		}
		slices.Sort(props)
		got[tool.Name] = in.Type + " required=" + strings.Join(in.Required, ",") + " properties=" + strings.Join(props, ",") +
			" readOnly=" + boolText(tool.Annotations.ReadOnlyHint) + " destructive=" + boolText(*tool.Annotations.DestructiveHint) +
			" idempotent=" + boolText(tool.Annotations.IdempotentHint) + " openWorld=" + boolText(*tool.Annotations.OpenWorldHint) +
			" outputSchema=" + boolText(tool.OutputSchema != nil)
	}
	want := map[string]string{
		"send_sms":              "object required=to_phone_number,sms_text properties=sms_text:string,subscription_id:integer,to_phone_number:string readOnly=false destructive=true idempotent=false openWorld=true outputSchema=true",
		"get_sms_subscriptions": "object required= properties= readOnly=true destructive=false idempotent=true openWorld=false outputSchema=true",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s:\n got %s\nwant %s", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("tools %v", got)
	}
}

func checkGoCalls(t *testing.T, ctx context.Context, cs *mcp.ClientSession) {
	t.Helper()
	tests := []struct {
		tool       string
		args       map[string]any
		isError    bool
		text       string
		structured string
	}{
		// The client decodes structuredContent into a map, which encodes
		// with sorted keys.
		{"get_sms_subscriptions", map[string]any{}, false, subscriptionsText,
			`{"count":2,"subscriptions":[{"carrier_name":"Vodafone UK","display_name":"Vodafone UK","sim_slot_index":0,"subscription_id":14},{"carrier_name":"Yettel HU","display_name":"Yettel HU","sim_slot_index":1,"subscription_id":17}]}`},
		{"send_sms", map[string]any{"to_phone_number": "+33785880347", "sms_text": "Hello world", "subscription_id": 14}, false,
			"SMS sent to +33785880347", `{"encoding":"gsm7","segments":1,"subscription_id":14,"to_phone_number":"+33785880347"}`},
		{"send_sms", map[string]any{"to_phone_number": "not a number", "sms_text": "Hello world", "subscription_id": 14}, true,
			`invalid_arguments: to_phone_number "not a number" is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567`, ""},
	}
	for _, tt := range tests {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: tt.args})
		if err != nil {
			t.Errorf("%s: %v", tt.tool, err)
			continue
		}
		text := ""
		if len(res.Content) == 1 {
			if tc, ok := res.Content[0].(*mcp.TextContent); ok {
				text = tc.Text
			}
		}
		structured := ""
		if res.StructuredContent != nil {
			data, _ := json.Marshal(res.StructuredContent)
			structured = string(data)
		}
		if res.IsError != tt.isError || text != tt.text || structured != tt.structured {
			t.Errorf("%s %v:\n got isError=%v text=%s structured=%s\nwant isError=%v text=%s structured=%s",
				tt.tool, tt.args, res.IsError, text, structured, tt.isError, tt.text, tt.structured)
		}
		if tt.isError && res.Meta[mcpserver.MetaErrorCode] != "invalid_arguments" {
			t.Errorf("%s: _meta %v", tt.tool, res.Meta)
		}
	}
	_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "send_mms", Arguments: map[string]any{}})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams || !strings.Contains(rpc.Message, `unknown tool "send_mms"`) {
		t.Errorf("unknown tool: %v", err)
	}
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
