package sms_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/replystore"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// dedupingPhone is an engine with a reply store over a simulated phone whose
// outbox counts what was really sent.
type dedupingPhone struct {
	engine *capability.Engine
	outbox string
	store  *replystore.Store
}

func newDedupingPhone(t *testing.T, dir string) *dedupingPhone {
	t.Helper()
	outbox := filepath.Join(dir, simphone.OutboxFile)
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{OutboxPath: outbox})
	if err != nil {
		t.Fatal(err)
	}
	store, err := replystore.Open(replystore.Options{Path: filepath.Join(dir, replystore.FileName)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	reg, _ := capability.NewRegistry(sms.Capabilities(phone)...)
	return &dedupingPhone{engine: capability.NewEngine(reg, capability.Options{Replies: store}), outbox: outbox, store: store}
}

func (d *dedupingPhone) sent(t *testing.T) int {
	t.Helper()
	records, err := simphone.ReadOutbox(d.outbox)
	if err != nil {
		t.Fatal(err)
	}
	return len(records)
}

func handleAs(d *dedupingPhone, caller, request string) *capability.Reply {
	return d.engine.Do(context.Background(), capability.NewCall([]byte(request), capability.Caller{ID: caller, Vouched: true}, nil))
}

const seedSend = `{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}`

func TestRetrySendsOnce(t *testing.T) {
	d := newDedupingPhone(t, t.TempDir())
	first := handleAs(d, "com.agent", sendRequest("retry-1", seedSend))
	// The retry spells the subscription as adb would; it is the same request.
	second := handleAs(d, "com.agent", sendRequest("retry-1", `{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":"14"}`))
	if string(second.JSON()) != string(first.JSON()) || first.Replayed || !second.Replayed {
		t.Errorf("retry reply\n got %s (replayed %v)\nwant %s", second.JSON(), second.Replayed, first.JSON())
	}
	if n := d.sent(t); n != 1 {
		t.Errorf("%d sends, want 1", n)
	}
	// The prototype layout of the same id gets the same reply, flat.
	proto := handleAs(d, "com.agent", `{"id":"retry-1","capability":{"id":"send_sms","input":`+seedSend+`}}`)
	if want := string(first.FlatJSON()); string(proto.JSON()) != want {
		t.Errorf("prototype retry\n got %s\nwant %s", proto.JSON(), want)
	}
}

func TestConcurrentDuplicatesSendOnce(t *testing.T) {
	d := newDedupingPhone(t, t.TempDir())
	var wg sync.WaitGroup
	replies := make([]string, 50)
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i] = string(handleAs(d, "com.agent", sendRequest("storm", seedSend)).JSON())
		}()
	}
	wg.Wait()
	for _, r := range replies {
		if r != replies[0] || !strings.Contains(r, `"status":"success"`) {
			t.Fatalf("replies differ: %s vs %s", r, replies[0])
		}
	}
	if n := d.sent(t); n != 1 {
		t.Errorf("%d sends, want 1", n)
	}
}

func TestRepliesAreKeptPerCaller(t *testing.T) {
	d := newDedupingPhone(t, t.TempDir())
	handleAs(d, "com.one", sendRequest("1", seedSend))
	handleAs(d, "com.two", sendRequest("1", seedSend))
	if n := d.sent(t); n != 2 {
		t.Errorf("%d sends, want 2: two apps may pick the same id", n)
	}
}

func TestReusedIDForAnotherRequestIsRejected(t *testing.T) {
	d := newDedupingPhone(t, t.TempDir())
	handleAs(d, "com.agent", sendRequest("reuse", seedSend))
	got := handleAs(d, "com.agent", sendRequest("reuse", `{"to_phone_number":"+36201234567","sms_text":"Hello world","subscription_id":14}`))
	want := reply(`{"id":"reuse","capability":{"id":"send_sms"},"status":"failure","message":"request id \"reuse\" was already used for a different request in the last 10m0s; send a new id for a new request","error_code":"invalid_request"}`)
	if string(got.JSON()) != want {
		t.Errorf("got  %s\nwant %s", got.JSON(), want)
	}
	if n := d.sent(t); n != 1 {
		t.Errorf("%d sends, want 1", n)
	}
}

func TestInvalidArgumentsCanBeFixedUnderTheSameID(t *testing.T) {
	d := newDedupingPhone(t, t.TempDir())
	bad := handleAs(d, "com.agent", sendRequest("fixme", `{"to_phone_number":"+33785880347","sms_text":"Hello world"}`))
	good := handleAs(d, "com.agent", sendRequest("fixme", seedSend))
	if bad.ErrorCode != capability.CodeInvalidArguments || good.Failed() || d.sent(t) != 1 {
		t.Errorf("bad %s, good %s, sends %d", bad.JSON(), good.JSON(), d.sent(t))
	}
}

func TestFailuresAreReplayedToo(t *testing.T) {
	d := newDedupingPhone(t, t.TempDir())
	req := sendRequest("no-service", `{"to_phone_number":"+15555550100","sms_text":"Hi","subscription_id":14}`)
	first := handleAs(d, "com.agent", req)
	second := handleAs(d, "com.agent", req)
	if first.ErrorCode != capability.CodePlatformError || string(second.JSON()) != string(first.JSON()) || !second.Replayed {
		t.Errorf("first %s, second %s", first.JSON(), second.JSON())
	}
	if records, _ := simphone.ReadOutbox(d.outbox); len(records) != 1 {
		t.Errorf("%d attempts, want 1", len(records))
	}
}

func TestReadOnlyCapabilitiesAreNotReplayed(t *testing.T) {
	d := newDedupingPhone(t, t.TempDir())
	req := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"list","capability":{"id":"get_sms_subscriptions"}}}}`
	handleAs(d, "com.agent", req)
	if again := handleAs(d, "com.agent", req); again.Replayed {
		t.Error("a read-only call was replayed")
	}
}

func TestReplayAfterRestart(t *testing.T) {
	dir := t.TempDir()
	d := newDedupingPhone(t, dir)
	first := handleAs(d, "com.agent", sendRequest("across-restart", seedSend))
	d.store.Close()

	restarted := newDedupingPhone(t, dir)
	second := handleAs(restarted, "com.agent", sendRequest("across-restart", seedSend))
	if string(second.JSON()) != string(first.JSON()) || !second.Replayed || restarted.sent(t) != 1 {
		t.Errorf("after restart: %s (replayed %v), %d sends", second.JSON(), second.Replayed, restarted.sent(t))
	}
}
