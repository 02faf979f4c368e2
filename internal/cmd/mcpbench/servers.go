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

// target is a server process under load and the request that loads it.
type target struct {
	name    string
	url     string // the MCP endpoint
	cpuURL  string // answers the process's CPU time so far, in microseconds
	body    string
	headers map[string]string
	stop    func()
}

const benchToken = "bench-token"

const noopCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"noop","arguments":{}}}`

// serverNames are the servers mcpbench compares, in report order.
var serverNames = []string{"floor", "floor-reply", "mobilemcp"}

// servers are the servers by their -serve name.
var servers = map[string]struct {
	title   string
	handler func() (http.Handler, error)
	body    string
	headers map[string]string
}{
	"floor": {
		title:   "floor: bare go-sdk, no-op tool",
		handler: func() (http.Handler, error) { return bareHandler(&mcp.CallToolResult{}), nil },
		body:    noopCall,
	},
	// The same reply as mobilemcp's from a bare server separates the cost of
	// the reply's size from the cost of mobilemcp's own layers.
	"floor-reply": {
		title:   "bare go-sdk, fixed reply like mobilemcp's",
		handler: sameReplyHandler,
		body:    noopCall,
	},
	"mobilemcp": {
		title:   "mobilemcp, get_sms_subscriptions",
		handler: oursHandler,
		body:    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_sms_subscriptions","arguments":{}}}`,
		headers: map[string]string{
			"Authorization": "Bearer " + benchToken,
			"Origin":        "http://localhost:6274", // allowed, so the check runs to the end
		},
	},
}

// oursHandler is the whole mobilemcp stack as 'mobilemcp serve' runs it:
// token, Origin check, rate limiter, call log (formatted, then discarded)
// and the engine on the simulated phone, without an outbox.
func oursHandler() (http.Handler, error) {
	eng, err := simulatedEngine()
	if err != nil {
		return nil, err
	}
	srv, err := mcpserver.New(eng, mcpserver.Options{
		Token:  benchToken,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		return nil, err
	}
	return srv.Handler(), nil
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

// sameReplyHandler answers every call with what get_sms_subscriptions
// answers: its JSON text as the text content and as structuredContent.
func sameReplyHandler() (http.Handler, error) {
	eng, err := simulatedEngine()
	if err != nil {
		return nil, err
	}
	r := eng.Do(context.Background(), capability.Call{Request: capability.Request{CapabilityID: sms.GetSubscriptionsID}})
	if r.Failed() {
		return nil, fmt.Errorf("%s: %s", r.ErrorCode, r.Message)
	}
	return bareHandler(&mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: r.Message}},
		StructuredContent: json.RawMessage(r.Message),
	}), nil
}

// bareHandler is the least any server on the SDK does: a bare stateless
// JSON handler with one tool that returns result and does nothing else.
func bareHandler(result *mcp.CallToolResult) http.Handler {
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"},
		&mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	s.AddTool(&mcp.Tool{Name: "noop", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return result, nil })
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// serve is the child process: it serves one server on a free loopback port,
// prints its address, and exits when its parent closes stdin.
func serve(name string) error {
	s, ok := servers[name]
	if !ok {
		return fmt.Errorf("no server %q", name)
	}
	h, err := s.handler()
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.HandleFunc("/cpu", func(w http.ResponseWriter, _ *http.Request) {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		fmt.Fprint(w, time.Duration(ru.Utime.Nano()+ru.Stime.Nano()).Microseconds())
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go http.Serve(l, mux)
	fmt.Println(l.Addr())
	io.Copy(io.Discard, os.Stdin)
	return nil
}

// start runs the server name in a child process.
func start(name string) (*target, error) {
	cmd := exec.Command(os.Args[0], "-serve", name)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	addr, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		return nil, fmt.Errorf("server %s did not start: %v", name, err)
	}
	addr = strings.TrimSpace(addr)
	s := servers[name]
	return &target{
		name:    s.title,
		url:     "http://" + addr + "/mcp",
		cpuURL:  "http://" + addr + "/cpu",
		body:    s.body,
		headers: s.headers,
		stop:    func() { stdin.Close(); cmd.Wait() },
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
