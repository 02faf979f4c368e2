package main

import (
	"context"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// gatewayPhone is the phone behind adb stdio: the app's MCP server (the
// gateway's server code, with its token, on a free loopback port), the
// switch that turns it on and off, and a fake adb whose device answers the
// app's MCP provider and forwards to that server.
type gatewayPhone struct {
	srv    *mcpserver.Server
	addr   string
	outbox string
	on     atomic.Bool
	adb    *adbtest.Fake
}

func newGatewayPhone(t *testing.T, cfg simphone.Config) *gatewayPhone {
	t.Helper()
	p := &gatewayPhone{outbox: filepath.Join(t.TempDir(), simphone.OutboxFile)}
	phone, err := simphone.New(cfg, simphone.Options{OutboxPath: p.outbox})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := capability.NewRegistry(sms.Capabilities(phone)...)
	if err != nil {
		t.Fatal(err)
	}
	if p.srv, err = mcpserver.New(capability.NewEngine(reg, capability.Options{}), mcpserver.Options{Addr: "127.0.0.1:0", Token: phoneToken, Title: sms.ToolName}); err != nil {
		t.Fatal(err)
	}
	addr := serveUntilCleanup(t, p.srv)
	p.addr = addr.String()
	// The port the app's server listens on, on the phone: the fake forwards
	// to it, and the server proves its token with it.
	port := strconv.Itoa(addr.(*net.TCPAddr).Port)
	p.on.Store(true)
	p.adb = &adbtest.Fake{
		Outputs: map[string]string{
			"get-state": "device\n",
			"shell pm path 'io.github.mobilemcp.app'": "package:/data/app/~~x==/io.github.mobilemcp.app-1/base.apk\n",
		},
		// The app's MCP provider, as 'content call' prints its Bundle.
		Provider: func(command string) string {
			if command != "content call --uri 'content://io.github.mobilemcp.app.mobilemcp.mcp' --method server" {
				return "Error while accessing provider: unexpected " + command + "\n"
			}
			state := `{"on":false,"port":` + port + `}`
			if p.on.Load() {
				state = `{"on":true,"port":` + port + `,"token":"` + phoneToken + `"}`
			}
			return "Result: Bundle[{mobile-mcp-server=" + state + "}]\n"
		},
		// adbd relays the forward to the phone's port, where the server
		// listens while it is on.
		Forward: func(devicePort int) string {
			if strconv.Itoa(devicePort) != port || !p.on.Load() {
				return ""
			}
			return p.addr
		},
	}
	return p
}

// sends is the number of records in the phone's outbox.
func (p *gatewayPhone) sends(t *testing.T) int {
	t.Helper()
	records, err := simphone.ReadOutbox(p.outbox)
	if err != nil {
		t.Fatal(err)
	}
	return len(records)
}

// stdioClient is adb stdio running in-process and the Go SDK's client on
// its stdin and stdout.
type stdioClient struct {
	t       *testing.T
	session *mcp.ClientSession
	stderr  *testkit.Buffer
	changed chan struct{}
	exited  chan int
}

func startADBStdio(t *testing.T, c *cli, args ...string) *stdioClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioClient{t: t, stderr: &testkit.Buffer{}, changed: make(chan struct{}, 16), exited: make(chan int, 1)}
	e := &env{ctx: context.Background(), stdin: inR, stdout: outW, stderr: s.stderr, getenv: func(k string) string { return c.vars[k] }, adb: c.adb}
	go func() {
		s.exited <- run(e, append([]string{"adb", "stdio", "--poll", "50ms"}, args...))
		outW.Close()
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { s.changed <- struct{}{} },
	})
	var err error
	if s.session, err = client.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *stdioClient) tools() []string {
	s.t.Helper()
	list, err := s.session.ListTools(context.Background(), nil)
	if err != nil {
		s.t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// call calls tool and returns its text and whether it is an error.
func (s *stdioClient) call(tool string, args map[string]any) (string, bool) {
	s.t.Helper()
	res, err := s.session.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: %v", tool, err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

// waitForTools lists the tools until there are n, for at most 10 s, and
// returns the last list. Each mirrored tool is announced as it is added,
// so the first notifications/tools/list_changed may come before the last
// tool.
func (s *stdioClient) waitForTools(n int) []string {
	s.t.Helper()
	got := s.tools()
	for deadline := time.Now().Add(10 * time.Second); len(got) < n && time.Now().Before(deadline); got = s.tools() {
		select {
		case <-s.changed:
		case <-time.After(50 * time.Millisecond):
		}
	}
	return got
}

// close ends the client, which closes the command's stdin, and returns
// the command's exit code.
func (s *stdioClient) close() int {
	s.t.Helper()
	s.session.Close()
	select {
	case code := <-s.exited:
		return code
	case <-time.After(20 * time.Second):
		s.t.Fatal("adb stdio did not exit after its client closed")
		return 0
	}
}

var sendArgs = map[string]any{"to_phone_number": "+33785880347", "sms_text": "Hello world", "subscription_id": 14}

// The whole life of one client: the phone's tools, a send, a tool the user
// shares meanwhile, an unplug and a replug, and the exit. The token is
// never on an adb command line, in the log or in a file.
func TestADBStdio(t *testing.T) {
	phone := newGatewayPhone(t, simphone.DefaultConfig())
	c := newCLI(t)
	c.adb = phone.adb
	client := startADBStdio(t, c)
	defer func() {
		t.Logf("adb ran:\n  adb %s", strings.Join(phone.adb.Calls(), "\n  adb "))
		t.Logf("stderr:\n%s", client.stderr.String())
	}()

	if got, want := client.tools(), []string{"get_sms_subscriptions", "send_sms"}; !slices.Equal(got, want) {
		t.Fatalf("tools/list: %q; want %q", got, want)
	}
	t.Logf("tools/list: %q", client.tools())
	text, isError := client.call("send_sms", map[string]any{"to_phone_number": "+33785880347", "sms_text": "Hi", "subscription_id": 99})
	if !isError || !strings.HasPrefix(text, "invalid_arguments: ") {
		t.Errorf("a bad subscription_id: %v %s", isError, text)
	}
	t.Logf("send_sms with subscription_id 99: isError %v: %s", isError, text)
	if text, isError = client.call("send_sms", sendArgs); isError || text != "SMS sent to +33785880347" {
		t.Errorf("send_sms: %v %s", isError, text)
	}
	t.Logf("send_sms: %s; the phone's outbox has %d send(s)", text, phone.sends(t))

	// The user shares the notes tool in the app while the client runs.
	notes, err := descriptorCapabilities("../../android/notes/res/xml/mcp_capabilities.xml")
	if err != nil {
		t.Fatal(err)
	}
	// The notes app's calls hang until the phone goes away, so that an
	// unplug lands while a call is in flight.
	inFlight := make(chan struct{}, 1)
	if _, err := phone.srv.Share(mcpserver.SharedApp{Package: "io.github.mobilemcp.notes", Capabilities: notes,
		Call: func(ctx context.Context, _, _ string, _ []byte) ([]byte, error) {
			inFlight <- struct{}{}
			<-ctx.Done()
			return nil, io.EOF
		}}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-client.changed:
		t.Logf("notifications/tools/list_changed arrived after sharing io.github.mobilemcp.notes")
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed after the user shared a tool")
	}
	got := client.waitForTools(5)
	if len(got) != 5 || !slices.Contains(got, "io_github_mobilemcp_notes-create_note") {
		t.Errorf("tools/list after sharing: %q", got)
	}

	// The phone is unplugged while a call is in flight: that call is told
	// it may or may not have run. (Unplugged between calls, the phone is
	// noticed either by the next call or by the poll; the call after is
	// told the same either way, below.)
	type reply struct {
		res *mcp.CallToolResult
		err error
	}
	replied := make(chan reply, 1)
	go func() {
		res, err := client.session.CallTool(context.Background(), &mcp.CallToolParams{Name: "io_github_mobilemcp_notes-create_note", Arguments: map[string]any{"title": "Milk"}})
		replied <- reply{res, err}
	}()
	<-inFlight
	phone.adb.Unplug()
	r := <-replied
	if r.err != nil {
		t.Fatalf("unplugged mid-call, create_note: %v", r.err)
	}
	text, isError = r.res.Content[0].(*mcp.TextContent).Text, r.res.IsError
	if want := "platform_error: the phone could not be reached for io_github_mobilemcp_notes-create_note: no device is connected; plug in a phone with USB debugging on"; !isError || !strings.HasPrefix(text, want) {
		t.Errorf("unplugged mid-call: %v %s\nwant %s", isError, text, want)
	}
	if want := "If this was a send, check the phone before sending again."; !strings.Contains(text, want) {
		t.Errorf("unplugged mid-call: %s\nwant it to say %q", text, want)
	}
	t.Logf("unplugged mid-call, create_note: isError %v: %s", isError, text)
	text, isError = client.call("get_sms_subscriptions", nil)
	if want := "platform_error: the phone's MCP server cannot be reached: no device is connected;"; !isError || !strings.HasPrefix(text, want) {
		t.Errorf("still unplugged: %v %s\nwant %s", isError, text, want)
	}
	phone.adb.Plug()
	text, isError = client.call("get_sms_subscriptions", nil)
	if isError || !strings.HasPrefix(text, `{"count":2,`) {
		t.Errorf("plugged in again: %v %s", isError, text)
	}
	t.Logf("plugged in again, the same client session, get_sms_subscriptions: %s", text)

	if code := client.close(); code != exitOK {
		t.Errorf("exit %d", code)
	}
	if got := phone.adb.Forwards(); len(got) != 0 {
		t.Errorf("forwards left behind: %v", got)
	}
	if n := phone.sends(t); n != 1 {
		t.Errorf("the outbox has %d sends; want 1", n)
	}
	for _, call := range phone.adb.Calls() {
		if strings.Contains(call, phoneToken) {
			t.Errorf("the token is on an adb command line: adb %s", call)
		}
	}
	if strings.Contains(client.stderr.String(), phoneToken) {
		t.Errorf("the token is in the log")
	}
	assertNoFileHolds(t, phoneToken, c.dataDir, c.vars["HOME"])
	t.Logf("the token is on no adb command line, in no log line and in no file under the data directory or HOME")
}

// assertNoFileHolds fails when a file under dirs holds secret.
func assertNoFileHolds(t *testing.T, secret string, dirs ...string) {
	t.Helper()
	for _, dir := range dirs {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if data, _ := os.ReadFile(path); strings.Contains(string(data), secret) {
					t.Errorf("%s holds the token", path)
				}
			}
			return nil
		})
	}
}

func descriptorCapabilities(path string) ([]*capability.Capability, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := xmlfile.Parse(data)
	if err != nil {
		return nil, err
	}
	return f.Capabilities(), nil
}

// With the server off, the command says what to turn on and waits; the
// tools appear once the user turns it on.
func TestADBStdioWaitsForTheServerToBeTurnedOn(t *testing.T) {
	phone := newGatewayPhone(t, simphone.DefaultConfig())
	phone.on.Store(false)
	c := newCLI(t)
	c.adb = phone.adb
	client := startADBStdio(t, c)
	if got := client.tools(); len(got) != 0 {
		t.Errorf("tools/list with the server off: %q", got)
	}
	want := "mobilemcp adb stdio: the MCP server of io.github.mobilemcp.app is off: on the phone, open the app and turn on Serve MCP; the tools appear here once it is on (this command never turns it on itself)\n"
	if got := client.stderr.String(); got != want {
		t.Errorf("stderr: %q\nwant %q", got, want)
	}
	phone.on.Store(true)
	select {
	case <-client.changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed after the server was turned on")
	}
	if got := client.waitForTools(2); len(got) != 2 {
		t.Errorf("tools/list once on: %q", got)
	}
	if code := client.close(); code != exitOK || len(phone.adb.Forwards()) != 0 {
		t.Errorf("exit %d, forwards %v, stderr %s", code, phone.adb.Forwards(), client.stderr)
	}
}

func TestADBStdioEndsAtOnceOnWhatWaitingCannotCure(t *testing.T) {
	phone := newGatewayPhone(t, simphone.DefaultConfig())
	for _, tt := range []struct {
		name string
		errs map[string]error
		outs map[string]string
		want string
	}{
		{name: "several devices", errs: map[string]error{"get-state": errorString("adb get-state: exit status 1: error: more than one device/emulator")},
			want: "mobilemcp adb stdio: more than one device is connected; choose one with --serial (see 'adb devices')\n"},
		{name: "no app", outs: map[string]string{"shell pm path": ""}, errs: map[string]error{"shell pm path": errorString("adb shell pm path: exit status 1: ")},
			want: "mobilemcp adb stdio: the app io.github.mobilemcp.app is not installed on the device; install it (adb install mobilemcp.apk), open it and turn on Serve MCP\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake := adbtest.Fake{Outputs: map[string]string{}, Provider: phone.adb.Provider, Forward: phone.adb.Forward}
			for k, v := range phone.adb.Outputs {
				fake.Outputs[k] = v
			}
			for k, v := range tt.outs {
				fake.Outputs[k] = v
			}
			fake.Errors = tt.errs
			c := newCLI(t)
			c.adb = &fake
			code, out, errOut := c.run("", "adb", "stdio")
			if code != exitFailure || out != "" || errOut != tt.want {
				t.Errorf("exit %d, stdout %q, stderr %q\nwant %q", code, out, errOut, tt.want)
			}
		})
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }
