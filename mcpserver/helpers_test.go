package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/replystore"
	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// testServer is a running server on the simulated phone, on a free loopback
// port, with its outbox and call log.
type testServer struct {
	t      *testing.T
	client *http.Client
	url    string
	host   string // host:port, for the Host header of replayed requests
	outbox string
	log    *testkit.Buffer
	srv    *mcpserver.Server
}

// startServer serves the SMS capabilities plus extra ones. opts.Addr and
// opts.Logger are filled in when empty; the log goes to testServer.log.
func startServer(t *testing.T, opts mcpserver.Options, extra ...capability.Capability) *testServer {
	t.Helper()
	return startServerOn(t, opts, nil, extra...)
}

// startServerOn is startServer with the SMS capabilities on platform, which
// wraps the simulated phone; nil means the phone itself.
func startServerOn(t *testing.T, opts mcpserver.Options, platform func(*simphone.Phone) sms.Platform, extra ...capability.Capability) *testServer {
	t.Helper()
	outbox := filepath.Join(t.TempDir(), simphone.OutboxFile)
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{OutboxPath: outbox})
	if err != nil {
		t.Fatal(err)
	}
	var p sms.Platform = phone
	if platform != nil {
		p = platform(phone)
	}
	// The phone's cap of 30 SMS parts a minute off: the load tests send thousands.
	reg, err := capability.NewRegistry(append(sms.CapabilitiesWith(p, sms.Options{PartsPerMinute: -1}), extra...)...)
	if err != nil {
		t.Fatal(err)
	}
	log := &testkit.Buffer{}
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.Title == "" {
		opts.Title = sms.ToolName
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(log, nil))
	}
	// An in-memory reply store, as mobilemcp serve has one on disk.
	replies, _ := replystore.Open(replystore.Options{})
	srv, err := mcpserver.New(capability.NewEngine(reg, capability.Options{Replies: replies, Logger: opts.Logger}), opts)
	if err != nil {
		t.Fatal(err)
	}
	l, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	client := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	t.Cleanup(func() {
		// A flood of requests leaves connections the client dialed but
		// never used; the server would wait seconds for them to speak.
		client.CloseIdleConnections()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return &testServer{t: t, client: client, url: mcpwire.URL(l.Addr()), host: l.Addr().String(), outbox: outbox, log: log, srv: srv}
}

// jsonHeaders are what every Streamable HTTP client sends.
var jsonHeaders = map[string]string{
	"Content-Type":         "application/json",
	"Accept":               "application/json, text/event-stream",
	"MCP-Protocol-Version": "2025-11-25",
}

// post sends body with headers (nil means jsonHeaders) and returns the
// status and body of the reply.
func (s *testServer) post(headers map[string]string, body string) (int, string) {
	s.t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.url, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	if headers == nil {
		headers = jsonHeaders
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	status, _, reply := s.do(req)
	return status, reply
}

// do sends req as it is and returns the reply.
func (s *testServer) do(req *http.Request) (int, http.Header, string) {
	s.t.Helper()
	resp, err := s.client.Transport.RoundTrip(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(data)
}

// call sends a tools/call and returns the JSON-RPC result or error object.
func (s *testServer) call(tool, args string) (result, rpcErr string) {
	s.t.Helper()
	status, body := s.post(nil, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`}}`)
	if status != http.StatusOK {
		s.t.Fatalf("tools/call %s: HTTP %d %s", tool, status, body)
	}
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &reply); err != nil {
		s.t.Fatalf("tools/call %s: %v in %s", tool, err, body)
	}
	return string(reply.Result), string(reply.Error)
}

// sends returns the number of records in the outbox.
func (s *testServer) sends() int {
	s.t.Helper()
	records, err := simphone.ReadOutbox(s.outbox)
	if err != nil {
		s.t.Fatal(err)
	}
	return len(records)
}

// subscriptionsText is the text content of get_sms_subscriptions on the
// default simulated phone: the JSON text the transcripts' server returns.
const subscriptionsText = `{"count":2,"subscriptions":[{"subscription_id":14,"sim_slot_index":0,"carrier_name":"Vodafone UK","display_name":"Vodafone UK"},{"subscription_id":17,"sim_slot_index":1,"carrier_name":"Yettel HU","display_name":"Yettel HU"}]}`

// retryAfterMillis matches the wait of a rate_limited result, which depends on
// when the call ran.
var retryAfterMillis = regexp.MustCompile(`("io\.github\.mobilemcp/retry_after_ms":)\d+`)

// withoutTheWait writes a result's retry_after_ms as W, for comparing
// results exactly otherwise.
func withoutTheWait(result string) string {
	return retryAfterMillis.ReplaceAllString(result, "${1}W")
}
