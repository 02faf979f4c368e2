package intentbridge

import (
	"testing"
)

// The confused deputy: over an Intent the caller is the creator of the
// callback PendingIntent, which any app it was handed can send us as its
// own. An assistant the user allowed hands one to every tool it calls, so
// a request in an Intent may run only what reads: send_sms is refused,
// nothing is sent, no budget is used and nobody is asked in the
// assistant's name (the reply is not consent_required, which makes the
// app ask). The same assistant, bound, sends; and a read in an Intent, in
// either layout, runs.
func TestAnIntentsCallbackCreatorCannotSendForIt(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := newBridge(t, f) // testAgent is allowed
	if err := b.SetSendRateLimit("1/hour"); err != nil {
		t.Fatal(err)
	}
	intent := func(request string) *sent {
		var to replies
		handleIntent(b, request, testAgent, &to)
		if got := to.all(); len(got) == 1 {
			return got[0]
		}
		t.Fatalf("an Intent's request delivered %d replies", len(to.all()))
		return nil
	}
	refusal := "send_sms changes something on this phone, so it runs only for a caller that Android identifies: bind to this tool's service and send the request as a Message (binding mode). A request in an Intent names only the app that created its callback PendingIntent, and any app holding that PendingIntent can send it"
	want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":"relayed","capability":{"id":"send_sms"},"status":"failure","message":"` + refusal + `","error_code":"permission_denied"}}}`
	if r := intent(sendRequest("relayed")); r.SpecJSON() != want || r.ErrorCode() != "permission_denied" {
		t.Errorf("a send in an Intent:\n got %s\nwant %s", r.SpecJSON(), want)
	}
	prototype := `{"id":"p1","capability":{"id":"send_sms","input":{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}}}`
	wantFlat := `{"id":"p1","capability":{"id":"send_sms"},"status":"failure","message":"` + refusal + `","error_code":"permission_denied"}`
	if r := intent(prototype); r.FlatJSON() != wantFlat {
		t.Errorf("the prototype's layout:\n got %s\nwant %s", r.FlatJSON(), wantFlat)
	}
	reading := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"r","capability":{"id":"get_sms_subscriptions","args":{}}}}}`
	if r := intent(reading); !r.Success() {
		t.Errorf("a read in an Intent: %s", r.SpecJSON())
	}
	if r := intent(`{"id":"p2","capability":{"id":"get_sms_subscriptions","input":{}}}`); !r.Success() || !r.Prototype() {
		t.Errorf("a read in the prototype's layout: %s %s", r.SpecJSON(), r.FlatJSON())
	}
	// Validation still comes first, naming the field.
	if r := intent(`{"mobile-mcp-request":{"version":"1.0","request":{"id":"v","capability":{"id":"send_sms","args":{"sms_text":"Hi"}}}}}`); r.ErrorCode() != "invalid_arguments" {
		t.Errorf("an invalid send in an Intent: %s", r.SpecJSON())
	}
	if len(f.Sends()) != 0 {
		t.Fatalf("sent %v", f.Sends())
	}
	// The refusals used none of the 1/hour: the assistant, bound, sends.
	if r := handle(b, sendRequest("bound"), testAgent); !r.Success() || len(f.Sends()) != 1 {
		t.Errorf("the assistant, bound: %s, %d sends", r.SpecJSON(), len(f.Sends()))
	}
	// Without a callback it is adb's request, as before: the switch decides.
	var to replies
	handleIntent(b, sendRequest("adb"), "", &to)
	if r := to.all()[0]; r.ErrorCode() != "permission_denied" || len(f.Sends()) != 1 {
		t.Errorf("without a callback: %s", r.SpecJSON())
	}
}
