package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/mcpserver"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// The benchmarks measure one tools/call of get_sms_subscriptions through
// the whole server (the call log formatted, then dropped) against the floor:
// a bare go-sdk server whose tool returns the same reply as a constant. Run
// both halves in turns and compare their ns/op as a ratio:
//
//	go test -run '^$' -bench 'HTTP|Stdio' -count 5 ./mcpserver
//
// cpu-ns/op is the process's CPU time per call, garbage collection and the
// server's goroutines included: on a machine shared with other work it is
// steadier than ns/op, which counts the waits for a core too.
// internal/mcpbench does the same with each server in a process of its own.

// cpuTime is the process's CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time since start per op.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// benchEngine is the simulated phone's engine, without an outbox.
func benchEngine(b *testing.B) *capability.Engine {
	b.Helper()
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{})
	if err != nil {
		b.Fatal(err)
	}
	reg, err := capability.NewRegistry(sms.CapabilitiesWith(phone, sms.Options{PartsPerMinute: -1})...)
	if err != nil {
		b.Fatal(err)
	}
	return capability.NewEngine(reg, capability.Options{})
}

func benchServer(b *testing.B) *mcpserver.Server {
	b.Helper()
	srv, err := mcpserver.New(benchEngine(b), mcpserver.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	return srv
}

// floorServer is a bare go-sdk server whose one tool, noop, returns what
// get_sms_subscriptions returns.
func floorServer(b *testing.B) *mcp.Server {
	b.Helper()
	r := benchEngine(b).Do(context.Background(), capability.NewToolCall("", sms.GetSubscriptionsID, nil, capability.Caller{}, nil))
	result := &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: r.Message}},
		StructuredContent: json.RawMessage(r.Message),
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"},
		&mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	s.AddTool(&mcp.Tool{Name: "noop", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return result, nil })
	return s
}

func BenchmarkHTTP(b *testing.B) {
	floor := floorServer(b)
	for _, bb := range []struct {
		name    string
		handler http.Handler
		tool    string
	}{
		{"floor-reply", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return floor },
			&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}), "noop"},
		{"mobilemcp", benchServer(b).Handler(), sms.GetSubscriptionsID},
	} {
		b.Run(bb.name, func(b *testing.B) {
			body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + bb.tool + `","arguments":{}}}`
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:9531/mcp", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				req.Header.Set("MCP-Protocol-Version", "2025-11-25")
				w := httptest.NewRecorder()
				bb.handler.ServeHTTP(w, req)
				if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"structuredContent"`) {
					b.Fatalf("HTTP %d %s", w.Code, w.Body)
				}
			}
			reportCPU(b, start)
		})
	}
}

func BenchmarkStdio(b *testing.B) {
	for _, bb := range []struct {
		name  string
		serve func(in io.Reader, out io.Writer) error
		tool  string
	}{
		{"floor-reply", func(in io.Reader, out io.Writer) error {
			return floorServer(b).Run(context.Background(), &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
		}, "noop"},
		{"mobilemcp", func(in io.Reader, out io.Writer) error {
			return benchServer(b).ServeStdio(context.Background(), in, out)
		}, sms.GetSubscriptionsID},
	} {
		b.Run(bb.name, func(b *testing.B) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			served := make(chan error, 1)
			go func() { served <- bb.serve(inR, outW); outW.Close() }()
			replies := bufio.NewReader(outR)
			roundTrip := func(line string) string {
				if _, err := io.WriteString(inW, line+"\n"); err != nil {
					b.Fatal(err)
				}
				reply, err := replies.ReadString('\n')
				if err != nil {
					b.Fatal(err)
				}
				return reply
			}
			roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
			io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
			call := `,"method":"tools/call","params":{"name":"` + bb.tool + `","arguments":{}}}`
			b.ReportAllocs()
			id := 0
			start := cpuTime()
			for b.Loop() {
				id++
				if reply := roundTrip(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + call); !strings.Contains(reply, `"structuredContent"`) {
					b.Fatalf("reply %s", reply)
				}
			}
			reportCPU(b, start)
			inW.Close()
			go io.Copy(io.Discard, outR)
			if err := <-served; err != nil && err != io.EOF {
				b.Fatal(err)
			}
		})
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
