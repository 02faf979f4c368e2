package smsapp

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/intentbridge"
	"github.com/mobilemcp/mobilemcp/internal/buildinfo"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

const sendCall = `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}`

func TestStartHTTPServesTheBridgesCapabilities(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`}
	b, s := newServer(t, f)
	calls := &strings.Builder{}
	b.SetLogger(slog.New(slog.NewTextHandler(calls, nil)))
	if s.ServingURL() != "" {
		t.Errorf("ServingURL before StartHTTP: %q", s.ServingURL())
	}
	if err := s.StartHTTP("127.0.0.1:0", ""); err != nil {
		t.Fatal(err)
	}
	url := s.ServingURL()
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Errorf("ServingURL %q", url)
	}
	status, body, err := testkit.PostMCP(url, "", sendCall)
	want := `{"jsonrpc":"2.0","id":16,"result":{"content":[{"type":"text","text":"SMS sent to +33785880347"}],"structuredContent":{"to_phone_number":"+33785880347","subscription_id":14,"encoding":"gsm7","segments":1}}}`
	if err != nil || status != http.StatusOK || body != want {
		t.Errorf("HTTP %d %s %v\nwant %s", status, body, err, want)
	}
	if len(f.Sends()) != 1 || f.Sends()[0] != "14|+33785880347|Hello world" {
		t.Errorf("Java was asked to send %q", f.Sends())
	}
	if !strings.Contains(calls.String(), " msg=tools/call client=loopback tool=send_sms outcome=ok ") {
		t.Errorf("call log %q", calls)
	}

	err = s.StartHTTP("127.0.0.1:0", "")
	if want := "smsapp: the MCP server is already running at " + url + "; call StopHTTP first"; err == nil || err.Error() != want {
		t.Errorf("second StartHTTP: %v", err)
	}
	if err := s.StopHTTP(); err != nil {
		t.Fatal(err)
	}
	if s.ServingURL() != "" {
		t.Errorf("ServingURL after StopHTTP: %q", s.ServingURL())
	}
	if _, _, err := testkit.PostMCP(url, "", sendCall); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("after StopHTTP: %v, want connection refused", err)
	}
	if err := s.StopHTTP(); err != nil {
		t.Errorf("StopHTTP when stopped: %v", err)
	}
}

func TestStartHTTPOffLoopbackNeedsAToken(t *testing.T) {
	b, s := newServer(t, &fakeJava{Subs: seedSubs})
	b.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	err := s.StartHTTP("0.0.0.0:0", "")
	if want := "mcpserver: refusing to listen on 0.0.0.0:0 without a token"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("StartHTTP without a token: %v", err)
	}
	if s.ServingURL() != "" {
		t.Errorf("a refused start left ServingURL %q", s.ServingURL())
	}
	if err := s.StartHTTP("0.0.0.0:0", "phone-token"); err != nil {
		t.Fatal(err)
	}
	defer s.StopHTTP()
	// The server listens on every interface; loopback is one of them.
	url := strings.Replace(s.ServingURL(), "0.0.0.0", "127.0.0.1", 1)
	if status, _, err := testkit.PostMCP(url, "", sendCall); err != nil || status != http.StatusUnauthorized {
		t.Errorf("without the token: HTTP %d %v", status, err)
	}
	if status, body, err := testkit.PostMCP(url, "phone-token", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_sms_subscriptions"}}`); err != nil || status != http.StatusOK || !strings.Contains(body, `"count":2`) {
		t.Errorf("with the token: HTTP %d %s %v", status, body, err)
	}
}

func TestCloseStopsTheServer(t *testing.T) {
	f := &fakeJava{Subs: seedSubs}
	b, err := intentbridge.OpenBridge(t.TempDir())
	if err == nil {
		err = b.Start(smsTool(f))
	}
	if err != nil {
		t.Fatal(err)
	}
	b.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	s := ServerFor(b)
	if err := s.StartHTTP("127.0.0.1:0", ""); err != nil {
		t.Fatal(err)
	}
	url := s.ServingURL()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := testkit.PostMCP(url, "", sendCall); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("after Close: %v, want connection refused", err)
	}
}

func TestTheMCPServerIsNamedAfterTheTool(t *testing.T) {
	unstarted, _ := intentbridge.OpenBridge("")
	defer unstarted.Close()
	if err := ServerFor(unstarted).StartHTTP("127.0.0.1:0", ""); err == nil || err.Error() != "smsapp: the tool has not started; call Bridge.Start before StartHTTP" {
		t.Errorf("StartHTTP before Start: %v", err)
	}

	tool := smsTool(&fakeJava{Subs: seedSubs})
	tool.SetTitle("Notes")
	s := ServerFor(openTool(t, tool, ""))
	if err := s.StartHTTP("127.0.0.1:0", ""); err != nil {
		t.Fatal(err)
	}
	defer s.StopHTTP()
	_, body, err := testkit.PostMCP(s.ServingURL(), "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	// The version is the engine's build (buildinfo), which the release
	// stamps with the app's version.
	if want := `"serverInfo":{"name":"mobilemcp","title":"Notes","version":"` + buildinfo.Version() + `"}`; err != nil || !strings.Contains(body, want) {
		t.Errorf("initialize: %v %s; want %s", err, body, want)
	}
}

// TestRequestsAreAnsweredWhileStopHTTPWaits: StopHTTP waits up to stopGrace
// for a call in flight (here a send the radio has not confirmed); Intent and
// binding requests meanwhile are answered at once, not after the stop.
func TestRequestsAreAnsweredWhileStopHTTPWaits(t *testing.T) {
	f := &fakeJava{Subs: seedSubs, Send: `{"results":[-1]}`, Block: make(chan struct{})}
	b, s := newServer(t, f)
	if err := s.StartHTTP("127.0.0.1:0", ""); err != nil {
		t.Fatal(err)
	}
	url := s.ServingURL()
	posted := make(chan error, 1)
	go func() {
		_, _, err := testkit.PostMCP(url, "", sendCall)
		posted <- err
	}()
	for f.Blocked.Load() == 0 {
		time.Sleep(time.Millisecond) // the send waits for the radio
	}
	stopped := make(chan error, 1)
	go func() { stopped <- s.StopHTTP() }()
	for s.ServingURL() != "" {
		time.Sleep(time.Millisecond) // the stop has begun, and waits for the send
	}

	start := time.Now()
	reading := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"r","capability":{"id":"get_sms_subscriptions","args":{}}}}}`
	if r := handle(b, reading, testAgent); !r.Success() {
		t.Errorf("while StopHTTP waits: %s", r.SpecJSON())
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("a request took %v while StopHTTP waited for a call in flight", took)
	}
	select {
	case err := <-stopped:
		t.Fatalf("StopHTTP returned (%v) while a call was in flight", err)
	default:
	}
	close(f.Block) // the radio confirms
	if err := <-stopped; err != nil {
		t.Errorf("StopHTTP: %v", err)
	}
	if err := <-posted; err != nil {
		t.Errorf("the call in flight: %v", err)
	}
}
