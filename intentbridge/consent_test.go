package intentbridge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// decisionTime is the clock of the consent tests.
var decisionTime = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// newBridgeAt is a bridge on dir whose decisions are made at decisionTime,
// with no decision yet.
func newBridgeAt(t *testing.T, f *fakeJava, dir string) *Bridge {
	t.Helper()
	b, err := openBridge(dir, func() time.Time { return decisionTime })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if err := b.Start(smsTool(f)); err != nil {
		t.Fatal(err)
	}
	return b
}

// outcome is a reply's error_code, or "ok".
func outcome(r *sent) string {
	if r.Success() {
		return "ok"
	}
	return r.ErrorCode()
}

func TestConsentLifecycleThroughTheBridge(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := newBridgeAt(t, f, t.TempDir())
	const app = "com.example.agent"
	steps := []struct {
		name      string
		do        func() error
		cap       string
		want      string
		message   string
		callers   string
		sentSoFar int
	}{
		{"an unknown app is asked", nil, "send_sms", "consent_required",
			"the user has not yet allowed com.example.agent to use send_sms; a notification on the phone asks them, so retry once they allow it", `[]`, 0},
		{"reading needs no consent", nil, "get_sms_subscriptions", "ok", "", `[]`, 0},
		{"after consent it sends", func() error { return b.AllowCaller(app) }, "send_sms", "ok", "SMS sent to +33785880347",
			`[{"package":"com.example.agent","decision":"allowed","at":"2026-11-21T10:00:00Z"}]`, 1},
		{"after revoking it is asked again", func() error { return b.ForgetCaller(app) }, "send_sms", "consent_required",
			"the user has not yet allowed com.example.agent to use send_sms; a notification on the phone asks them, so retry once they allow it", `[]`, 1},
		{"a denied app is refused", func() error { return b.DenyCaller(app) }, "send_sms", "permission_denied",
			"the user does not allow com.example.agent to use send_sms; they can change this in this tool's settings, which list the apps that asked",
			`[{"package":"com.example.agent","decision":"denied","at":"2026-11-21T10:00:00Z"}]`, 1},
		{"forgetting an app without a decision does nothing", func() error { return b.ForgetCaller("com.example.never") }, "send_sms", "permission_denied",
			"the user does not allow com.example.agent to use send_sms; they can change this in this tool's settings, which list the apps that asked",
			`[{"package":"com.example.agent","decision":"denied","at":"2026-11-21T10:00:00Z"}]`, 1},
	}
	for i, s := range steps {
		if s.do != nil {
			if err := s.do(); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
		}
		req := sendRequest("c" + string(rune('0'+i)))
		if s.cap == "get_sms_subscriptions" {
			req = `{"mobile-mcp-request":{"version":"1.0","request":{"id":"r","capability":{"id":"get_sms_subscriptions","args":{}}}}}`
		}
		r := handle(b, req, app)
		message := ""
		if s.cap == "send_sms" {
			message = messageOf(t, r)
		}
		if outcome(r) != s.want || message != s.message || b.CallersJSON() != s.callers || len(f.Sends()) != s.sentSoFar {
			t.Errorf("%s: %s %q, callers %s, %d sent\nwant %s %q, callers %s, %d sent",
				s.name, outcome(r), message, b.CallersJSON(), len(f.Sends()), s.want, s.message, s.callers, s.sentSoFar)
		}
	}
}

// messageOf is the reply's message.
func messageOf(t *testing.T, r *sent) string {
	t.Helper()
	_, after, ok := strings.Cut(r.SpecJSON(), `"message":"`)
	if !ok {
		t.Fatalf("no message in %s", r.SpecJSON())
	}
	msg, _, _ := strings.Cut(after, `"`)
	return msg
}

func TestCallersJSONListsEveryDecisionSortedByPackage(t *testing.T) {
	b := newBridgeAt(t, &fakeJava{Subs: seedSubs}, "")
	for _, app := range []string{"org.zed.agent", "com.example.agent"} {
		if err := b.AllowCaller(app); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.DenyCaller("com.spam"); err != nil {
		t.Fatal(err)
	}
	want := `[{"package":"com.example.agent","decision":"allowed","at":"2026-11-21T10:00:00Z"},` +
		`{"package":"com.spam","decision":"denied","at":"2026-11-21T10:00:00Z"},` +
		`{"package":"org.zed.agent","decision":"allowed","at":"2026-11-21T10:00:00Z"}]`
	if got := b.CallersJSON(); got != want {
		t.Errorf("CallersJSON\n got %s\nwant %s", got, want)
	}
	if ConsentAllowed != "allowed" || ConsentDenied != "denied" {
		t.Errorf("consent constants %q %q", ConsentAllowed, ConsentDenied)
	}
}

func TestConsentsSurviveARestartOfTheApp(t *testing.T) {
	dir := t.TempDir()
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := newBridgeAt(t, f, dir)
	if err := b.AllowCaller("com.example.agent"); err != nil {
		t.Fatal(err)
	}
	if err := b.DenyCaller("com.spam"); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if _, err := os.Stat(filepath.Join(dir, "consents.json")); err != nil {
		t.Errorf("the decisions are not next to the replies: %v", err)
	}

	// Android killed the process; the next request starts a new one.
	again := openSMS(t, smsTool(f), dir)
	want := `[{"package":"com.example.agent","decision":"allowed","at":"2026-11-21T10:00:00Z"},{"package":"com.spam","decision":"denied","at":"2026-11-21T10:00:00Z"}]`
	if got := again.CallersJSON(); got != want {
		t.Errorf("after a restart\n got %s\nwant %s", got, want)
	}
	if r := handle(again, sendRequest("after-restart"), "com.example.agent"); !r.Success() {
		t.Errorf("the allowed app after a restart: %s", r.SpecJSON())
	}
	if r := handle(again, sendRequest("spam"), "com.spam"); r.ErrorCode() != "permission_denied" {
		t.Errorf("the denied app after a restart: %s", r.SpecJSON())
	}
}

func TestABrokenConsentFileStopsNewBridge(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "consents.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := OpenBridge(dir)
	want := "intentbridge: opening the consent store: consent store " + filepath.Join(dir, "consents.json") + ": unexpected end of JSON input"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestCallerConsentsRejectWhatIsNotAPackage(t *testing.T) {
	b := newBridgeAt(t, &fakeJava{}, "")
	for name, call := range map[string]func(string) error{"AllowCaller": b.AllowCaller, "DenyCaller": b.DenyCaller} {
		for _, pkg := range []string{"", "com.example agent", "../etc"} {
			if err := call(pkg); err == nil || err.Error() != `"`+pkg+`" is not an Android package name` {
				t.Errorf("%s(%q): %v", name, pkg, err)
			}
		}
	}
	if got := b.CallersJSON(); got != "[]" {
		t.Errorf("a refused decision was recorded: %s", got)
	}
}

func TestSendRateLimitPerCaller(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := newBridgeAt(t, f, "")
	b.AllowCaller("com.example.agent")
	b.AllowCaller("com.example.other")

	// The default: ten sends, then the eleventh waits.
	for i := range 10 {
		if r := handle(b, sendRequest("d"+string(rune('a'+i))), "com.example.agent"); !r.Success() {
			t.Fatalf("send %d of the default 10/min: %s", i+1, r.SpecJSON())
		}
	}
	r := handle(b, sendRequest("eleventh"), "com.example.agent")
	if msg := messageOf(t, r); r.ErrorCode() != "rate_limited" || msg != "send_sms is limited to 10/min per app; retry in 6 seconds" {
		t.Errorf("the eleventh Send: %s %q", r.ErrorCode(), msg)
	}
	if r := handle(b, sendRequest("other"), "com.example.other"); !r.Success() {
		t.Errorf("another app shares the first one's budget: %s", r.SpecJSON())
	}
	reading := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"r","capability":{"id":"get_sms_subscriptions","args":{}}}}}`
	if r := handle(b, reading, "com.example.agent"); !r.Success() {
		t.Errorf("reading is limited too: %s", r.SpecJSON())
	}

	// A new rate starts every budget afresh.
	if err := b.SetSendRateLimit("2/hour"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range 3 {
		got = append(got, outcome(handle(b, sendRequest("h"+string(rune('a'+i))), "com.example.agent")))
	}
	if strings.Join(got, " ") != "ok ok rate_limited" {
		t.Errorf("with 2/hour: %v", got)
	}
	if len(f.Sends()) != 13 {
		t.Errorf("%d sends reached Java, want 13", len(f.Sends()))
	}

	for rate, want := range map[string]string{
		"0/min":  "intentbridge: rate 0/1m0s: want at least 1 call per positive period, or off",
		"lots":   `intentbridge: rate "lots": want CALLS/PERIOD, such as 10/min, or off`,
		"5/week": `intentbridge: rate "5/week": the period "week" is not sec, min, hour, day or a duration such as 30s`,
	} {
		if err := b.SetSendRateLimit(rate); err == nil || err.Error() != want {
			t.Errorf("SetSendRateLimit(%q): %v\nwant %s", rate, err, want)
		}
	}
	if err := b.SetSendRateLimit("off"); err != nil {
		t.Fatal(err)
	}
	// Off, an app's sends meet only the phone's own cap, over every app
	// and transport: 30 parts a minute (sms.DefaultPartsPerMinute), of
	// which the 13 sends above used 13.
	for i := range 17 {
		if r := handle(b, sendRequest("off"+string(rune('a'+i))), "com.example.agent"); !r.Success() {
			t.Fatalf("with the limit off, send %d: %s", i+1, r.SpecJSON())
		}
	}
	if r := handle(b, sendRequest("thirty-first"), "com.example.other"); r.ErrorCode() != "rate_limited" ||
		!strings.HasPrefix(messageOf(t, r), "this phone sends at most 30 SMS parts a minute") {
		t.Errorf("the 31st part in a minute: %s", r.SpecJSON())
	}
	if len(f.Sends()) != 30 {
		t.Errorf("%d sends reached Java, want 30", len(f.Sends()))
	}
}

func TestRequestsWithoutACallerNeedTheSwitch(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := newBridgeAt(t, f, "")
	reading := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"adb-1","capability":{"id":"get_sms_subscriptions","args":{}}}}}`
	want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":"adb-1","capability":{"id":"get_sms_subscriptions"},"status":"failure",` +
		`"message":"requests without a callback are accepted only by debuggable builds or with the developer switch on; send a mutable PendingIntent in the mobile-mcp-callback extra","error_code":"permission_denied"}}}`
	if r := handle(b, reading, ""); r.SpecJSON() != want {
		t.Errorf("off by default:\n got %s\nwant %s", r.SpecJSON(), want)
	}
	b.SetAllowNoCallback(true)
	if r := handle(b, reading, ""); !r.Success() {
		t.Errorf("with the switch on, reading: %s", r.SpecJSON())
	}
	// No caller, no change: any app can send what adb sends, so the switch
	// does not let a send through.
	if r := handle(b, sendRequest("adb-2"), ""); r.ErrorCode() != "permission_denied" || len(f.Sends()) != 0 {
		t.Errorf("with the switch on, sending: %s", r.SpecJSON())
	}
	// The shell's own channel: no consent, only the rate.
	var to replies
	handleShell(b, sendRequest("adb-3"), &to)
	if got := to.all(); len(got) != 1 || !got[0].Success() || len(f.Sends()) != 1 {
		t.Errorf("through the shell's channel: %d replies, %d sends", len(got), len(f.Sends()))
	}
}

func TestRejectEchoesTheRequest(t *testing.T) {
	b := newBridgeAt(t, &fakeJava{Subs: seedSubs}, "")
	var to replies
	b.Reject(sendRequest("busy-1"), "rate_limited", "com.example.agent has 64 requests in flight", &to)
	want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":"busy-1","capability":{"id":"send_sms"},"status":"failure","message":"com.example.agent has 64 requests in flight","error_code":"rate_limited"}}}`
	if got := to.all(); len(got) != 1 || got[0].SpecJSON() != want || got[0].RequestID() != "busy-1" || got[0].ErrorCode() != "rate_limited" {
		t.Errorf("Reject: %+v\nwant %s", got, want)
	}
}

// signers is a SignerSource: the installed packages and their signers.
type signers map[string]string

func (s signers) SigningCertificateSHA256(pkg string) (string, error) {
	if signer, ok := s[pkg]; ok {
		return signer, nil
	}
	return "", errors.New("no package " + pkg)
}

// With a signer source, a decision belongs to the app that had the name:
// another signer, or the package gone, and the caller is asked again.
func TestDecisionsBelongToTheSignerThroughTheBridge(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := newBridgeAt(t, f, t.TempDir())
	installed := signers{"com.example.agent": "0a1b"}
	b.SetSignerSource(installed)
	if err := b.AllowCaller("com.example.agent"); err != nil {
		t.Fatal(err)
	}
	if got := b.CallersJSON(); got != `[{"package":"com.example.agent","signer":"0a1b","decision":"allowed","at":"2026-11-21T10:00:00Z"}]` {
		t.Errorf("CallersJSON: %s", got)
	}
	if r := handle(b, sendRequest("s1"), "com.example.agent"); !r.Success() {
		t.Fatalf("the app the user allowed: %s", r.SpecJSON())
	}
	installed["com.example.agent"] = "ffff"
	if r := handle(b, sendRequest("s2"), "com.example.agent"); r.ErrorCode() != "consent_required" || b.CallersJSON() != "[]" || len(f.Sends()) != 1 {
		t.Errorf("another signer: %s, %s, %d sends", r.SpecJSON(), b.CallersJSON(), len(f.Sends()))
	}
	if err := b.AllowCaller("com.example.gone"); err == nil || err.Error() != "cannot tell which app com.example.gone is: no package com.example.gone" {
		t.Errorf("a package that is not installed: %v", err)
	}
}

// A refusal sends the user to the tool's own settings, by the name the
// tool's manifest gives it.
func TestADenialNamesTheToolsSettings(t *testing.T) {
	tool := smsTool(&fakeJava{Subs: seedSubs})
	tool.SetTitle("Notes")
	b := openSMS(t, tool, "")
	if err := b.DenyCaller(testAgent); err != nil {
		t.Fatal(err)
	}
	want := "the user does not allow com.example.agent to use send_sms; they can change this in the settings of Notes, which list the apps that asked"
	if r := handle(b, sendRequest("n1"), testAgent); r.ErrorCode() != "permission_denied" || !strings.Contains(r.SpecJSON(), `"message":"`+want+`"`) {
		t.Errorf("reply %s\nwant the message %q", r.SpecJSON(), want)
	}
}

// CallerConsent is the decision as it stands, for the signer the package
// has now.
func TestCallerConsentIsTheDecisionOfTheAppThatHasThePackage(t *testing.T) {
	b := newBridgeAt(t, &fakeJava{Subs: seedSubs}, t.TempDir())
	installed := signers{"com.example.agent": "0a1b", "com.example.other": "0c0d"}
	b.SetSignerSource(installed)
	if got := b.CallerConsent("com.example.agent"); got != "" {
		t.Errorf("before any decision: %q", got)
	}
	if err := b.AllowCaller("com.example.agent"); err != nil {
		t.Fatal(err)
	}
	if err := b.DenyCaller("com.example.other"); err != nil {
		t.Fatal(err)
	}
	if a, o := b.CallerConsent("com.example.agent"), b.CallerConsent("com.example.other"); a != ConsentAllowed || o != ConsentDenied {
		t.Errorf("allowed and denied: %q %q", a, o)
	}
	installed["com.example.agent"] = "ffff"
	if got := b.CallerConsent("com.example.agent"); got != "" {
		t.Errorf("another app under the package: %q", got)
	}
}
