package mcpserver_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

func TestNonLoopbackBindWithoutTokenRefusesToStart(t *testing.T) {
	reg, _ := capability.NewRegistry()
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.7:9531", "no-such-host.invalid:9531"} {
		srv, err := mcpserver.New(capability.NewEngine(reg, capability.Options{}), mcpserver.Options{Addr: addr})
		if err != nil {
			t.Fatal(err)
		}
		l, err := srv.Listen()
		want := "mcpserver: refusing to listen on " + addr + " without a token: it is not a loopback address, so other machines could call the tools; set a token (--token or $MOBILEMCP_TOKEN) or bind 127.0.0.1"
		if err == nil || err.Error() != want {
			t.Errorf("Listen on %s: %v, want %q", addr, err, want)
		}
		if l != nil {
			l.Close()
		}
	}
	// With a token the same address binds.
	srv, _ := mcpserver.New(capability.NewEngine(reg, capability.Options{}), mcpserver.Options{Addr: "0.0.0.0:0", Token: "t0ken"})
	l, err := srv.Listen()
	if err != nil {
		t.Fatalf("Listen with a token: %v", err)
	}
	l.Close()
}

func TestToken(t *testing.T) {
	s := startServer(t, mcpserver.Options{Token: "s3cret-token"})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	const (
		wrong     = "wrong token: it is not the one this server was started with; copy it again (the phone app makes a new one each time its server is turned on)"
		noToken   = "no token: this server needs the token it was started with; send it as the header Authorization: Bearer <token>"
		basic     = "the Authorization header uses the \"Basic\" scheme; send the token as Authorization: Bearer <token>"
		noBearer  = "the Authorization header has no token after Bearer; send Authorization: Bearer <token>"
		challenge = `Bearer realm="mobilemcp"`
	)
	describe := func(s string) string { return strings.ReplaceAll(s, `"`, "'") }
	tests := []struct {
		name, authorization string
		status              int
		// What a client is told: the WWW-Authenticate challenge and the
		// JSON-RPC error's message.
		challenge, message string
	}{
		{"missing", "", http.StatusUnauthorized, challenge, noToken},
		{"wrong", "Bearer s3cret-tokeN", http.StatusUnauthorized, challenge + `, error="invalid_token", error_description="` + describe(wrong) + `"`, wrong},
		{"a prefix of it", "Bearer s3cret", http.StatusUnauthorized, challenge + `, error="invalid_token", error_description="` + describe(wrong) + `"`, wrong},
		{"another scheme", "Basic s3cret-token", http.StatusUnauthorized, challenge + `, error="invalid_request", error_description="` + describe(basic) + `"`, basic},
		{"empty", "Bearer ", http.StatusUnauthorized, challenge + `, error="invalid_request", error_description="` + describe(noBearer) + `"`, noBearer},
		{"right", "Bearer s3cret-token", http.StatusOK, "", ""},
		{"right, scheme in lower case", "bearer s3cret-token", http.StatusOK, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
			if tt.authorization != "" {
				h["Authorization"] = tt.authorization
			}
			req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(body))
			for k, v := range h {
				req.Header.Set(k, v)
			}
			status, header, reply := s.do(req)
			if status != tt.status {
				t.Errorf("HTTP %d %s, want %d", status, reply, tt.status)
			}
			if tt.status != http.StatusUnauthorized {
				return
			}
			if auth := header.Get("WWW-Authenticate"); auth != tt.challenge {
				t.Errorf("WWW-Authenticate %q\nwant %q", auth, tt.challenge)
			}
			want := `{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":` + strconv.Quote("Unauthorized: "+tt.message) + `}}` + "\n"
			if ct := header.Get("Content-Type"); ct != "application/json" || reply != want {
				t.Errorf("body (%s) %s\nwant %s", ct, reply, want)
			}
		})
	}
}

func TestOrigin(t *testing.T) {
	s := startServer(t, mcpserver.Options{AllowedOrigins: []string{"https://agent.example.com"}})
	tests := []struct {
		origin string
		status int
	}{
		{"", http.StatusOK}, // curl and SDK clients send none
		{"http://localhost:6274", http.StatusOK},
		{"http://127.0.0.1:5173", http.StatusOK},
		{"https://[::1]", http.StatusOK},
		{"https://agent.example.com", http.StatusOK},
		{"https://AGENT.example.com", http.StatusOK},
		{"https://evil.example", http.StatusForbidden},
		{"http://agent.example.com", http.StatusForbidden}, // other scheme
		{"https://agent.example.com:8443", http.StatusForbidden},
		{"http://localhost.evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"file://", http.StatusForbidden},
	}
	for _, tt := range tests {
		h := map[string]string{"Origin": tt.origin}
		for k, v := range jsonHeaders {
			h[k] = v
		}
		if tt.origin == "" {
			h = nil
		}
		status, body := s.post(h, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		if status != tt.status {
			t.Errorf("Origin %q: HTTP %d %s, want %d", tt.origin, status, body, tt.status)
		}
		if want := fmt.Sprintf("Forbidden: Origin %q is not allowed\n", tt.origin); status == http.StatusForbidden && body != want {
			t.Errorf("Origin %q: body %q, want %q", tt.origin, body, want)
		}
	}
}

func TestBadAllowedOriginIsAnError(t *testing.T) {
	reg, _ := capability.NewRegistry()
	for _, origin := range []string{"agent.example.com", "https://agent.example.com/app", "ftp://x", "https://"} {
		_, err := mcpserver.New(capability.NewEngine(reg, capability.Options{}), mcpserver.Options{AllowedOrigins: []string{origin}})
		want := fmt.Sprintf("mcpserver: allowed origin %q must be scheme://host[:port], such as https://app.example.com", origin)
		if err == nil || err.Error() != want {
			t.Errorf("%q: %v", origin, err)
		}
	}
}

func TestOversizedBodyGets413(t *testing.T) {
	s := startServer(t, mcpserver.Options{MaxBodyBytes: 1024})
	args := `{"to_phone_number":"+33785880347","sms_text":"` + strings.Repeat("x", 1024) + `","subscription_id":14}`
	status, body := s.post(nil, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_sms","arguments":`+args+`}}`)
	if status != http.StatusRequestEntityTooLarge || body != "request body exceeds 1024 bytes\n" {
		t.Errorf("HTTP %d %q", status, body)
	}
	if n := s.sends(); n != 0 {
		t.Errorf("%d SMS sent", n)
	}
	// The default is 64 KiB.
	s = startServer(t, mcpserver.Options{})
	status, _ = s.post(nil, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"`+strings.Repeat("x", 64<<10)+`"}}}`)
	if status != http.StatusRequestEntityTooLarge {
		t.Errorf("a 64 KiB body: HTTP %d", status)
	}
}

func TestFloodOfSendsHitsTheRateLimit(t *testing.T) {
	const limit, flood = 5, 40
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Rate{Calls: limit, Per: time.Hour}})
	var wg sync.WaitGroup
	results := make(chan string, flood)
	for range flood {
		wg.Go(func() {
			result, _ := s.call("send_sms", `{"to_phone_number":"+33785880347","sms_text":"flood","subscription_id":14}`)
			results <- result
		})
	}
	wg.Wait()
	close(results)
	sent, limited := 0, 0
	for r := range results {
		switch {
		case strings.Contains(r, `"text":"SMS sent to +33785880347"`):
			sent++
		case strings.HasPrefix(withoutTheWait(r), `{"_meta":{"io.github.mobilemcp/error_code":"rate_limited","io.github.mobilemcp/retry_after_ms":W},"content":[{"type":"text","text":"rate_limited: send_sms is limited to 5/hour shared by every client on this computer; retry in 7`):
			limited++ // 720 s, or 719 after a slow second
		default:
			t.Errorf("unexpected result %s", r)
		}
	}
	if sent != limit || limited != flood-limit {
		t.Errorf("%d sent and %d limited, want %d and %d", sent, limited, limit, flood-limit)
	}
	if n := s.sends(); n != limit {
		t.Errorf("the phone sent %d SMS, want exactly %d", n, limit)
	}
	// Read-only tools are not limited.
	if result, _ := s.call("get_sms_subscriptions", `{}`); !strings.Contains(result, `"count":2`) {
		t.Errorf("get_sms_subscriptions after the flood: %s", result)
	}
}

// sendFrom sends one send_sms from a loopback source address, with a token
// unless it is "", and returns the result or the error.
func (s *testServer) sendFrom(source, token string) string {
	s.t.Helper()
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	defer client.CloseIdleConnections()
	req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"hi","subscription_id":14}}}`))
	for k, v := range jsonHeaders {
		req.Header.Set(k, v)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return string(body)
}

func TestRateLimitIsPerClient(t *testing.T) {
	type step struct{ source, want string }
	tests := []struct {
		name, token string
		steps       []step
		logged      string
	}{
		// Without a token the server answers on loopback only, and every
		// loopback address is this machine: one client, or each of
		// 127.0.0.1 to 127.255.255.254 would have a budget of its own.
		{"without a token, loopback is one client", "", []step{
			{"127.0.0.1", "SMS sent to"},
			{"127.0.0.2", "rate_limited: send_sms is limited to 1/hour shared by every client on this computer"},
			{"127.9.8.7", "rate_limited: send_sms is limited to 1/hour shared by every client on this computer"},
		}, " client=loopback tool=send_sms outcome=rate_limited "},
		{"the token's holders are one client", "tok", []step{
			{"127.0.0.1", "SMS sent to"},
			{"127.0.0.2", "rate_limited: send_sms is limited to 1/hour shared by every client that holds the token"},
		}, " client=token tool=send_sms outcome=rate_limited "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Rate{Calls: 1, Per: time.Hour}, Token: tt.token})
			for _, st := range tt.steps {
				if got := s.sendFrom(st.source, tt.token); !strings.Contains(got, st.want) {
					t.Errorf("from %s: %s, want %s", st.source, got, st.want)
				}
			}
			if !strings.Contains(s.log.String(), tt.logged) {
				t.Errorf("log lacks %q:\n%s", tt.logged, s.log)
			}
		})
	}
}

func TestNoLimitTurnsTheLimitOff(t *testing.T) {
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Off()})
	for i := range 15 {
		if result, _ := s.call("send_sms", `{"to_phone_number":"+33785880347","sms_text":"hi","subscription_id":14}`); !strings.Contains(result, "SMS sent to") {
			t.Fatalf("send %d: %s", i+1, result)
		}
	}
}

func TestAcceptIsNormalisedForJSONOnlyClients(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	tests := []struct {
		accept string
		status int
	}{
		{"application/json, text/event-stream", http.StatusOK},
		{"application/json", http.StatusOK},
		{"*/*", http.StatusOK},
		{"", http.StatusOK},
		{"text/event-stream", http.StatusBadRequest}, // we never send SSE
	}
	for _, tt := range tests {
		h := map[string]string{"Content-Type": "application/json", "Accept": tt.accept}
		status, body := s.post(h, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
		if status != tt.status {
			t.Errorf("Accept %q: HTTP %d %s, want %d", tt.accept, status, body, tt.status)
		}
		if status == http.StatusOK && body != `{"jsonrpc":"2.0","id":3,"result":{}}` {
			t.Errorf("Accept %q: %s", tt.accept, body)
		}
	}
}

func TestForeignHostOnLoopbackIsRefused(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	for k, v := range jsonHeaders {
		req.Header.Set(k, v)
	}
	req.Host = "192.168.0.11:9531" // the transcripts' Host: a DNS-rebinding page would send its own
	if status, _, reply := s.do(req); status != http.StatusForbidden || reply != "Forbidden: invalid Host header \"192.168.0.11:9531\"\n" {
		t.Errorf("HTTP %d %q, want 403", status, reply)
	}
}

func TestHandlerWithoutTokenRefusesNonLoopbackConnections(t *testing.T) {
	reg, _ := capability.NewRegistry()
	srv, err := mcpserver.New(capability.NewEngine(reg, capability.Options{}), mcpserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		local  net.Addr
		status int
	}{
		{&net.TCPAddr{IP: net.ParseIP("192.168.0.11"), Port: 9531}, http.StatusForbidden},
		{&net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 9531}, http.StatusOK},
	} {
		req := httptest.NewRequest(http.MethodPost, "http://"+tt.local.String()+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, tt.local))
		for k, v := range jsonHeaders {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("arrived on %s: HTTP %d %s, want %d", tt.local, rec.Code, rec.Body, tt.status)
		}
	}
}

func TestBodyLimitAtTheLimitAndOnePast(t *testing.T) {
	s := startServer(t, mcpserver.Options{MaxBodyBytes: 1024})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_sms_subscriptions","arguments":{}}}`
	atLimit := call + strings.Repeat(" ", 1024-len(call)) // JSON allows trailing space
	if status, body := s.post(nil, atLimit); status != http.StatusOK || !strings.Contains(body, `"count":2`) {
		t.Errorf("a body of exactly 1024 bytes: HTTP %d %s", status, body)
	}
	if status, body := s.post(nil, atLimit+" "); status != http.StatusRequestEntityTooLarge || body != "request body exceeds 1024 bytes\n" {
		t.Errorf("one byte past: HTTP %d %q", status, body)
	}
}

// A capability that says nothing of its behaviour changes state, so it is
// limited like send_sms: the one default of capability.ChangesState.
func TestACapabilityWithoutHintsIsRateLimited(t *testing.T) {
	noHints := capability.Capability{ID: "touch", Description: "Changes something; says nothing else.", Version: "1.0",
		Handler: func(context.Context, capability.Args) (capability.Result, error) {
			return capability.Result{Message: "touched"}, nil
		}}
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Rate{Calls: 1, Per: time.Hour}}, noHints)
	if result, _ := s.call("touch", `{}`); result != `{"content":[{"type":"text","text":"touched"}],"structuredContent":{}}` {
		t.Errorf("first call: %s", result)
	}
	want := `{"_meta":{"io.github.mobilemcp/error_code":"rate_limited","io.github.mobilemcp/retry_after_ms":W},"content":[{"type":"text","text":"rate_limited: touch is limited to 1/hour shared by every client on this computer; retry in 3600 seconds"}],"isError":true}`
	if result, _ := s.call("touch", `{}`); withoutTheWait(result) != want {
		t.Errorf("second call:\n got %s\nwant %s", result, want)
	}
}

func TestRateLimitSaysOneSecond(t *testing.T) {
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Rate{Calls: 1, Per: time.Second}})
	args := `{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}`
	s.call("send_sms", args)
	result, _ := s.call("send_sms", args)
	if want := `"text":"rate_limited: send_sms is limited to 1/sec shared by every client on this computer; retry in 1 second"`; !strings.Contains(result, want) {
		t.Errorf("the second call: %s\nwant %s", result, want)
	}
}

// Invalid calls are refused before the rate limit, whatever is wrong with
// them: names and types, and the capability's own checks (E.164, blank
// text). None uses the budget, so the one valid call after them is sent.
func TestInvalidCallsUseNoRateBudget(t *testing.T) {
	s := startServer(t, mcpserver.Options{RateLimit: ratelimit.Rate{Calls: 1, Per: time.Hour}})
	for _, tt := range []struct{ args, want string }{
		{`{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":"fourteen"}`,
			`invalid_arguments: send_sms: subscription_id must be an integer, got string \"fourteen\"`},
		{`{"to_phone_number":"+33785880347","sms_text":"Hi","subscripton_id":14}`,
			`invalid_arguments: send_sms: unknown argument \"subscripton_id\"; known arguments: to_phone_number, sms_text, subscription_id`},
		{`{"to_phone_number":"0785880347","sms_text":"Hi","subscription_id":14}`,
			`invalid_arguments: to_phone_number \"0785880347\" is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567`},
		{`{"to_phone_number":"+33785880347","sms_text":"   ","subscription_id":14}`,
			`invalid_arguments: sms_text is empty; send at least one visible character`},
	} {
		want := `{"_meta":{"io.github.mobilemcp/error_code":"invalid_arguments"},"content":[{"type":"text","text":"` + tt.want + `"}],"isError":true}`
		if result, _ := s.call("send_sms", tt.args); result != want {
			t.Errorf("%s:\n got %s\nwant %s", tt.args, result, want)
		}
	}
	if result, _ := s.call("send_sms", `{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}`); !strings.Contains(result, `"text":"SMS sent to +33785880347"`) {
		t.Errorf("the valid call after the invalid ones: %s", result)
	}
}
