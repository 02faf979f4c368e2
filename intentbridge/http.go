package intentbridge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// stopGrace is how long StopHTTP waits for calls in flight, such as a
// send_sms waiting for the radio, before it closes their connections.
const stopGrace = 10 * time.Second

// httpServer is a running MCP server and the outcome of its Serve.
type httpServer struct {
	srv    *mcpserver.Server
	url    string
	served chan error
}

// StartHTTP serves the bridge's capabilities as MCP tools over Streamable
// HTTP at http://addr/mcp, the same tools 'mobilemcp serve' offers on a
// host, answered by the same engine as the Intents. An empty addr means
// 127.0.0.1:9531, reachable from the phone only. Any other address, such as
// 0.0.0.0:9531 for the local network, needs a token, which clients send as
// "Authorization: Bearer <token>"; without one StartHTTP fails.
//
// It returns once the server listens, or with the reason it cannot, such
// as a port in use. It fails when the server is already running.
func (b *Bridge) StartHTTP(addr, token string) (err error) {
	defer recoverInto(&err, "StartHTTP")
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.http != nil {
		return fmt.Errorf("intentbridge: the MCP server is already running at %s; call StopHTTP first", b.http.url)
	}
	if b.engine == nil {
		return errors.New("intentbridge: the tool has not started; call Start before StartHTTP")
	}
	srv, err := mcpserver.New(b.engine, mcpserver.Options{
		Title:  b.title,
		Addr:   addr,
		Token:  token,
		Logger: b.log,
	})
	if err != nil {
		return err
	}
	b.serveRemotes(srv)
	l, err := srv.Listen()
	if err != nil {
		return err
	}
	h := &httpServer{srv: srv, url: mcpserver.URL(l.Addr()), served: make(chan error, 1)}
	go func() { h.served <- srv.Serve(l) }()
	b.http = h
	return nil
}

// StopHTTP stops the MCP server started by StartHTTP. Calls in flight get
// a few seconds to finish. Stopping a server that is not running does
// nothing.
func (b *Bridge) StopHTTP() (err error) {
	defer recoverInto(&err, "StopHTTP")
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.http == nil {
		return nil
	}
	h := b.http
	b.http = nil
	ctx, cancel := context.WithTimeout(context.Background(), stopGrace)
	defer cancel()
	if err := h.srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return <-h.served
}

// ServingURL is the MCP endpoint while the server runs, such as
// "http://0.0.0.0:9531/mcp", or "" when it is stopped. With 0.0.0.0 the
// app shows the phone's own address in its place.
func (b *Bridge) ServingURL() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.http == nil {
		return ""
	}
	return b.http.url
}

// recoverInto turns a panic into an error: a Go panic that crosses into
// Java kills the app.
func recoverInto(err *error, where string) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("intentbridge: %s failed with an internal error: %v", where, p)
	}
}
