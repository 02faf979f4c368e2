package intentbridge

import (
	"strings"
	"testing"
)

// A request in an Intent and one by binding never share a reply: the
// assistant's send, bound, is kept under its request id, and an Intent
// that claims the assistant (its callback relayed by another tool) under
// the same id gets its own refusal, not the assistant's reply.
func TestAnIntentNeverHearsABoundCallsReply(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := newBridge(t, f) // testAgent is allowed
	bound := handle(b, sendRequest("r-1"), testAgent)
	if !bound.Success() {
		t.Fatalf("the bound send: %s", bound.SpecJSON())
	}
	var to replies
	handleIntent(b, sendRequest("r-1"), testAgent, &to)
	if got := to.all(); len(got) != 1 || got[0].ErrorCode() != "permission_denied" || strings.Contains(got[0].SpecJSON(), "SMS sent") {
		t.Errorf("the Intent with the bound call's id got %s; want its own permission_denied", got[0].SpecJSON())
	}
	if len(f.Sends()) != 1 {
		t.Errorf("%d sends; want the bound one", len(f.Sends()))
	}
}
