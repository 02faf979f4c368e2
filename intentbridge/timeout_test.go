package intentbridge

import (
	"testing"
)

func TestDefaultDeadlineGivesJavaFiftyEightSeconds(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	if r := handle(newBridge(t, f), sendRequest("d1"), testAgent); !r.Success() {
		t.Fatalf("reply %s", r.SpecJSON())
	}
	// send_sms has 60 s; Java gets all of it but the 2 s margin, less the
	// moment spent before SendSMS was called.
	if len(f.Waits()) != 1 || f.Waits()[0] > 58000 || f.Waits()[0] < 57000 {
		t.Errorf("SendSMS timeoutMillis %v, want just under 58000", f.Waits())
	}
}

func TestShortDeadlineEndsWithTheTimeoutReply(t *testing.T) {
	// Java waited as long as it was told and no sent result came: 0.
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[0]}`}
	tool := smsTool(f)
	tool.SetTimeoutMillis(1000)
	b := openSMS(t, tool, t.TempDir())
	b.AllowCaller(testAgent)
	r := handle(b, sendRequest("t1"), testAgent)
	want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":"t1","capability":{"id":"send_sms"},"status":"failure","message":"no sent confirmation for part 1 of 1 of the SMS to +33785880347; it may still be delivered, so check before sending again","error_code":"timeout"}}}`
	if r.SpecJSON() != want {
		t.Errorf("reply\n got %s\nwant %s", r.SpecJSON(), want)
	}
	if len(f.Waits()) != 1 || f.Waits()[0] > 750 || f.Waits()[0] < 700 {
		t.Errorf("SendSMS timeoutMillis %v, want just under 750 (1000 less a quarter)", f.Waits())
	}
}

func TestNonPositiveTimeoutKeepsTheDefaults(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	tool := smsTool(f)
	tool.SetTimeoutMillis(0)
	b := openSMS(t, tool, "")
	b.AllowCaller(testAgent)
	if r := handle(b, sendRequest("z1"), testAgent); !r.Success() || len(f.Waits()) != 1 || f.Waits()[0] < 57000 {
		t.Errorf("reply %s, waits %v", r.SpecJSON(), f.Waits())
	}
}
