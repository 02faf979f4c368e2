package mcpserver_test

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// stdioSession is ServeStdio running on pipes: the test writes the
// client's lines and reads the server's.
type stdioSession struct {
	t      *testing.T
	in     *io.PipeWriter
	out    *bufio.Reader
	served chan error
}

func serveStdio(t *testing.T, s *testServer) *stdioSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- s.srv.ServeStdio(context.Background(), inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return &stdioSession{t: t, in: inW, out: bufio.NewReader(outR), served: served}
}

// send writes line and a newline.
func (c *stdioSession) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

// reply reads the next line the server wrote.
func (c *stdioSession) reply() string {
	c.t.Helper()
	line, err := c.out.ReadString('\n')
	if err != nil {
		c.t.Fatalf("reading the server's next line: %v (got %q)", err, line)
	}
	return strings.TrimSuffix(line, "\n")
}

// end closes stdin and returns what ServeStdio returned. What the server
// still writes is read and dropped, as a client that went away would.
func (c *stdioSession) end() error {
	c.in.Close()
	go io.Copy(io.Discard, c.out)
	select {
	case err := <-c.served:
		return err
	case <-time.After(10 * time.Second):
		c.t.Fatal("ServeStdio did not return after stdin ended")
		return nil
	}
}

const stdioInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// Every line the SDK could not decode would end its session; each gets a
// JSON-RPC error of its own instead, and the next request is served.
func TestStdioAnswersEveryBadLineAndKeepsServing(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	c := serveStdio(t, s)
	c.send(stdioInit)
	if got := c.reply(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}},"protocolVersion":"2025-11-25","serverInfo":{"name":"mobilemcp","title":"mobilemcp SMS"`) {
		t.Fatalf("initialize: %s", got)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	huge := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"send_sms","arguments":{"sms_text":"` + strings.Repeat("x", 1<<20) + `"}}}`
	for _, tt := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":2,"method":"tools/list"`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: line 3 is not JSON: unexpected end of JSON input"}}`},
		{`not json`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: line 4 is not JSON: invalid character 'o' in literal null (expecting 'u')"}}`},
		{huge,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: line 5 is ` + strconv.Itoa(len(huge)) + ` bytes, more than the 65536 a message may have; it was not read"}}`},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_sms_subscriptions","name":"send_sms","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request: params.name is given twice; send each member once"}}`},
		{`42`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: line 7 is not a JSON-RPC 2.0 message, which is an object such as {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"}}`},
		{`{"jsonrpc":"1.0","id":"a","method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request: line 8 is not a JSON-RPC 2.0 message: invalid message version tag \"1.0\"; expected \"2.0\""}}`},
		{`[]`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: line 9 is an empty batch"}}`},
	} {
		c.send(tt.line)
		if got := c.reply(); got != tt.want {
			t.Errorf("%.60s:\n got %s\nwant %s", tt.line, got, tt.want)
		}
	}
	c.send("")   // blank lines are no messages and get no answer
	c.send("\r") // nor does a Windows line ending alone
	c.send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}` + "\r")
	if got, want := c.reply(), `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"SMS sent to +33785880347"}],"structuredContent":{"to_phone_number":"+33785880347","subscription_id":14,"encoding":"gsm7","segments":1}}}`; got != want {
		t.Errorf("send_sms after the bad lines:\n got %s\nwant %s", got, want)
	}
	if err := c.end(); err != nil {
		t.Errorf("ServeStdio after EOF: %v", err)
	}
	if n := s.sends(); n != 1 {
		t.Errorf("the outbox has %d sends; want 1 (the huge line sent nothing)", n)
	}
	if log := s.log.String(); !strings.Contains(log, "msg=tools/call client=stdio tool=send_sms outcome=ok") {
		t.Errorf("the call log has no stdio send_sms: %s", log)
	}
}

// The Go SDK's own client, on its own stdio framing, against ServeStdio.
func TestStdioServesTheGoSDKClient(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- s.srv.ServeStdio(context.Background(), inR, outW) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 2 {
		t.Fatalf("tools/list: %v %v", list, err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "send_sms", Arguments: map[string]any{"to_phone_number": "+33785880347", "sms_text": "Hi", "subscription_id": 99}})
	if err != nil || !res.IsError {
		t.Fatalf("a bad subscription_id: %v %v", res, err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(got, "invalid_arguments: ") {
		t.Errorf("a bad subscription_id: %s", got)
	}
	cs.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return after the client closed")
	}
	if n := s.sends(); n != 0 {
		t.Errorf("the outbox has %d sends; want none", n)
	}
}

// A send in flight when stdin ends still finishes and is in the outbox.
func TestStdioFinishesACallInFlightAtEOF(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	c := serveStdio(t, s)
	c.send(stdioInit)
	c.reply()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"last words","subscription_id":14}}}`)
	if err := c.end(); err != nil {
		t.Errorf("ServeStdio after EOF: %v", err)
	}
	if n := s.sends(); n != 1 {
		t.Errorf("the outbox has %d sends; want the one in flight", n)
	}
}

// Over stdio a batch is answered after initialize has agreed on 2025-03-26,
// the one version that has batches, and refused with a JSON-RPC error after
// any other; the session goes on either way.
func TestStdioBatchesFollowTheNegotiatedVersion(t *testing.T) {
	for _, tt := range []struct{ version, want string }{
		{"2025-03-26", batchReply},
		{"2024-11-05", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: line 3 is a batch, which protocol 2024-11-05 does not allow (only 2025-03-26 does); send one message a line"}}`},
		{"2025-06-18", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: line 3 is a batch, which protocol 2025-06-18 does not allow (only 2025-03-26 does); send one message a line"}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: line 3 is a batch, which protocol 2025-11-25 does not allow (only 2025-03-26 does); send one message a line"}}`},
	} {
		t.Run(tt.version, func(t *testing.T) {
			s := startServer(t, mcpserver.Options{})
			c := serveStdio(t, s)
			c.send(initializeAt(tt.version))
			if got := c.reply(); !strings.Contains(got, `"protocolVersion":"`+tt.version+`"`) {
				t.Fatalf("initialize: %s", got)
			}
			c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			c.send(batch)
			if got := c.reply(); got != tt.want {
				t.Errorf("the batch:\n got %s\nwant %s", got, tt.want)
			}
			c.send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
			if got, want := c.reply(), `{"jsonrpc":"2.0","id":4,"result":{}}`; got != want {
				t.Errorf("a ping after the batch:\n got %s\nwant %s", got, want)
			}
			if err := c.end(); err != nil {
				t.Errorf("ServeStdio after EOF: %v", err)
			}
		})
	}
}

// A batch before any version is agreed (before initialize, or from a
// 2026-07-28 client, which has none) is refused; so is a batch that only
// notifies, which would otherwise go unanswered.
func TestStdioRefusesABatchBeforeAVersionIsAgreed(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	c := serveStdio(t, s)
	c.send(batch)
	if got, want := c.reply(), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: line 1 is a batch, which is allowed only once initialize has agreed on protocol 2025-03-26; send one message a line"}}`; got != want {
		t.Errorf("a batch first:\n got %s\nwant %s", got, want)
	}
	c.send(initializeAt("2025-03-26"))
	c.reply()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`[{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}]`)
	c.send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	if got, want := c.reply(), `{"jsonrpc":"2.0","id":5,"result":{}}`; got != want {
		t.Errorf("a batch of notifications gets no answer:\n got %s\nwant %s", got, want)
	}
	if err := c.end(); err != nil {
		t.Errorf("ServeStdio after EOF: %v", err)
	}
}

func TestStdioAnswersPingInEveryVersion(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	c := serveStdio(t, s)
	c.send(ping2026)
	if got, want := c.reply(), `{"jsonrpc":"2.0","id":2,"result":{}}`; got != want {
		t.Errorf("2026-07-28 ping:\n got %s\nwant %s", got, want)
	}
	c.send(stdioInit)
	c.reply()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if got, want := c.reply(), `{"jsonrpc":"2.0","id":3,"result":{}}`; got != want {
		t.Errorf("2025-11-25 ping:\n got %s\nwant %s", got, want)
	}
	if err := c.end(); err != nil {
		t.Errorf("ServeStdio after EOF: %v", err)
	}
}

// initializeAt is an initialize request for protocol version.
func initializeAt(version string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
}
