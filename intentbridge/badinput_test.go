package intentbridge

import (
	"encoding/json"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/badinput"
)

// TestBadInputCatalogThroughTheBridge sends every catalogued bad request
// through the gomobile surface, as the Java Service would: each gets a
// well-formed reply with the catalogued error_code, and the Java platform
// is never asked to send.
func TestBadInputCatalogThroughTheBridge(t *testing.T) {
	cases, err := badinput.Load()
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeJava{subs: seedSubs, send: `{"results":[-1]}`}
	b := newBridge(t, f)
	for _, c := range cases {
		r := b.Handle(string(c.Request), "com.example.hostile")
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
	t.Logf("%d bad requests through the bridge", len(cases))
}
