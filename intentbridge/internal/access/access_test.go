package access_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/intentbridge/internal/access"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

func TestConsentsSurviveARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", access.ConsentFile)
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	c, err := access.OpenConsents(path, func() time.Time { return at })
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Decide("com.example.agent", access.Allowed); err != nil {
		t.Fatal(err)
	}
	if err := c.Decide("com.example.spam", access.Denied); err != nil {
		t.Fatal(err)
	}
	c.Decide("com.example.gone", access.Allowed)
	c.Forget("com.example.gone")

	reopened, err := access.OpenConsents(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []access.Grant{{Package: "com.example.agent", Decision: access.Allowed, At: at}, {Package: "com.example.spam", Decision: access.Denied, At: at}}
	if got := reopened.List(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("after a restart: %+v", got)
	}
	if info, _ := os.Stat(path); info.Mode().Perm()&0o077 != 0 {
		t.Errorf("the consent file is readable by others: %v", info.Mode())
	}
}

func TestConsentsRejectBadInput(t *testing.T) {
	c, _ := access.OpenConsents("", nil)
	if err := c.Decide("", access.Allowed); err == nil || err.Error() != `"" is not an Android package name` {
		t.Errorf("empty package: %v", err)
	}
	if err := c.Decide("com.x", "maybe"); err == nil || err.Error() != `decision "maybe": want "allowed" or "denied"` {
		t.Errorf("bad decision: %v", err)
	}
	broken := filepath.Join(t.TempDir(), access.ConsentFile)
	os.WriteFile(broken, []byte("{"), 0o600)
	if _, err := access.OpenConsents(broken, nil); err == nil || !strings.Contains(err.Error(), "consent store") {
		t.Errorf("a corrupt file: %v", err)
	}
}

// phoneWithPolicy is the SMS engine on a simulated phone, with a policy.
type phoneWithPolicy struct {
	engine *capability.Engine
	policy *access.Policy
	outbox string
}

func newPhoneWithPolicy(t *testing.T, limit ratelimit.Rate) *phoneWithPolicy {
	t.Helper()
	dir := t.TempDir()
	outbox := filepath.Join(dir, simphone.OutboxFile)
	phone, _ := simphone.New(simphone.DefaultConfig(), simphone.Options{OutboxPath: outbox})
	reg, _ := capability.NewRegistry(sms.Capabilities(phone)...)
	consents, err := access.OpenConsents(filepath.Join(dir, access.ConsentFile), nil)
	if err != nil {
		t.Fatal(err)
	}
	return &phoneWithPolicy{engine: capability.NewEngine(reg, capability.Options{}), policy: access.NewPolicy(consents, limit), outbox: outbox}
}

// call sends a request as caller ("" for no callback) and returns the
// error_code ("" on success) and message.
func (p *phoneWithPolicy) call(caller, capabilityID, args string) (string, string) {
	req := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"x","capability":{"id":"` + capabilityID + `","args":` + args + `}}}}`
	r := p.engine.Do(context.Background(), capability.NewCall([]byte(req), capability.Caller{ID: caller, Vouched: caller != ""}, p.policy.Admit))
	return string(r.ErrorCode), r.Message
}

func (p *phoneWithPolicy) sent(t *testing.T) int {
	records, err := simphone.ReadOutbox(p.outbox)
	if err != nil {
		t.Fatal(err)
	}
	return len(records)
}

const sendArgs = `{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}`

func TestConsentLifecycle(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 100, Per: time.Minute})
	steps := []struct {
		name      string
		do        func()
		caller    string
		code      string
		message   string
		sentSoFar int
	}{
		{"an unknown app is asked", nil, "com.example.agent", "consent_required",
			"the user has not yet allowed com.example.agent to use send_sms; a notification on the phone asks them, so retry once they allow it", 0},
		{"after consent it sends", func() { p.policy.Consents().Decide("com.example.agent", access.Allowed) }, "com.example.agent", "", "SMS sent to +33785880347", 1},
		{"another app still needs consent", nil, "com.example.other", "consent_required",
			"the user has not yet allowed com.example.other to use send_sms; a notification on the phone asks them, so retry once they allow it", 1},
		{"after revoking it is blocked again", func() { p.policy.Consents().Forget("com.example.agent") }, "com.example.agent", "consent_required",
			"the user has not yet allowed com.example.agent to use send_sms; a notification on the phone asks them, so retry once they allow it", 1},
		{"a denied app is refused", func() { p.policy.Consents().Decide("com.example.agent", access.Denied) }, "com.example.agent", "permission_denied",
			"the user does not allow com.example.agent to use send_sms; they can change this in this tool's settings, which list the apps that asked", 1},
	}
	for _, s := range steps {
		if s.do != nil {
			s.do()
		}
		code, message := p.call(s.caller, "send_sms", sendArgs)
		if code != s.code || message != s.message || p.sent(t) != s.sentSoFar {
			t.Errorf("%s: %q %q, %d sent; want %q %q, %d", s.name, code, message, p.sent(t), s.code, s.message, s.sentSoFar)
		}
	}
}

func TestReadOnlyCapabilitiesNeedNoConsent(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 1, Per: time.Hour})
	for range 3 {
		if code, message := p.call("com.example.stranger", "get_sms_subscriptions", "{}"); code != "" {
			t.Fatalf("%s: %s", code, message)
		}
	}
}

func TestRateLimitTripsAtTheConfiguredCount(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 3, Per: time.Hour})
	p.policy.Consents().Decide("com.example.agent", access.Allowed)
	p.policy.Consents().Decide("com.example.other", access.Allowed)
	for i := range 3 {
		if code, message := p.call("com.example.agent", "send_sms", sendArgs); code != "" {
			t.Fatalf("call %d: %s %s", i+1, code, message)
		}
	}
	code, message := p.call("com.example.agent", "send_sms", sendArgs)
	if code != "rate_limited" || !strings.HasPrefix(message, "send_sms is limited to 3/hour per app; retry in ") {
		t.Errorf("the fourth call: %q %q", code, message)
	}
	if code, _ := p.call("com.example.other", "send_sms", sendArgs); code != "" {
		t.Errorf("another app shares the first one's budget: %s", code)
	}
	if n := p.sent(t); n != 4 {
		t.Errorf("%d sent, want 4", n)
	}
	if err := p.policy.SetRateLimit(ratelimit.Rate{Calls: 0, Per: time.Hour}); err == nil {
		t.Error("a rate of zero calls was accepted")
	}
}

func TestRequestsWithoutACallback(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 100, Per: time.Minute})
	code, message := p.call("", "get_sms_subscriptions", "{}")
	if code != "permission_denied" || message != "requests without a callback are accepted only by debuggable builds or with the developer switch on; send a mutable PendingIntent in the mobile-mcp-callback extra" {
		t.Errorf("release build: %q %q", code, message)
	}
	p.policy.SetAllowNoCallback(true)
	if code, message := p.call("", "get_sms_subscriptions", "{}"); code != "" {
		t.Errorf("debuggable build, reading: %q %q", code, message)
	}
	// No caller, no change: whatever the build or switch, nothing is sent.
	if code, message := p.call("", "send_sms", sendArgs); code != "permission_denied" || p.sent(t) != 0 ||
		message != "send_sms changes something on this phone, and this request names no caller that Android vouches for (an Intent without a callback, or a process without a package), so it never runs; an app binds to this tool's service (binding mode), and adb sends it through the tool's shell-only provider, as 'mobilemcp adb call' does" {
		t.Errorf("debuggable build, sending: %q %q", code, message)
	}
}

func TestTheShellNeedsNoConsent_butIsRateLimited(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 1, Per: time.Hour})
	if code, message := p.call(access.ShellCaller, "send_sms", sendArgs); code != "" || p.sent(t) != 1 {
		t.Errorf("the shell: %q %q", code, message)
	}
	if code, _ := p.call(access.ShellCaller, "send_sms", sendArgs); code != "rate_limited" || p.sent(t) != 1 {
		t.Errorf("the shell's second send within the hour: %q", code)
	}
}

func TestInvalidArgumentsComeBeforeConsent(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 100, Per: time.Minute})
	if code, _ := p.call("com.example.agent", "send_sms", `{"sms_text":"Hi"}`); code != "invalid_arguments" {
		t.Errorf("got %s: a malformed call should be told what is wrong before anyone is asked", code)
	}
}

// Admit's nil is a nil error, not a nil *capability.Error in one.
func TestAdmitAllowsWithANilError(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 1, Per: time.Hour})
	subs, _ := p.engine.Registry().Lookup("get_sms_subscriptions")
	var err error
	if err = p.policy.Admit(context.Background(), capability.Caller{ID: "com.example.agent", Vouched: true}, subs); err != nil {
		t.Errorf("Admit: %#v", err)
	}
}

func TestRateLimitSaysOneSecond(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 1, Per: time.Second})
	p.policy.Consents().Decide("com.example.agent", access.Allowed)
	p.call("com.example.agent", "send_sms", sendArgs)
	if code, message := p.call("com.example.agent", "send_sms", sendArgs); message != "send_sms is limited to 1/sec per app; retry in 1 second" {
		t.Errorf("the second call: %q %q", code, message)
	}
}

// The capability's own checks (E.164, blank text) come before admission as
// well: a caller without consent is told what is wrong with its call rather
// than asked to get consent for it, and a caller with consent spends no
// rate budget on a call that could never run.
func TestCapabilityChecksComeBeforeAdmission(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 1, Per: time.Hour})
	bad := []struct{ args, message string }{
		{`{"to_phone_number":"0785880347","sms_text":"Hi","subscription_id":14}`,
			`to_phone_number "0785880347" is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567`},
		{`{"to_phone_number":"+33785880347","sms_text":" \n ","subscription_id":14}`,
			"sms_text is empty; send at least one visible character"},
	}
	for _, caller := range []string{"com.example.stranger", "com.example.agent"} {
		if caller == "com.example.agent" {
			p.policy.Consents().Decide(caller, access.Allowed)
		}
		for _, b := range bad {
			for range 2 {
				if code, message := p.call(caller, "send_sms", b.args); code != "invalid_arguments" || message != b.message {
					t.Errorf("%s, %s: %q %q", caller, b.args, code, message)
				}
			}
		}
	}
	if code, message := p.call("com.example.agent", "send_sms", sendArgs); code != "" {
		t.Errorf("the one valid call: %q %q", code, message)
	}
	if n := p.sent(t); n != 1 {
		t.Errorf("%d sent, want 1", n)
	}
}

// A caller the transport cannot vouch for (an Intent's callback creator)
// runs what reads, and nothing that changes something, even with the
// user's consent: permission_denied, no budget used, nothing sent.
func TestAClaimedCallerRunsOnlyWhatReads(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 1, Per: time.Hour})
	p.policy.Consents().Decide("com.example.agent", access.Allowed)
	claimed := func(capabilityID, args string) (string, string) {
		req := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"x","capability":{"id":"` + capabilityID + `","args":` + args + `}}}}`
		r := p.engine.Do(context.Background(), capability.NewCall([]byte(req), capability.Caller{ID: "com.example.agent"}, p.policy.Admit))
		return string(r.ErrorCode), r.Message
	}
	if code, message := claimed("send_sms", sendArgs); code != "permission_denied" || !strings.HasPrefix(message, "send_sms changes something on this phone, so it runs only for a caller that Android identifies: bind to this tool's service") {
		t.Errorf("send_sms: %q %q", code, message)
	}
	if code, message := claimed("get_sms_subscriptions", "{}"); code != "" {
		t.Errorf("get_sms_subscriptions: %q %q", code, message)
	}
	if code, message := p.call("com.example.agent", "send_sms", sendArgs); code != "" || p.sent(t) != 1 {
		t.Errorf("vouched for, with the one call of the budget: %q %q, %d sent", code, message, p.sent(t))
	}
}

// A decision belongs to an app, not a name: it is recorded with the
// package's signer, and dropped once the package is gone or signed by
// another certificate, so that an app that takes over the name is asked.
func TestADecisionBelongsToTheAppThatHadTheName(t *testing.T) {
	path := filepath.Join(t.TempDir(), access.ConsentFile)
	consents, err := access.OpenConsents(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	installed := map[string]string{"com.example.agent": strings.Repeat("a", 64)}
	consents.SetSigners(func(pkg string) (string, error) {
		if s, ok := installed[pkg]; ok {
			return s, nil
		}
		return "", errors.New("no such package")
	})
	if err := consents.Decide("com.example.agent", access.Allowed); err != nil {
		t.Fatal(err)
	}
	if g := consents.List(); len(g) != 1 || g[0].Signer != strings.Repeat("a", 64) {
		t.Fatalf("recorded %+v", g)
	}
	if d, ok := consents.Decision("com.example.agent"); !ok || d != access.Allowed {
		t.Errorf("the same app: %q %v", d, ok)
	}
	installed["com.example.agent"] = strings.Repeat("b", 64) // removed, and another app installed under the name
	if d, ok := consents.Decision("com.example.agent"); ok {
		t.Errorf("another signer: %q", d)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "com.example.agent") {
		t.Errorf("the decision is still in the file:\n%s", data)
	}
	if err := consents.Decide("com.example.agent", access.Denied); err != nil {
		t.Fatal(err)
	}
	delete(installed, "com.example.agent")
	if d, ok := consents.Decision("com.example.agent"); ok || len(consents.List()) != 0 {
		t.Errorf("a package that is gone: %q %v %+v", d, ok, consents.List())
	}
	if err := consents.Decide("com.example.gone", access.Allowed); err == nil || err.Error() != "cannot tell which app com.example.gone is: no such package" {
		t.Errorf("deciding about a package that is not installed: %v", err)
	}
}

// A consent file that holds what Decide would never record is refused
// whole, saying what is wrong: a "maybe" once read as a yes and sent.
func TestAConsentFileWithAnInvalidDecisionIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), access.ConsentFile)
	for file, want := range map[string]string{
		`[{"package":"com.example.agent","decision":"maybe","at":"2026-11-21T10:00:00Z"}]`:   `decision "maybe": want "allowed" or "denied"`,
		`[{"package":"","decision":"allowed","at":"2026-11-21T10:00:00Z"}]`:                  `"" is not an Android package name`,
		`[{"package":"com.x","decision":"denied"},{"package":"com.x","decision":"allowed"}]`: `a second decision about com.x`,
	} {
		os.WriteFile(path, []byte(file), 0o600)
		if _, err := access.OpenConsents(path, nil); err == nil || err.Error() != "consent store "+path+": "+want {
			t.Errorf("%s:\n got %v\nwant %s", file, err, want)
		}
	}
}

// FuzzOpenConsents: no consent file makes OpenConsents panic, and every
// decision it accepts is one Decide could have recorded, once per package.
func FuzzOpenConsents(f *testing.F) {
	for _, seed := range []string{
		`[{"package":"com.example.agent","signer":"0a","decision":"allowed","at":"2026-11-21T10:00:00Z"}]`,
		`[{"package":"com.x","decision":"maybe"}]`, `[]`, `null`, `{}`, `[{"package":"a b"}]`, `[{"package":"com.x","decision":"denied"},{"package":"com.x","decision":"denied"}]`,
	} {
		f.Add([]byte(seed))
	}
	path := filepath.Join(f.TempDir(), access.ConsentFile)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := access.OpenConsents(path, nil)
		if err != nil {
			return
		}
		check, _ := access.OpenConsents("", nil)
		for _, g := range c.List() {
			if err := check.Decide(g.Package, g.Decision); err != nil {
				t.Fatalf("%q: accepted %+v, which Decide refuses: %v", data, g, err)
			}
			if d, ok := c.Decision(g.Package); !ok || d != g.Decision {
				t.Fatalf("%q: %+v reads back as %q %v", data, g, d, ok)
			}
		}
		if len(check.List()) != len(c.List()) {
			t.Fatalf("%q: a package decided twice", data)
		}
	})
}

// A rate_limited reply says when to retry in a field of its own,
// retry_after_ms, beside error_code, so that a client need not read the
// message; DecodeReply reads it back.
func TestARateLimitedReplySaysWhenToRetry(t *testing.T) {
	p := newPhoneWithPolicy(t, ratelimit.Rate{Calls: 1, Per: time.Second})
	p.policy.Consents().Decide("com.example.agent", access.Allowed)
	do := func(id string) *capability.Reply {
		req := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"` + id + `","capability":{"id":"send_sms","args":` + sendArgs + `}}}}`
		return p.engine.Do(context.Background(), capability.NewCall([]byte(req), capability.Caller{ID: "com.example.agent", Vouched: true}, p.policy.Admit))
	}
	if r := do("first"); r.Failed() {
		t.Fatalf("the first call: %s", r.JSON())
	}
	limited := do("second")
	got := regexp.MustCompile(`"retry_after_ms":(\d+)}}}$`).FindStringSubmatch(string(limited.JSON()))
	if limited.ErrorCode != capability.CodeRateLimited || got == nil {
		t.Fatalf("the second call's reply has no retry_after_ms: %s", limited.JSON())
	}
	if ms, _ := strconv.Atoi(got[1]); ms < 1 || ms > 1000 {
		t.Errorf("retry_after_ms %d; want 1 to 1000 for a rate of 1/sec", ms)
	}
	back, err := capability.DecodeReply(limited.JSON())
	if err != nil || back.RetryAfter.Milliseconds() != int64(mustAtoi(got[1])) {
		t.Errorf("DecodeReply: %v, RetryAfter %v; want %s ms", err, back.RetryAfter, got[1])
	}
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
