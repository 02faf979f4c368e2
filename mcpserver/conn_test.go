package mcpserver_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// rawConn is a TCP connection to the server that the test writes by hand,
// as a slow or hostile client would.
type rawConn struct {
	t *testing.T
	net.Conn
	r *bufio.Reader
}

func (s *testServer) dial() *rawConn {
	s.t.Helper()
	c, err := net.Dial("tcp", s.host)
	if err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { c.Close() })
	return &rawConn{t: s.t, Conn: c, r: bufio.NewReader(c)}
}

// startPost writes the headers of a POST whose body is bodyLen bytes, and
// the first byte of the body.
func (c *rawConn) startPost(host, authorization string, bodyLen int) {
	c.t.Helper()
	h := "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
	if authorization != "" {
		h += "Authorization: " + authorization + "\r\n"
	}
	if _, err := fmt.Fprintf(c, "%sContent-Length: %d\r\n\r\n{", h, bodyLen); err != nil {
		c.t.Fatal(err)
	}
}

// trickle sends a byte every 20 ms until stop closes or a write fails.
func (c *rawConn) trickle(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(20 * time.Millisecond):
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
		}
	}
}

// closedWithin reads the response, and then waits for the server to close
// the connection. It returns the status line, and whether the close came
// within d.
func (c *rawConn) closedWithin(d time.Duration) (status string, closed bool) {
	c.SetReadDeadline(time.Now().Add(d))
	status, _ = c.r.ReadString('\n')
	_, err := io.Copy(io.Discard, c.r)
	return strings.TrimSpace(status), err == nil // EOF, not a timeout
}

// A client without the token is answered 401 as soon as its headers are
// read, and its connection is closed: it cannot hold one open by sending
// its body a byte at a time.
func TestUnauthenticatedSlowBodyIsClosedAt401(t *testing.T) {
	s := startServer(t, mcpserver.Options{Token: "tok"})
	c := s.dial()
	c.startPost(s.host, "", 100_000)
	stop := make(chan struct{})
	defer close(stop)
	go c.trickle(stop)
	status, closed := c.closedWithin(5 * time.Second)
	if status != "HTTP/1.1 401 Unauthorized" || !closed {
		t.Errorf("status %q; closed within 5 s: %v", status, closed)
	}
}

// A client with the token that sends its body too slowly is answered 408
// at the body deadline, and its connection closed.
func TestSlowBodyMeetsTheReadTimeout(t *testing.T) {
	s := startServer(t, mcpserver.Options{Token: "tok", ReadTimeout: 300 * time.Millisecond})
	c := s.dial()
	c.startPost(s.host, "Bearer tok", 100_000)
	stop := make(chan struct{})
	defer close(stop)
	go c.trickle(stop)
	start := time.Now()
	status, closed := c.closedWithin(5 * time.Second)
	if status != "HTTP/1.1 408 Request Timeout" || !closed {
		t.Errorf("status %q; closed within 5 s: %v (after %s)", status, closed, time.Since(start))
	}
	// The server still serves.
	if result, _ := s.callAs("Bearer tok", "get_sms_subscriptions", `{}`); !strings.Contains(result, `"count":2`) {
		t.Errorf("after the slow body: %s", result)
	}
}

// callAs is call with an Authorization header.
func (s *testServer) callAs(authorization, tool, args string) (string, int) {
	s.t.Helper()
	h := map[string]string{"Authorization": authorization}
	for k, v := range jsonHeaders {
		h[k] = v
	}
	status, body := s.post(h, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`}}`)
	return body, status
}

// The server serves at most MaxConns connections at once: while they are
// busy, the next waits for one of them, and is served once one ends.
func TestConnectionsAreCapped(t *testing.T) {
	release := make(chan struct{})
	var entered sync.WaitGroup
	wait := capability.Capability{ID: "wait", Description: "Waits to be released.", Version: "1.0",
		Annotations: capability.Annotations{ReadOnly: true},
		Handler: func(ctx context.Context, _ capability.Args) (capability.Result, error) {
			entered.Done()
			<-release
			return capability.Result{Message: "released"}, nil
		}}
	const limit = 3
	s := startServer(t, mcpserver.Options{MaxConns: limit}, wait)
	entered.Add(limit)
	results := make(chan string, limit)
	for range limit {
		go func() {
			results <- postOnConnection(s.url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"wait","arguments":{}}}`)
		}()
	}
	entered.Wait() // every slot is busy
	answered := make(chan string, 1)
	go func() { answered <- postOnConnection(s.url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`) }()
	var got string
	select {
	case got = <-answered:
		t.Errorf("a connection past the cap was served while %d were busy: %s", limit, got)
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	if got == "" {
		got = <-answered
	}
	if got != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Errorf("once a slot was free: %s", got)
	}
	for range limit {
		if got := <-results; !strings.Contains(got, "released") {
			t.Errorf("a busy call: %s", got)
		}
	}
}

// postOnConnection posts body on a connection of its own and returns the
// reply's body, or the error.
func postOnConnection(url, body string) string {
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return string(data)
}

// The JSON-RPC envelope names each member once: encoding/json (and so the
// SDK) would keep the last of two, and run a tool the first did not name.
func TestDuplicateKeysInTheEnvelopeAreRefused(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	for _, tt := range []struct{ body, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_sms_subscriptions","name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: params.name is given twice; send each member once"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: method is given twice; send each member once"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_sms_subscriptions","arguments":{}},"params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: params is given twice; send each member once"}}`},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_sms","arguments":{},"arguments":{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}}}`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: params.arguments is given twice; send each member once"}}`},
		{`{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: id is given twice; send each member once"}}`},
		{`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"send_sms","_meta":{"io.github.mobilemcp/request_id":"x","io.github.mobilemcp/request_id":"y"},"arguments":{}}}`,
			`{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request: params._meta.\"io.github.mobilemcp/request_id\" is given twice; send each member once"}}`},
	} {
		status, body := s.post(nil, tt.body)
		if status != http.StatusBadRequest || strings.TrimSpace(body) != tt.want {
			t.Errorf("%s:\n got HTTP %d %s\nwant HTTP 400 %s", tt.body, status, body, tt.want)
		}
	}
	if n := s.sends(); n != 0 {
		t.Errorf("%d sends", n)
	}
	// A duplicate inside the arguments is the engine's to refuse, with the
	// message every transport gives.
	result, _ := s.call("send_sms", `{"to_phone_number":"+33785880347","sms_text":"Hi","sms_text":"Bye","subscription_id":14}`)
	if !strings.Contains(result, `invalid_request: arguments: argument \"sms_text\" is given twice`) {
		t.Errorf("a duplicate argument: %s", result)
	}
}
