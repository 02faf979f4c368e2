package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/mcpserver"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// A server runs in a process of its own, so that its CPU time can be told
// apart from the load generator's.

// group is the servers of one transport, compared with each other; the
// last is mobilemcp's.
type group struct {
	transport string
	title     string
	servers   []string
}

var groups = []group{
	{"http", "Streamable HTTP: stateless, JSON replies, loopback, one kept-alive connection per client",
		[]string{"floor", "floor-reply", "mobilemcp"}},
	{"stdio", "stdio: one process and one pipe, clients = calls in flight on it",
		[]string{"stdio-floor-reply", "stdio-mobilemcp"}},
}

const benchToken = "bench-token"

// callParams are the params of each server's tools/call.
const (
	noopParams          = `{"name":"noop","arguments":{}}`
	subscriptionsParams = `{"name":"get_sms_subscriptions","arguments":{}}`
)

// server is one server mcpbench can run, by its -serve name: an HTTP
// handler, or a stdio server on the process's stdin and stdout.
type server struct {
	title   string
	handler func() (http.Handler, error)
	stdio   func(ctx context.Context, in io.Reader, out io.Writer) error
	params  string
	headers map[string]string
}

var servers = map[string]server{
	"floor": {
		title:   "floor: bare go-sdk, no-op tool",
		handler: func() (http.Handler, error) { return bareHandler(&mcp.CallToolResult{}), nil },
		params:  noopParams,
	},
	// The same reply as mobilemcp's from a bare server separates the cost of
	// the reply's size from the cost of mobilemcp's own layers.
	"floor-reply": {
		title:   "bare go-sdk, fixed reply like mobilemcp's",
		handler: func() (http.Handler, error) { return bareHandler(sameReply()), nil },
		params:  noopParams,
	},
	"mobilemcp": {
		title:   "mobilemcp, get_sms_subscriptions",
		handler: oursHandler,
		params:  subscriptionsParams,
		headers: map[string]string{
			"Authorization": "Bearer " + benchToken,
			"Origin":        "http://localhost:6274", // allowed, so the check runs to the end
		},
	},
	"stdio-floor-reply": {
		title:  "bare go-sdk stdio, fixed reply like mobilemcp's",
		stdio:  bareStdio,
		params: noopParams,
	},
	"stdio-mobilemcp": {
		title:  "mobilemcp serve --stdio, get_sms_subscriptions",
		stdio:  oursStdio,
		params: subscriptionsParams,
	},
}

// oursHandler is the whole mobilemcp stack as 'mobilemcp serve' runs it:
// token, Origin check, rate limiter, call log (formatted, then discarded)
// and the engine on the simulated phone, without an outbox.
func oursHandler() (http.Handler, error) {
	srv, err := oursServer(benchToken, io.Discard)
	if err != nil {
		return nil, err
	}
	return srv.Handler(), nil
}

// oursStdio is 'mobilemcp serve --stdio': the call log goes to stderr,
// which the parent reads and drops, as an agent keeps a server's log.
func oursStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	srv, err := oursServer("", os.Stderr)
	if err != nil {
		return err
	}
	return srv.ServeStdio(ctx, in, out)
}

func oursServer(token string, log io.Writer) (*mcpserver.Server, error) {
	eng, err := simulatedEngine()
	if err != nil {
		return nil, err
	}
	return mcpserver.New(eng, mcpserver.Options{
		Token:  token,
		Logger: slog.New(slog.NewTextHandler(log, nil)),
	})
}

func simulatedEngine() (*capability.Engine, error) {
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{})
	if err != nil {
		return nil, err
	}
	// The phone's cap of 30 SMS parts a minute off: a benchmark sends thousands.
	reg, err := capability.NewRegistry(sms.CapabilitiesWith(phone, sms.Options{PartsPerMinute: -1})...)
	if err != nil {
		return nil, err
	}
	return capability.NewEngine(reg, capability.Options{}), nil
}

// sameReply is what get_sms_subscriptions answers: its JSON text as the
// text content and as structuredContent.
func sameReply() *mcp.CallToolResult {
	eng, err := simulatedEngine()
	if err != nil {
		panic(err)
	}
	r := eng.Do(context.Background(), capability.NewToolCall("", sms.GetSubscriptionsID, nil, capability.Caller{}, nil))
	if r.Failed() {
		panic(fmt.Sprintf("%s: %s", r.ErrorCode, r.Message))
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: r.Message}},
		StructuredContent: json.RawMessage(r.Message),
	}
}

// bareServer is the least any server on the SDK does: one tool that
// returns result and does nothing else.
func bareServer(result *mcp.CallToolResult) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"},
		&mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	s.AddTool(&mcp.Tool{Name: "noop", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return result, nil })
	return s
}

// bareHandler is bareServer as a stateless JSON HTTP handler.
func bareHandler(result *mcp.CallToolResult) http.Handler {
	s := bareServer(result)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// bareStdio is bareServer returning mobilemcp's reply on the SDK's own
// stdio transport.
func bareStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	return bareServer(sameReply()).Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopCloser{out}})
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// serve is the child process: it serves one server, answers its CPU time
// at /cpu on a free loopback port, and exits when its parent closes stdin.
// An HTTP server prints its address on stdout; a stdio server prints the
// /cpu address on stderr and speaks MCP on stdin and stdout.
func serve(name string) error {
	s, ok := servers[name]
	if !ok {
		return fmt.Errorf("no server %q", name)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/cpu", func(w http.ResponseWriter, _ *http.Request) {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		fmt.Fprint(w, time.Duration(ru.Utime.Nano()+ru.Stime.Nano()).Microseconds())
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	if s.stdio != nil {
		go http.Serve(l, mux)
		fmt.Fprintln(os.Stderr, l.Addr())
		return s.stdio(context.Background(), os.Stdin, os.Stdout)
	}
	h, err := s.handler()
	if err != nil {
		return err
	}
	mux.Handle("/mcp", h)
	go http.Serve(l, mux)
	fmt.Println(l.Addr())
	io.Copy(io.Discard, os.Stdin)
	return nil
}

// target is a server process under load.
type target struct {
	name   string
	cpuURL string // answers the process's CPU time so far, in microseconds
	// caller returns what makes calls for a load of clients.
	caller func(clients int) caller
	stop   func()
}

// caller makes one tools/call at a time per goroutine, and reports whether
// it got a result that is not an error.
type caller interface {
	call() bool
	close()
}

// check makes one call.
func (t *target) check() error {
	c := t.caller(1)
	defer c.close()
	if !c.call() {
		return fmt.Errorf("no result")
	}
	return nil
}

// start runs the server name in a child process.
func start(name string) (*target, error) {
	s := servers[name]
	cmd := exec.Command(os.Args[0], "-serve", name)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if s.stdio == nil {
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		addr, err := bufio.NewReader(stdout).ReadString('\n')
		if err != nil {
			cmd.Process.Kill()
			return nil, fmt.Errorf("server %s did not start: %v", name, err)
		}
		addr = strings.TrimSpace(addr)
		url := "http://" + addr + "/mcp"
		return &target{
			name:   s.title,
			cpuURL: "http://" + addr + "/cpu",
			caller: func(clients int) caller { return newHTTPCaller(clients, url, s) },
			stop:   func() { stdin.Close(); cmd.Wait() },
		}, nil
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	logs := bufio.NewReader(stderr)
	addr, err := logs.ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		return nil, fmt.Errorf("server %s did not start: %v", name, err)
	}
	go io.Copy(io.Discard, logs) // the call log
	conn, err := dialStdio(stdin, stdout)
	if err != nil {
		cmd.Process.Kill()
		return nil, fmt.Errorf("server %s: %v", name, err)
	}
	return &target{
		name:   s.title,
		cpuURL: "http://" + strings.TrimSpace(addr) + "/cpu",
		caller: func(int) caller { return &stdioCaller{conn: conn, params: s.params} },
		stop:   func() { stdin.Close(); cmd.Wait() },
	}, nil
}

// cpu is the server process's CPU time so far.
func (t *target) cpu() (time.Duration, error) {
	resp, err := http.Get(t.cpuURL)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	us, err := strconv.ParseInt(string(text), 10, 64)
	return time.Duration(us) * time.Microsecond, err
}
