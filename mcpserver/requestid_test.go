package mcpserver_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// callWithID sends a tools/call of send_sms carrying a request id in _meta.
func (s *testServer) callWithID(id string) string {
	s.t.Helper()
	_, body := s.post(nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_sms","_meta":{"`+mcpserver.MetaRequestID+`":`+id+`},`+
		`"arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}`)
	return body
}

func TestRetryWithTheSameRequestIDSendsOnce(t *testing.T) {
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Off()})
	first := s.callWithID(`"retry-1"`)
	second := s.callWithID(`"retry-1"`)
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"SMS sent to +33785880347"}],"structuredContent":{"to_phone_number":"+33785880347","subscription_id":14,"encoding":"gsm7","segments":1}}}`
	if strings.TrimSpace(first) != want || strings.TrimSpace(second) != want {
		t.Errorf("first  %s\nsecond %s\nwant   %s", first, second, want)
	}
	if n := s.sends(); n != 1 {
		t.Errorf("%d sends, want 1", n)
	}
	s.callWithID(`"retry-2"`)
	if n := s.sends(); n != 2 {
		t.Errorf("a new id did not send: %d sends", n)
	}
}

func TestConcurrentRetriesOverMCPSendOnce(t *testing.T) {
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Off()})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if body := s.callWithID(`"storm"`); !strings.Contains(body, "SMS sent to +33785880347") {
				t.Errorf("reply %s", body)
			}
		}()
	}
	wg.Wait()
	if n := s.sends(); n != 1 {
		t.Errorf("%d sends, want 1", n)
	}
}

func TestBadRequestIDInMeta(t *testing.T) {
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Off()})
	for _, id := range []string{`7`, `""`, `null`, `"` + strings.Repeat("x", 257) + `"`} {
		body := s.callWithID(id)
		if !strings.Contains(body, `"isError":true`) || !strings.Contains(body, `invalid_request: _meta \"io.github.mobilemcp/request_id\" must be a non-empty string of at most 256 bytes`) {
			t.Errorf("id %.20s: %s", id, body)
		}
	}
	if n := s.sends(); n != 0 {
		t.Errorf("%d sends, want 0", n)
	}
}

// A retry of a sent request is answered from the reply store before the
// rate limit: it uses no budget, so it is never told to wait and then send
// a second time. The engine's one order applies (docs/security.md).
func TestRetryIsAnsweredBeforeTheRateLimit(t *testing.T) {
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Rate{Calls: 1, Per: time.Hour}})
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"SMS sent to +33785880347"}],"structuredContent":{"to_phone_number":"+33785880347","subscription_id":14,"encoding":"gsm7","segments":1}}}`
	for i := range 3 {
		if got := strings.TrimSpace(s.callWithID(`"sent-once"`)); got != want {
			t.Errorf("call %d:\n got %s\nwant %s", i+1, got, want)
		}
	}
	if n := s.sends(); n != 1 {
		t.Errorf("%d sends, want 1", n)
	}
	// The budget was spent once, by the first call.
	want = `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.github.mobilemcp/error_code":"rate_limited","io.github.mobilemcp/retry_after_ms":W},"content":[{"type":"text","text":"rate_limited: send_sms is limited to 1/hour shared by every client on this computer; retry in 3600 seconds"}],"isError":true}}`
	if got := withoutTheWait(strings.TrimSpace(s.callWithID(`"another"`))); got != want {
		t.Errorf("a new id:\n got %s\nwant %s", got, want)
	}
}

// A rate-limited result says how long to wait in _meta, as a Mobile-MCP
// reply's retry_after_ms does, so that a client need not read the text.
func TestARateLimitedResultSaysWhenToRetry(t *testing.T) {
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Rate{Calls: 1, Per: time.Hour}})
	s.callWithID(`"first"`)
	var got struct {
		Result struct {
			Meta    map[string]any `json:"_meta"`
			IsError bool           `json:"isError"`
		} `json:"result"`
	}
	raw := s.callWithID(`"second"`)
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	wait, ok := got.Result.Meta["io.github.mobilemcp/retry_after_ms"].(float64)
	if !got.Result.IsError || got.Result.Meta[mcpserver.MetaErrorCode] != "rate_limited" || !ok || wait <= 3590000 || wait > 3600000 {
		t.Errorf("the second call's result is %s; want rate_limited with io.github.mobilemcp/retry_after_ms of about 3600000", raw)
	}
}
