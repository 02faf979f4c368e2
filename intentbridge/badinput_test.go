package intentbridge

import (
	"encoding/json"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/badinput"
)

// TestBadInputCatalogThroughTheBridge sends every catalogued bad request
// through the gomobile surface, as the Java Service would, from an app the
// user allowed: each gets a well-formed reply with the catalogued
// error_code, and the Java platform is never asked to send.
//
// From an app the user has not allowed, the requests whose arguments are
// well-typed reach the consent check before the SMS capability's own checks
// (the number's format, the subscription), so they get consent_required
// instead; the rest keep their code. Nothing is sent either way.
func TestBadInputCatalogThroughTheBridge(t *testing.T) {
	cases, err := badinput.Load()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeJava{subs: seedSubs, send: `{"results":[-1]}`}
	b := newBridge(t, f)
	// The twelve that pass admission count against the caller's budget.
	if err := b.SetSendRateLimit("off"); err != nil {
		t.Fatal(err)
	}
	asked := 0
	for _, c := range cases {
		if r := handle(b, string(c.Request), "com.example.hostile"); r.Success() || (r.ErrorCode() != c.ErrorCode && r.ErrorCode() != "consent_required") {
			t.Errorf("%s from an app without consent: %s, want %s or consent_required", c.Name, r.ErrorCode(), c.ErrorCode)
		} else if r.ErrorCode() == "consent_required" {
			asked++
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
	if len(f.sends) != 0 {
		t.Errorf("%d bad requests reached the Java platform: %q", len(f.sends), f.sends)
	}
	if asked != 12 {
		t.Errorf("%d bad requests from an app without consent got consent_required, want the 12 the SMS capability refuses itself", asked)
	}
	t.Logf("%d bad requests through the bridge", len(cases))
}
