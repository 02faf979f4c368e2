package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// TestTenThousandConcurrentCallsOverHTTP sends 10,000 tools/call requests
// from 64 goroutines over keep-alive connections. Every reply must answer
// its own request (JSON-RPC id and content), every send must be in the
// outbox exactly once, and the heap must come back to its steady state.
func TestTenThousandConcurrentCallsOverHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("long test")
	}
	const total, workers = 10_000, 64
	// The call log goes nowhere: kept in memory, 10,000 lines would look
	// like a leak.
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Off(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = workers
	client := &http.Client{Transport: transport}
	defer transport.CloseIdleConnections()

	call := func(i int) error {
		var body, want string
		if i%2 == 0 {
			to := fmt.Sprintf("+3378%07d", i)
			body = `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"` + to + `","sms_text":"n` + strconv.Itoa(i) + `","subscription_id":14}}}`
			want = "SMS sent to " + to
		} else {
			body = `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"get_sms_subscriptions","arguments":{}}}`
			want = subscriptionsText
		}
		req, _ := http.NewRequest(http.MethodPost, s.url, bytes.NewReader([]byte(body)))
		for k, v := range jsonHeaders {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		var reply struct {
			ID     int `json:"id"`
			Result struct {
				Content []struct{ Text string } `json:"content"`
				IsError bool                    `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal(data, &reply); err != nil || reply.ID != i || reply.Result.IsError || len(reply.Result.Content) != 1 || reply.Result.Content[0].Text != want {
			return fmt.Errorf("request %d got %s", i, data)
		}
		return nil
	}

	do := func(i int) {
		if err := call(i); err != nil {
			t.Error(err)
		}
	}

	// Warm up to a steady state: connection buffers, the SDK's caches and
	// the runtime's fill on first use and are not a leak.
	const warmup = 2000
	testkit.RunLoad(workers, 0, warmup, do)
	transport.CloseIdleConnections()
	before := testkit.Heap()
	testkit.RunLoad(workers, warmup, warmup+total, do)
	transport.CloseIdleConnections()
	after := testkit.Heap()

	records, err := simphone.ReadOutbox(s.outbox)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range records {
		seen[r.To]++
	}
	for i := 0; i < warmup+total; i += 2 {
		if to := fmt.Sprintf("+3378%07d", i); seen[to] != 1 {
			t.Errorf("%s is in the outbox %d times", to, seen[to])
		}
	}
	testkit.CheckHeapReturned(t, before, after, total, "10,000 calls over HTTP")
}
