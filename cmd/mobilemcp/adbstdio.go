package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb"
	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
	"github.com/mobilemcp/mobilemcp/internal/text"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

const adbStdioHelp = `Gives the MCP client that runs it the tools the phone shares: the app's
own (send_sms, get_sms_subscriptions) and those of the apps the user shared
in it. It is the command a client's configuration names:
  claude mcp add phone -- mobilemcp adb stdio
('mobilemcp config' prints every client's). It speaks MCP on stdin and
stdout, and reaches the app's MCP server over USB:
  1. it checks adb, the device and the app;
  2. it asks the app, through its shell-only provider ('adb shell content
     call', which only adb's shell can use), whether its MCP server is on,
     on which port, and with which token; the token is never typed, stored
     in a file or put on a command line;
  3. it forwards a free local port to the server (adb forward tcp:0), checks
     the server knows the token, and mirrors its tools.

The phone decides: the tools are the ones the user shares in the app, and
a tool shared while the client runs appears (notifications/tools/
list_changed). When the server is off, it says so on stderr and waits for
the user to turn on Serve MCP in the app; it never turns it on itself.
Unplugged, the phone's tools answer with an error that says so, and it
reconnects by itself once the phone is back, without restarting the client.

When the client exits (the end of stdin, SIGINT or SIGTERM), calls in flight
finish and the forward is removed. stdout carries only JSON-RPC; what it
does is logged on stderr.`

// pollInterval is how often adb stdio asks the phone for its tools: the
// phone's server answers each request on its own, so it cannot tell the
// client of a change itself.
const pollInterval = 2 * time.Second

func runADBStdio(e *env, args []string) int {
	fs := newFlags(e, "adb stdio", "[--serial S] [--app PACKAGE]", adbStdioHelp)
	serial := fs.String("serial", "", "the device's `serial` (see 'adb devices'); needed when several are connected")
	app := fs.String("app", gatewayApp, "the `package` of the app that serves MCP")
	poll := fs.Duration("poll", pollInterval, "how often to look for tools the user shared or stopped sharing, a `duration` such as 2s or 500ms")
	code, done := parseNoArgs(e, fs, args)
	if done {
		return code
	}
	if *poll <= 0 {
		return usageError(e, fs, "--poll must be positive, got %s", *poll)
	}
	logw := &lockedLog{w: e.stderr}
	d := e.device(*serial)
	// What waiting cannot cure ends it at once, with the reason in the
	// client's log: no adb, several devices and no --serial, no app. A
	// phone not plugged in, not authorised or not booted yet is waited for.
	err := d.CheckConnected(e.ctx)
	switch {
	case errors.Is(err, adb.ErrNoADB) || errors.Is(err, adb.ErrSeveralDevices):
		logw.printf("%v", err)
		return exitFailure
	case err == nil:
		installed, err := d.HasPackage(e.ctx, *app)
		if err == nil && !installed {
			logw.printf("the app %s is not installed on the device; install it (adb install mobilemcp.apk), open it and turn on Serve MCP", *app)
			return exitFailure
		}
	}
	link := newPhoneLink(d, *app, logw)
	ctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A client that went away leaves a broken pipe: writing to it must be
	// an error to handle, not the end of the process before the cleanup.
	signal.Ignore(syscall.SIGPIPE)
	if err := link.serve(ctx, e.stdin, clientOut(e.stdout), *poll); err != nil {
		logw.printf("%v", err)
		return exitFailure
	}
	return exitOK
}

// lockedLog writes whole lines to stderr from any goroutine.
type lockedLog struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedLog) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "mobilemcp adb stdio: "+format+"\n", args...)
}

// phoneLink mirrors the phone's MCP server to one stdio client: an MCP
// server on stdin and stdout whose tools are the phone's, each call sent
// on to the phone through a client session over adb's forward.
type phoneLink struct {
	d      *adb.Device
	app    string
	log    *lockedLog
	server *mcp.Server

	connectMu sync.Mutex // one connect or check at a time

	mu      sync.Mutex
	session *mcp.ClientSession // nil while the phone cannot be reached
	auth    *bearerTransport
	port    int                    // the local port of the forward this made, 0 when none
	mirror  map[string]string      // the JSON of each mirrored tool, by name
	problem string                 // why the phone cannot be reached, when it cannot
	calls   sync.WaitGroup         // the calls being sent on to the phone
	logged  atomic.Pointer[string] // the last state logged
}

func newPhoneLink(d *adb.Device, app string, log *lockedLog) *phoneLink {
	p := &phoneLink{d: d, app: app, log: log, mirror: map[string]string{}, problem: "not connected yet"}
	p.server = mcp.NewServer(&mcp.Implementation{Name: mcpserver.Name, Title: "mobilemcp phone over adb", Version: mcpserver.Version()},
		&mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}}})
	return p
}

// serve connects to the phone, serves the client on in and out until in
// ends or ctx is done, then lets the calls in flight finish and removes
// the forward.
func (p *phoneLink) serve(ctx context.Context, in io.Reader, out io.Writer, poll time.Duration) error {
	p.refresh(ctx)
	session, err := p.server.Connect(ctx, &mcpwire.LineTransport{In: in, Out: out}, nil)
	if err != nil {
		return err
	}
	polling, stopPolling := context.WithCancel(context.Background())
	defer stopPolling()
	go func() {
		t := time.NewTicker(poll)
		defer t.Stop()
		for {
			select {
			case <-polling.Done():
				return
			case <-t.C:
				p.refresh(polling)
			}
		}
	}()
	ended := make(chan error, 1)
	go func() { ended <- session.Wait() }()
	select {
	case err = <-ended:
	case <-ctx.Done():
		p.log.printf("stopping: %v", context.Cause(ctx))
		session.Close()
		err = <-ended
	}
	stopPolling()
	p.calls.Wait()
	p.connectMu.Lock()
	defer p.connectMu.Unlock()
	p.disconnect(context.Background(), "")
	if mcpwire.ClientGone(err) {
		err = nil
	}
	return err
}

// refresh connects to the phone when it is not connected, else asks for
// its tools, and mirrors them.
func (p *phoneLink) refresh(ctx context.Context) {
	p.connectMu.Lock()
	defer p.connectMu.Unlock()
	p.mu.Lock()
	session := p.session
	p.mu.Unlock()
	if session == nil {
		if err := p.connect(ctx); err != nil {
			p.disconnect(ctx, err.Error())
		}
		return
	}
	listCtx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	list, err := session.ListTools(listCtx, nil)
	if err != nil {
		p.disconnect(ctx, p.reason(err))
		return
	}
	p.sync(list.Tools)
}

// connect finds the phone's server, forwards a port to it and starts a
// client session. connectMu is held.
func (p *phoneLink) connect(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := p.d.CheckConnected(ctx); err != nil {
		return err
	}
	state, err := p.d.MCPServer(ctx, p.app)
	switch {
	case errors.Is(err, adb.ErrNoMCPProvider):
		return fmt.Errorf("the app %s on the device does not answer adb's question about its MCP server (it is not installed, or older than this command); install the current app", p.app)
	case err != nil:
		return err
	case !state.On && state.Error != "":
		return fmt.Errorf("the MCP server of %s is off: its last start failed (%s); on the phone, open the app and turn on Serve MCP again", p.app, state.Error)
	case !state.On:
		return fmt.Errorf("the MCP server of %s is off: on the phone, open the app and turn on Serve MCP; the tools appear here once it is on (this command never turns it on itself)", p.app)
	}
	p.disconnect(ctx, "") // a forward from before the phone went away
	port, err := p.d.ForwardAny(ctx, state.Port)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.port = port
	p.mu.Unlock()
	url := "http://127.0.0.1:" + strconv.Itoa(port) + mcpserver.Path
	if err := proveServer(ctx, url, state.Port, state.Token, p.app); err != nil {
		return err
	}
	auth := &bearerTransport{next: http.DefaultTransport, token: state.Token}
	client := mcp.NewClient(&mcp.Implementation{Name: "mobilemcp-adb-stdio", Version: mcpserver.Version()}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: auth}, MaxRetries: -1, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return fmt.Errorf("the app's MCP server does not answer MCP initialize: %v", err)
	}
	list, err := session.ListTools(ctx, nil)
	if err != nil {
		session.Close()
		return fmt.Errorf("the app's MCP server does not list its tools: %v", err)
	}
	p.mu.Lock()
	p.session, p.auth, p.problem = session, auth, ""
	p.mu.Unlock()
	p.sync(list.Tools)
	title := session.InitializeResult().ServerInfo.Title
	p.note(fmt.Sprintf("connected to %s on the phone through 127.0.0.1:%d (%d tools)", title, port, len(list.Tools)))
	return nil
}

// disconnect ends the client session and removes the forward; problem, if
// not "", is why the phone cannot be reached now. connectMu is held.
func (p *phoneLink) disconnect(ctx context.Context, problem string) {
	p.mu.Lock()
	session, port := p.session, p.port
	p.session, p.port = nil, 0
	if problem != "" {
		p.problem = problem
	}
	p.mu.Unlock()
	if session != nil {
		session.Close()
	}
	if port != 0 {
		rmCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		// An unplugged phone has taken its forwards with it.
		if err := p.d.RemoveForward(rmCtx, port); err == nil {
			p.log.printf("removed the forward of 127.0.0.1:%d", port)
		}
	}
	if problem != "" {
		p.note(problem)
	}
}

// note logs state once, not at every poll.
func (p *phoneLink) note(state string) {
	if old := p.logged.Swap(&state); old == nil || *old != state {
		p.log.printf("%s", state)
	}
}

// reason says why a request to the phone failed.
func (p *phoneLink) reason(err error) string {
	if cerr := p.d.CheckConnected(context.Background()); cerr != nil {
		return cerr.Error()
	}
	return fmt.Sprintf("the phone's MCP server stopped answering (%v); check that the phone is unlocked and Serve MCP is still on", err)
}

// sync makes the mirrored tools the phone's: it adds and replaces the new
// and changed ones and removes the rest, and the SDK tells the client
// (notifications/tools/list_changed).
func (p *phoneLink) sync(tools []*mcp.Tool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	seen := map[string]bool{}
	for _, t := range tools {
		data, err := json.Marshal(t)
		if err != nil {
			continue
		}
		seen[t.Name] = true
		if p.mirror[t.Name] == string(data) {
			continue
		}
		if err := addTool(p.server, t, p.call); err != nil {
			p.log.printf("the phone's tool %s cannot be offered: %v", text.Excerpt(t.Name), err)
			continue
		}
		p.mirror[t.Name] = string(data)
	}
	var gone []string
	for name := range p.mirror {
		if !seen[name] {
			gone = append(gone, name)
			delete(p.mirror, name)
		}
	}
	if len(gone) > 0 {
		slices.Sort(gone)
		p.server.RemoveTools(gone...)
	}
}

// addTool adds t, which the SDK refuses with a panic when its input schema
// is not an object's.
func addTool(s *mcp.Server, t *mcp.Tool, h mcp.ToolHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	s.AddTool(t, h)
	return nil
}

// call sends a tools/call on to the phone and returns its answer as it is.
// It runs to its end even when the client goes away, so that a send is
// never cut short. A phone that cannot be reached gets an isError result
// that says why and what to do.
func (p *phoneLink) call(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	p.calls.Add(1)
	defer p.calls.Done()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), mcpserver.MaxSharedTimeout+30*time.Second)
	defer cancel()
	params := &mcp.CallToolParams{Meta: req.Params.Meta, Name: req.Params.Name, Arguments: req.Params.Arguments}
	for attempt := 0; ; attempt++ {
		session, auth, _ := p.current()
		if session == nil {
			p.refresh(ctx) // a phone plugged in again answers this very call
			var problem string
			if session, auth, problem = p.current(); session == nil {
				return unreachable("the phone's MCP server cannot be reached: %s. This server reconnects by itself; the client need not restart", problem), nil
			}
		}
		refusedBefore := auth.refusals.Load()
		res, err := session.CallTool(ctx, params)
		if err == nil {
			return res, nil
		}
		var rpc *jsonrpc.Error
		if errors.As(err, &rpc) && rpc.Code != rejectedByTransport {
			return nil, err // the phone's own answer, such as an unknown tool
		}
		if auth.refusals.Load() > refusedBefore && attempt == 0 {
			// The server refused the token before running anything: it
			// was turned off and on again, with a new one. Ask again.
			p.connectMu.Lock()
			p.disconnect(ctx, "the app's MCP server has a new token")
			p.connectMu.Unlock()
			continue
		}
		reason := p.reason(err)
		p.connectMu.Lock()
		p.disconnect(ctx, reason)
		p.connectMu.Unlock()
		return unreachable("the phone could not be reached for %s: %s. If this was a send, check the phone before sending again. This server reconnects by itself; the client need not restart", text.Excerpt(req.Params.Name), reason), nil
	}
}

// rejectedByTransport is the JSON-RPC code the SDK gives a request its
// transport could not deliver (jsonrpc2.ErrRejected): not the phone's answer.
const rejectedByTransport = -32005

// current is the session to the phone, or nil and why there is none.
func (p *phoneLink) current() (*mcp.ClientSession, *bearerTransport, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.session, p.auth, p.problem
}

// unreachable is the isError result of a call the phone did not get, with
// the error_code the server's own failures carry.
func unreachable(format string, args ...any) *mcp.CallToolResult {
	text := string(capability.CodePlatformError) + ": " + fmt.Sprintf(format, args...)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}},
		Meta: mcp.Meta{mcpserver.MetaErrorCode: string(capability.CodePlatformError)}}
}

// bearerTransport sends the token with every request and counts the
// server's 401s, which say that it ran nothing.
type bearerTransport struct {
	next     http.RoundTripper
	token    string
	refusals atomic.Int64
}

func (b *bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := b.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		b.refusals.Add(1)
	}
	return resp, err
}
