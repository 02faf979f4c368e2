package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer collects a running command's output safely.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var servingLine = regexp.MustCompile(`Serving MCP at (http://\S+/mcp) \(tools: send_sms, get_sms_subscriptions\)`)

// startServe runs 'mobilemcp serve args...' until the test ends and
// returns its URL, its output and a function that stops it and returns the
// exit code.
func (c *cli) startServe(args ...string) (url string, stdout, stderr *lockedBuffer, stop func() int) {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr = &lockedBuffer{}, &lockedBuffer{}
	e := &env{ctx: ctx, stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, getenv: func(k string) string { return c.vars[k] }}
	exit := make(chan int, 1)
	go func() { exit <- run(e, append([]string{"serve"}, args...)) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if m := servingLine.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
			break
		}
		select {
		case code := <-exit:
			cancel()
			c.t.Fatalf("serve exited with %d before serving:\n%s%s", code, stdout, stderr)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			c.t.Fatalf("serve did not start:\n%s%s", stdout, stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stopped := false
	var code int
	stop = func() int {
		if !stopped {
			stopped = true
			cancel()
			code = <-exit
		}
		return code
	}
	c.t.Cleanup(func() { stop() })
	return url, stdout, stderr, stop
}

func postMCP(t *testing.T, url, token, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func TestServeSendsToTheOutboxAndLogsEachCall(t *testing.T) {
	c := newCLI(t)
	url, stdout, stderr, stop := c.startServe("--addr", "127.0.0.1:0")
	status, body := postMCP(t, url, "", `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}`)
	want := `{"jsonrpc":"2.0","id":16,"result":{"content":[{"type":"text","text":"SMS sent to +33785880347"}],"structuredContent":{"to_phone_number":"+33785880347","subscription_id":14,"encoding":"gsm7","segments":1}}}`
	if status != http.StatusOK || body != want {
		t.Errorf("HTTP %d %s\nwant %s", status, body, want)
	}
	if code := stop(); code != exitOK {
		t.Errorf("exit %d after the stop signal", code)
	}
	if want := "Simulated sends go to " + c.dataDir + "/outbox.jsonl. Press Ctrl-C to stop.\n"; !strings.HasSuffix(stdout.String(), want) {
		t.Errorf("stdout %q lacks %q", stdout, want)
	}
	log := stderr.String()
	if !regexp.MustCompile(`(?m)^time=\S+ level=INFO msg=tools/call client=ip:127\.0\.0\.1 tool=send_sms outcome=ok duration=\S+ arg_bytes=80$`).MatchString(log) ||
		!strings.HasSuffix(log, "mobilemcp serve: stopping; waiting for calls in flight\n") {
		t.Errorf("stderr:\n%s", log)
	}
	if _, out, _ := c.run("", "outbox", "--json"); strings.Count(out, "\n") != 1 || !strings.Contains(out, `"to":"+33785880347"`) {
		t.Errorf("outbox: %s", out)
	}
}

func TestServeTakesTheTokenFromTheEnvironment(t *testing.T) {
	c := newCLI(t)
	c.vars["MOBILEMCP_TOKEN"] = "env-token"
	url, _, _, _ := c.startServe("--addr", "127.0.0.1:0")
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	if status, _ := postMCP(t, url, "", ping); status != http.StatusUnauthorized {
		t.Errorf("without the token: HTTP %d", status)
	}
	if status, body := postMCP(t, url, "env-token", ping); status != http.StatusOK {
		t.Errorf("with the token: HTTP %d %s", status, body)
	}
}

func TestServeRefusesAPublicAddressWithoutAToken(t *testing.T) {
	code, _, errOut := newCLI(t).run("", "serve", "--addr", "0.0.0.0:0")
	want := "mobilemcp serve: mcpserver: refusing to listen on 0.0.0.0:0 without a token: it is not a loopback address, so other machines could call the tools; set a token (--token or $MOBILEMCP_TOKEN) or bind 127.0.0.1\n"
	if code != exitFailure || errOut != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
}

func TestServeUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--rate-limit", "many"}, `invalid value "many" for flag -rate-limit: rate "many": want CALLS/PERIOD, such as 10/min, or off`},
		{[]string{"--allow-origin", "example.com"}, `mobilemcp serve: mcpserver: allowed origin "example.com" must be scheme://host[:port], such as https://app.example.com`},
		{[]string{"--max-body", "0"}, "mobilemcp serve: --max-body must be positive, got 0"},
		{[]string{"extra"}, `mobilemcp serve: unexpected arguments ["extra"]`},
	}
	for _, tt := range tests {
		code, _, errOut := newCLI(t).run("", append([]string{"serve"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
