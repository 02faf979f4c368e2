package sms_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// TestSendsAtMost30PartsAMinuteOverEveryCaller: the cap counts parts, not
// messages, over every caller of the one set (a phone serves one set to
// every transport), and the 31st part gets rate_limited with the time to
// wait, before anything reaches the phone.
func TestSendsAtMost30PartsAMinuteOverEveryCaller(t *testing.T) {
	eng, outbox := newPhoneEngine(t, simphone.DefaultConfig())
	threeParts := strings.Repeat("€", 160) // 160 GSM-7 extension characters: 320 septets, 3 parts
	for i := range 10 {
		caller := capability.Caller{ID: fmt.Sprintf("caller.%d", i%2), Vouched: true}
		id := fmt.Sprintf("p%d", i)
		got := string(eng.Do(context.Background(), capability.NewCall([]byte(sendRequest(id, `{"to_phone_number":"+33785880347","sms_text":"`+threeParts+`","subscription_id":14}`)), caller, nil)).JSON())
		if want := sentReply(id, "+33785880347", 14, "gsm7", 3); got != want {
			t.Fatalf("send %d\n got %s\nwant %s", i+1, got, want)
		}
	}

	reply := eng.Do(context.Background(), capability.NewCall([]byte(sendRequest("p31", `{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}`)), capability.Caller{ID: "caller.new", Vouched: true}, nil))
	if reply.ErrorCode != capability.CodeRateLimited {
		t.Fatalf("the 31st part: %s", reply.JSON())
	}
	want := regexp.MustCompile(`^this phone sends at most 30 SMS parts a minute \(beyond that Android stops and asks the user to confirm\); ` +
		`30 parts went in the last minute and this SMS needs 1; nothing was sent: retry in (5\d|60) seconds$`)
	if !want.MatchString(reply.Message) {
		t.Errorf("message %q", reply.Message)
	}
	records, err := simphone.ReadOutbox(outbox)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 10 {
		t.Errorf("%d sends reached the phone, want 10", len(records))
	}
}

// TestSendsThatFailBeforeThePhoneDoNotCount: a send the platform refuses as
// a whole (here, no SEND_SMS permission) sent no part, so it leaves the
// minute's parts to the sends that go.
func TestSendsThatFailBeforeThePhoneDoNotCount(t *testing.T) {
	cfg := simphone.DefaultConfig()
	cfg.Faults = append(cfg.Faults, simphone.Fault{To: "+441234567890", Result: "permission_denied"})
	phone, err := simphone.New(cfg, simphone.Options{OutboxPath: filepath.Join(t.TempDir(), simphone.OutboxFile)})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := capability.NewRegistry(sms.CapabilitiesWith(phone, sms.Options{PartsPerMinute: 2})...)
	if err != nil {
		t.Fatal(err)
	}
	eng := capability.NewEngine(reg, capability.Options{})
	for i := range 5 {
		reply := eng.Do(context.Background(), capability.NewCall([]byte(sendRequest(fmt.Sprint("d", i), `{"to_phone_number":"+441234567890","sms_text":"Hi","subscription_id":14}`)), capability.Caller{}, nil))
		if reply.ErrorCode != capability.CodePermissionDenied {
			t.Fatalf("refused send %d: %s", i, reply.JSON())
		}
	}
	for i := range 2 {
		if reply := eng.Do(context.Background(), capability.NewCall([]byte(sendRequest(fmt.Sprint("s", i), `{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}`)), capability.Caller{}, nil)); reply.Failed() {
			t.Fatalf("send %d after the refused ones: %s", i, reply.JSON())
		}
	}
	if reply := eng.Do(context.Background(), capability.NewCall([]byte(sendRequest("s3", `{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}`)), capability.Caller{}, nil)); reply.ErrorCode != capability.CodeRateLimited {
		t.Fatalf("a third part with PartsPerMinute 2: %s", reply.JSON())
	}
}

// TestNegativePartsPerMinuteIsNoCap: load tests on the simulated phone turn
// the cap off.
func TestNegativePartsPerMinuteIsNoCap(t *testing.T) {
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := capability.NewRegistry(sms.CapabilitiesWith(phone, sms.Options{PartsPerMinute: -1})...)
	eng := capability.NewEngine(reg, capability.Options{})
	for i := range 40 {
		if reply := eng.Do(context.Background(), capability.NewCall([]byte(sendRequest(fmt.Sprint("n", i), `{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}`)), capability.Caller{}, nil)); reply.Failed() {
			t.Fatalf("send %d: %s", i, reply.JSON())
		}
	}
}
