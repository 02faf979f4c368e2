package mcpserver_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// listTools returns each tool of tools/list as compact JSON, by name.
func (s *testServer) listTools() map[string]string {
	s.t.Helper()
	_, body := s.post(nil, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	var reply struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &reply); err != nil {
		s.t.Fatalf("tools/list: %v in %s", err, body)
	}
	tools := map[string]string{}
	for _, raw := range reply.Result.Tools {
		var tool struct{ Name string }
		json.Unmarshal(raw, &tool)
		tools[tool.Name] = string(raw)
	}
	return tools
}

func TestToolsCarryTheCapabilities(t *testing.T) {
	tools := startServer(t, mcpserver.Options{}).listTools()
	// The input schema is the descriptor package's conversion, pattern and
	// maxLength included; properties keep their declaration order.
	want := map[string]string{
		"send_sms": `{"annotations":{"destructiveHint":true,"idempotentHint":false,"openWorldHint":true,"readOnlyHint":false,"title":"Send SMS"},` +
			`"description":"Sends an SMS message to a specified phone number.",` +
			`"inputSchema":{"type":"object","properties":{` +
			`"to_phone_number":{"type":"string","description":"The phone number the SMS should be sent to in international format starting with a plus sign followed by the country code. For example +36201234567","pattern":"^[+][1-9][0-9]{6,14}$"},` +
			`"sms_text":{"type":"string","description":"The text of the sms messages to be sent. The maximum length is 160 characters","maxLength":160},` +
			`"subscription_id":{"type":"integer","description":"SMS subscription ID to use for sending. Required when sending is allowed on more than one active subscription."}},` +
			`"required":["to_phone_number","sms_text"],"additionalProperties":false},` +
			`"name":"send_sms",` +
			`"outputSchema":{"type":"object","properties":{` +
			`"to_phone_number":{"type":"string","description":"The normalised number the SMS was sent to."},` +
			`"subscription_id":{"type":"integer","description":"The subscription the SMS was sent from."},` +
			`"encoding":{"type":"string","description":"The text encoding: gsm7 or ucs2."},` +
			`"segments":{"type":"integer","description":"The number of SMS parts sent."}},` +
			`"required":["to_phone_number","subscription_id","encoding","segments"],"additionalProperties":false},` +
			`"title":"Send SMS"}`,
		"get_sms_subscriptions": `{"annotations":{"destructiveHint":false,"idempotentHint":true,"openWorldHint":false,"readOnlyHint":true,"title":"List SMS subscriptions"},` +
			`"description":"Returns the list of active SMS subscriptions available on the device.",` +
			`"inputSchema":{"type":"object","properties":{},"required":[],"additionalProperties":false},` +
			`"name":"get_sms_subscriptions",` +
			`"outputSchema":{"type":"object","properties":{` +
			`"count":{"type":"integer","description":"The number of active subscriptions."},` +
			`"subscriptions":{"type":"array","items":{"type":"object"},"description":"The active subscriptions: subscription_id, sim_slot_index, carrier_name and display_name."}},` +
			`"required":["count","subscriptions"],"additionalProperties":false},` +
			`"title":"List SMS subscriptions"}`,
	}
	if len(tools) != len(want) {
		t.Errorf("tools/list has %d tools, want %d", len(tools), len(want))
	}
	for name, w := range want {
		if tools[name] != w {
			t.Errorf("%s:\n got %s\nwant %s", name, tools[name], w)
		}
	}
}

// A capability declared in Go without hints is listed as MCP reads a tool
// that says nothing: it may destroy and it reaches the outside world, so
// a client that auto-approves the harmless ones asks the user first.
func TestAGoCapabilityWithoutHintsIsListedAsDestructiveAndOpenWorld(t *testing.T) {
	plain := capability.Capability{ID: "ring", Description: "Rings the phone.", Version: "1.0",
		Handler: func(context.Context, capability.Args) (capability.Result, error) {
			return capability.Result{Message: "rang"}, nil
		}}
	tools := startServer(t, mcpserver.Options{}, plain).listTools()
	var tool struct {
		Annotations map[string]any `json:"annotations"`
	}
	if err := json.Unmarshal([]byte(tools["ring"]), &tool); err != nil {
		t.Fatalf("ring: %v in %s", err, tools["ring"])
	}
	for _, h := range []struct {
		hint string
		want bool
	}{{"readOnlyHint", false}, {"destructiveHint", true}, {"idempotentHint", false}, {"openWorldHint", true}} {
		if got := tool.Annotations[h.hint]; got != h.want {
			t.Errorf("%s = %v, want %v (%s)", h.hint, got, h.want, tools["ring"])
		}
	}
}
