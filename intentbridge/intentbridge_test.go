package intentbridge

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/javaplatform"
	"github.com/mobilemcp/mobilemcp/sms/javaplatform/javaplatformtest"
)

// fakeJava stands in for the Java Platform.
type fakeJava = javaplatformtest.Fake

const seedSubs = javaplatformtest.Subscriptions

// testAgent is the calling app of most tests. newBridge records the user's
// consent for it, so its sends run.
const testAgent = "com.example.agent"

func newBridge(t *testing.T, f *fakeJava) *Bridge {
	t.Helper()
	b := openSMS(t, smsTool(f), t.TempDir())
	if err := b.AllowCaller(testAgent); err != nil {
		t.Fatal(err)
	}
	return b
}

// smsDescriptor is the SMS app's descriptor, as 'mobilemcp gen' writes it.
var smsDescriptor = string(xmlfile.Render(func() []*capability.Capability {
	reg, err := capability.NewRegistry(sms.Capabilities(nil)...)
	if err != nil {
		panic(err)
	}
	return reg.All()
}()))

// compiled is what the Tool SDK hands the engine for the descriptor xml:
// the JSON tree of its compiled resource.
func compiled(xml string) string {
	tree, err := xmlfile.TreeJSON([]byte(xml))
	if err != nil {
		panic(err)
	}
	return string(tree)
}

// smsTool is the SMS app's tool over f.
func smsTool(f *fakeJava) *Tool {
	tool := NewTool("mcp_capabilities.xml", compiled(smsDescriptor))
	tool.AddGo(javaplatform.Capabilities(f)...)
	return tool
}

// openSMS opens a bridge on dir that serves tool, closed when the test ends.
func openSMS(t *testing.T, tool *Tool, dir string) *Bridge {
	t.Helper()
	b, err := OpenBridge(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	b.log = quiet // a test that reads the log sets its own
	if err := b.Start(tool); err != nil {
		t.Fatal(err)
	}
	return b
}

// quiet is the log of the bridges tests open, which would otherwise fill
// the test output with the panics and overruns they provoke.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// sent is one reply as a ReplyTarget gets it.
type sent struct {
	spec, flat, id, code string
}

func (s *sent) SpecJSON() string  { return s.spec }
func (s *sent) FlatJSON() string  { return s.flat }
func (s *sent) RequestID() string { return s.id }
func (s *sent) ErrorCode() string { return s.code }
func (s *sent) Success() bool     { return s.code == "" }
func (s *sent) Prototype() bool   { return s.flat != "" }

// replies is a ReplyTarget that keeps what it is sent.
type replies struct {
	mu   sync.Mutex
	sent []*sent
}

func (r *replies) Send(specJSON, flatJSON, requestID, errorCode string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, &sent{specJSON, flatJSON, requestID, errorCode})
	return nil
}

func (r *replies) all() []*sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*sent(nil), r.sent...)
}

// handle runs one request through b and returns its one reply, which
// Handle delivers before it returns unless a handler overruns.
func handle(b *Bridge, request, caller string) *sent {
	var to replies
	b.Handle(request, caller, &to)
	sent := to.all()
	if len(sent) != 1 {
		panic(fmt.Sprintf("Handle delivered %d replies to %.80s", len(sent), request))
	}
	return sent[0]
}

// handleIntent runs a request that came in an Intent as the SDK does:
// queued (QueueIntent), then run by a worker (RunNext).
func handleIntent(b *Bridge, request, callbackCreator string, to ReplyTarget) {
	if b.QueueIntent(request, callbackCreator, to, nil) {
		b.RunNext()
	}
}

// handleShell runs a request from adb's shell as the SDK does: queued
// (QueueShell), then run by a worker (RunNext).
func handleShell(b *Bridge, request string, to ReplyTarget) {
	if b.QueueShell(request, to, nil) {
		b.RunNext()
	}
}

func sendRequest(id string) string {
	return `{"mobile-mcp-request":{"version":"1.0","request":{"id":"` + id + `","capability":{"id":"send_sms","args":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":"14"}}}}}`
}

func TestHandleSpecRequest(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	r := handle(newBridge(t, f), sendRequest("a1"), testAgent)
	want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":"a1","capability":{"id":"send_sms","output":[{"name":"to_phone_number","type":"string","value":"+33785880347"},{"name":"subscription_id","type":"integer","value":14},{"name":"encoding","type":"string","value":"gsm7"},{"name":"segments","type":"integer","value":1}]},"status":"success","message":"SMS sent to +33785880347"}}}`
	if r.SpecJSON() != want || r.Prototype() || r.RequestID() != "a1" || !r.Success() || r.ErrorCode() != "" {
		t.Errorf("reply %s prototype=%v id=%q", r.SpecJSON(), r.Prototype(), r.RequestID())
	}
	if len(f.Sends()) != 1 || f.Sends()[0] != "14|+33785880347|Hello world" {
		t.Errorf("sends %q", f.Sends())
	}
}

func TestHandlePrototypeRequestFillsBothLayouts(t *testing.T) {
	f := &fakeJava{Subs: seedSubs}
	r := handle(newBridge(t, f), `{"id":"p1","capability":{"id":"get_sms_subscriptions","input":"{}"}}`, "com.example.llm_app")
	if !r.Prototype() || r.RequestID() != "p1" {
		t.Fatalf("prototype=%v id=%q", r.Prototype(), r.RequestID())
	}
	flat := `{"id":"p1","capability":{"id":"get_sms_subscriptions","output":[{"name":"count","type":"integer","value":2},{"name":"subscriptions","type":"array","value":` + seedSubs + `}]},"status":"success","message":"{\"count\":2,\"subscriptions\":` + strings.ReplaceAll(seedSubs, `"`, `\"`) + `}"}`
	if r.FlatJSON() != flat {
		t.Errorf("flat\n got %s\nwant %s", r.FlatJSON(), flat)
	}
	if want := `{"mobile-mcp-response":{"version":"1.0","response":` + flat + `}}`; r.SpecJSON() != want {
		t.Errorf("spec\n got %s\nwant %s", r.SpecJSON(), want)
	}
}

func TestHandleFailuresFromJava(t *testing.T) {
	tests := []struct {
		name string
		java *fakeJava
		req  string
		want string
	}{
		{"empty request", &fakeJava{}, "  ",
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":null,"status":"failure","message":"no request: put the request JSON in the mobile-mcp-request extra, as a String","error_code":"invalid_request"}}}`},
		{"permission denied", &fakeJava{Subs: seedSubs, Send: `{"error_code":"permission_denied","message":"SEND_SMS is not granted"}`}, sendRequest("b1"),
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"b1","capability":{"id":"send_sms"},"status":"failure","message":"SEND_SMS is not granted","error_code":"permission_denied"}}}`},
		{"radio error code", &fakeJava{Subs: seedSubs, Send: `{"results":[4]}`}, sendRequest("b2"),
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"b2","capability":{"id":"send_sms"},"status":"failure","message":"SMS to +33785880347 failed: no service","error_code":"platform_error"}}}`},
		{"part never confirmed", &fakeJava{Subs: seedSubs, Send: `{"results":[-1,0]}`}, sendRequest("b3"),
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"b3","capability":{"id":"send_sms"},"status":"failure","message":"no sent confirmation for part 2 of 2 of the SMS to +33785880347; it may still be delivered, so check before sending again","error_code":"timeout"}}}`},
		{"java exception", &fakeJava{Subs: seedSubs, SendErr: errors.New("java.lang.IllegalStateException: radio busy")}, sendRequest("b4"),
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"b4","capability":{"id":"send_sms"},"status":"failure","message":"sending the SMS to +33785880347 failed: java.lang.IllegalStateException: radio busy","error_code":"platform_error"}}}`},
		{"malformed platform JSON", &fakeJava{Subs: `{"oops":1}`}, sendRequest("b5"),
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"b5","capability":{"id":"send_sms"},"status":"failure","message":"listing subscriptions failed: the Java platform listed subscriptions as \"{\\\"oops\\\":1}\": json: unknown field \"oops\"","error_code":"internal_error"}}}`},
		{"subscriptions object without error_code", &fakeJava{Subs: `{}`}, sendRequest("b7"),
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"b7","capability":{"id":"send_sms"},"status":"failure","message":"listing subscriptions failed: the Java platform listed subscriptions as \"{}\": an object without error_code","error_code":"internal_error"}}}`},
		{"subscriptions permission denied", &fakeJava{Subs: `{"error_code":"permission_denied","message":"READ_PHONE_STATE is not granted"}`}, sendRequest("b8"),
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"b8","capability":{"id":"send_sms"},"status":"failure","message":"READ_PHONE_STATE is not granted","error_code":"permission_denied"}}}`},
		{"panic in the platform", &fakeJava{Panicking: true}, sendRequest("b6"),
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"b6","capability":{"id":"send_sms"},"status":"failure","message":"send_sms failed with an internal error: java side exploded","error_code":"internal_error"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := handle(newBridge(t, tt.java), tt.req, testAgent)
			if r.SpecJSON() != tt.want || r.Success() {
				t.Errorf("reply\n got %s\nwant %s", r.SpecJSON(), tt.want)
			}
		})
	}
}

func TestRetriedSendIsAnsweredFromTheStorePerCaller(t *testing.T) {
	dir := t.TempDir()
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b := openSMS(t, smsTool(f), dir)
	for _, app := range []string{testAgent, "com.example.other"} {
		if err := b.AllowCaller(app); err != nil {
			t.Fatal(err)
		}
	}
	first := handle(b, sendRequest("once"), testAgent)
	b.Close()

	// Android killed the process; the agent retries after the restart.
	b = openSMS(t, smsTool(f), dir)
	again := handle(b, sendRequest("once"), testAgent)
	if again.SpecJSON() != first.SpecJSON() || len(f.Sends()) != 1 {
		t.Errorf("retry %s, first %s; %d sends", again.SpecJSON(), first.SpecJSON(), len(f.Sends()))
	}
	other := handle(b, sendRequest("once"), "com.example.other")
	if !other.Success() || len(f.Sends()) != 2 {
		t.Errorf("another app's request with the same id: %s, sends %d", other.SpecJSON(), len(f.Sends()))
	}
}

// bigSubscriptions returns n subscriptions, the last with a carrier name
// padded by pad characters, as the Java platform would list them.
func bigSubscriptions(n, pad int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		name := "Carrier"
		if i == n-1 {
			name += strings.Repeat("x", pad)
		}
		b.WriteString(`{"subscription_id":` + strconv.Itoa(i+1) + `,"sim_slot_index":` + strconv.Itoa(i) + `,"carrier_name":"` + name + `","display_name":"SIM"}`)
	}
	return b.String() + "]"
}

func replySize(r *sent) int { return len(r.SpecJSON()) + len(r.FlatJSON()) + len(r.RequestID()) }

// TestReplyLimit finds a reply of exactly MaxReplyBytes, which must pass,
// and one byte more, which must come back as too_large. The prototype layout
// is used because its id counts three times and a name character four
// times, so some combination lands on the limit exactly.
func TestReplyLimit(t *testing.T) {
	f := &fakeJava{}
	b := newBridge(t, f)
	request := func(id string) string {
		return `{"id":"` + id + `","capability":{"id":"get_sms_subscriptions"}}`
	}
	sizeWith := func(id string, pad int) (int, *sent) {
		f.Subs = bigSubscriptions(250, pad)
		r := handle(b, request(id), testAgent)
		return replySize(r), r
	}
	for idLen := 8; idLen < 16; idLen++ {
		id := strings.Repeat("i", idLen)
		lo, hi := 0, MaxReplyBytes // the largest pad whose reply fits
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if _, r := sizeWith(id, mid); r.Success() { // an oversized reply fails small
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		size, atLimit := sizeWith(id, lo)
		if size != MaxReplyBytes {
			continue
		}
		if !atLimit.Success() {
			t.Fatalf("a reply of exactly %d bytes failed: %.200s", size, atLimit.SpecJSON())
		}
		// A name character adds four bytes and an id character three: three
		// more id characters and two fewer name characters land one byte past.
		_, over := sizeWith(id+"iii", lo-2)
		want := `{"id":"` + id + `iii","capability":{"id":"get_sms_subscriptions"},"status":"failure","message":"get_sms_subscriptions ran, but its reply is 131073 bytes, over the 131072-byte limit for an Intent reply","error_code":"too_large"}`
		if over.FlatJSON() != want {
			t.Errorf("just past the limit:\n got %s\nwant %s", over.FlatJSON(), want)
		}
		return
	}
	t.Fatal("no combination reached the limit exactly")
}
