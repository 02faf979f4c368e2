package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/internal/testkit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

var servingLine = regexp.MustCompile(`Serving MCP at (http://\S+/mcp) \(tools: send_sms, get_sms_subscriptions\)`)

// startServe runs 'mobilemcp serve args...' until the test ends and
// returns its URL, its output and a function that stops it and returns the
// exit code.
func (c *cli) startServe(args ...string) (url string, stdout, stderr *testkit.Buffer, stop func() int) {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr = &testkit.Buffer{}, &testkit.Buffer{}
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

func TestServeSendsToTheOutboxAndLogsEachCall(t *testing.T) {
	c := newCLI(t)
	url, stdout, stderr, stop := c.startServe("--addr", "127.0.0.1:0")
	status, body, err := testkit.PostMCP(url, "", `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}`)
	want := `{"jsonrpc":"2.0","id":16,"result":{"content":[{"type":"text","text":"SMS sent to +33785880347"}],"structuredContent":{"to_phone_number":"+33785880347","subscription_id":14,"encoding":"gsm7","segments":1}}}`
	if err != nil || status != http.StatusOK || body != want {
		t.Errorf("HTTP %d %s %v\nwant %s", status, body, err, want)
	}
	if code := stop(); code != exitOK {
		t.Errorf("exit %d after the stop signal", code)
	}
	if want := "Simulated sends go to " + c.dataDir + "/outbox.jsonl. Press Ctrl-C to stop.\n"; !strings.HasSuffix(stdout.String(), want) {
		t.Errorf("stdout %q lacks %q", stdout, want)
	}
	log := stderr.String()
	if !regexp.MustCompile(`(?m)^time=\S+ level=INFO msg=tools/call client=loopback tool=send_sms outcome=ok duration=\S+ arg_bytes=80$`).MatchString(log) ||
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
	if status, _, err := testkit.PostMCP(url, "", ping); err != nil || status != http.StatusUnauthorized {
		t.Errorf("without the token: HTTP %d %v", status, err)
	}
	if status, body, err := testkit.PostMCP(url, "env-token", ping); err != nil || status != http.StatusOK {
		t.Errorf("with the token: HTTP %d %s %v", status, body, err)
	}
}

func TestServeRefusesAPublicAddressWithoutAToken(t *testing.T) {
	code, _, errOut := newCLI(t).run("", "serve", "--addr", "0.0.0.0:0")
	want := "mobilemcp serve: mcpserver: refusing to listen on 0.0.0.0:0 without a token: it is not a loopback address, so other machines could call the tools; set a token (--token or $MOBILEMCP_TOKEN) or bind 127.0.0.1\n"
	if code != exitFailure || errOut != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
}

// A serve that cannot start leaves nothing behind: it binds before it
// creates the data directory and the reply store.
func TestServeThatCannotBindWritesNothing(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tt := range []struct {
		addr, want string
	}{
		{taken.Addr().String(), "mobilemcp serve: mcpserver: another program (on a phone, another app) holds " + taken.Addr().String() +
			", so the server did not start; stop it, or use another port: listen tcp " + taken.Addr().String() + ": bind: address already in use\n"},
		{"0.0.0.0:0", "mobilemcp serve: mcpserver: refusing to listen on 0.0.0.0:0 without a token: it is not a loopback address, so other machines could call the tools; set a token (--token or $MOBILEMCP_TOKEN) or bind 127.0.0.1\n"},
	} {
		dataDir := filepath.Join(t.TempDir(), "data")
		code, _, errOut := newCLI(t).run("", "serve", "--addr", tt.addr, "--data-dir", dataDir)
		if code != exitFailure || errOut != tt.want {
			t.Errorf("--addr %s: exit %d, stderr %q; want 1 and %q", tt.addr, code, errOut, tt.want)
		}
		if _, err := os.Stat(dataDir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("--addr %s: the data directory was created (%v)", tt.addr, err)
		}
	}
}

// serveUntilCleanup serves srv on its address until the test ends, and
// returns the address it listens on.
func serveUntilCleanup(t *testing.T, srv *mcpserver.Server) net.Addr {
	t.Helper()
	l, err := srv.Listen()
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return l.Addr()
}

// serve --help names every protocol version the server answers in: each
// one the MCP SDK speaks, since the server narrows none.
func TestServeHelpNamesEveryProtocolVersion(t *testing.T) {
	_, help, _ := newCLI(t).run("", "serve", "--help")
	versions := mcp.SupportedProtocolVersions()
	if len(versions) < 5 {
		t.Fatalf("the SDK speaks only %q", versions)
	}
	for _, v := range versions {
		if !strings.Contains(help, v) {
			t.Errorf("serve --help does not name %s:\n%s", v, help)
		}
	}
}
