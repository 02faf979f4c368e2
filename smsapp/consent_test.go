package smsapp

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

// TestTheMCPServerIsNotSubjectToAppConsent: over HTTP, holding the token the
// app showed the user is the consent. The app's per-package decisions, its
// per-app rate and the no-callback rule do not apply; the server's own
// per-client rate limit does.
func TestTheMCPServerIsNotSubjectToAppConsent(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := openTool(t, smsTool(f), t.TempDir()) // nobody allowed
	s := ServerFor(b)
	b.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := b.SetSendRateLimit("1/hour"); err != nil {
		t.Fatal(err)
	}
	b.SetAllowNoCallback(false)
	if r := handle(b, sendRequest("intent-1"), "com.example.agent"); r.ErrorCode() != "consent_required" {
		t.Fatalf("an Intent without consent: %s", r.SpecJSON())
	}

	if err := s.StartHTTP("0.0.0.0:0", "phone-token"); err != nil {
		t.Fatal(err)
	}
	defer s.StopHTTP()
	url := strings.Replace(s.ServingURL(), "0.0.0.0", "127.0.0.1", 1)
	var got []string
	for range 11 {
		status, body, err := testkit.PostMCP(url, "phone-token", sendCall)
		if err != nil || status != http.StatusOK {
			t.Fatalf("HTTP %d %s %v", status, body, err)
		}
		switch {
		case strings.Contains(body, `"text":"SMS sent to +33785880347"`):
			got = append(got, "sent")
		case strings.Contains(body, "send_sms is limited to 10/min shared by every client that holds the token"):
			got = append(got, "limited")
		default:
			got = append(got, body)
		}
	}
	want := strings.Repeat("sent ", 10) + "limited"
	if strings.Join(got, " ") != want {
		t.Errorf("eleven sends over HTTP without any app consent:\n got %v\nwant %s", got, want)
	}
	if len(f.Sends()) != 10 {
		t.Errorf("%d sends reached Java, want 10", len(f.Sends()))
	}
	if got := b.CallersJSON(); got != "[]" {
		t.Errorf("HTTP clients were recorded as apps: %s", got)
	}
}
