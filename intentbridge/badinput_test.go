package intentbridge

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

// TestBadInputCatalogThroughTheBridge sends every catalogued bad request
// through the gomobile surface, as the Java Service would, from an app the
// user allowed: each gets a well-formed reply with the catalogued
// error_code, and the Java platform is never asked to send.
//
// From an app the user has not allowed, the requests are refused with the
// same codes: names, types and the SMS capability's own checks (the
// number's format, a blank text) all come before the consent check. Only
// the four whose fault is a subscription that is not active reach it and
// get consent_required, because which SIMs are active is the phone's to
// say. Nothing is sent either way.
//
// In an Intent (QueueIntent), even with the allowed app's callback, the
// same: the catalogued codes, and for those four the refusal of a caller
// that is only claimed (permission_denied), never consent_required.
func TestBadInputCatalogThroughTheBridge(t *testing.T) {
	cases, err := testkit.LoadBadInputs()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := newBridge(t, f)
	// The four that pass admission count against the caller's budget.
	if err := b.SetSendRateLimit("off"); err != nil {
		t.Fatal(err)
	}
	var asked, refusedInIntent []string
	for _, c := range cases {
		var inIntent replies
		handleIntent(b, string(c.Request), testAgent, &inIntent)
		if r := inIntent.all(); len(r) != 1 || r[0].Success() || (r[0].ErrorCode() != c.ErrorCode && r[0].ErrorCode() != "permission_denied") {
			t.Errorf("%s in an Intent: %d replies, %v, want %s or permission_denied", c.Name, len(r), r, c.ErrorCode)
		} else if r[0].ErrorCode() == "permission_denied" && c.ErrorCode != "permission_denied" {
			refusedInIntent = append(refusedInIntent, c.Name)
		}
		if r := handle(b, string(c.Request), "com.example.hostile"); r.Success() || (r.ErrorCode() != c.ErrorCode && r.ErrorCode() != "consent_required") {
			t.Errorf("%s from an app without consent: %s, want %s or consent_required", c.Name, r.ErrorCode(), c.ErrorCode)
		} else if r.ErrorCode() == "consent_required" {
			asked = append(asked, c.Name)
		}
		r := handle(b, string(c.Request), testAgent)
		var spec struct {
			Envelope struct {
				Response struct {
					Status    string `json:"status"`
					ErrorCode string `json:"error_code"`
				} `json:"response"`
			} `json:"mobile-mcp-response"`
		}
		if err := json.Unmarshal([]byte(r.SpecJSON()), &spec); err != nil {
			t.Errorf("%s: the reply is not JSON: %v", c.Name, err)
			continue
		}
		if got := spec.Envelope.Response; got.Status != "failure" || got.ErrorCode != c.ErrorCode || r.ErrorCode() != c.ErrorCode || r.Success() {
			t.Errorf("%s: %s/%s, want failure/%s", c.Name, got.Status, got.ErrorCode, c.ErrorCode)
		}
		if r.Prototype() && !json.Valid([]byte(r.FlatJSON())) {
			t.Errorf("%s: the flat reply is not JSON: %s", c.Name, r.FlatJSON())
		}
	}
	if len(f.Sends()) != 0 {
		t.Errorf("%d bad requests reached the Java platform: %q", len(f.Sends()), f.Sends())
	}
	want := []string{"negative subscription id", "subscription id over Java int", "inactive subscription", "missing subscription with two SIMs"}
	if !slices.Equal(asked, want) {
		t.Errorf("from an app without consent, consent_required for %q, want only %q", asked, want)
	}
	if !slices.Equal(refusedInIntent, want) {
		t.Errorf("in an Intent, permission_denied for %q, want only %q", refusedInIntent, want)
	}
	t.Logf("%d bad requests through the bridge", len(cases))
}
