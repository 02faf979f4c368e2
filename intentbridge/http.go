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
	b.httpMu.Lock()
	defer b.httpMu.Unlock()
	b.mu.Lock()
	running, engine, title := b.http, b.engine, b.title
	b.mu.Unlock()
	if running != nil {
		return fmt.Errorf("intentbridge: the MCP server is already running at %s; call StopHTTP first", running.url)
	}
	if engine == nil {
		return errors.New("intentbridge: the tool has not started; call Start before StartHTTP")
	}
	srv, err := mcpserver.New(engine, mcpserver.Options{
		Title:  title,
		Addr:   addr,
		Token:  token,
		Logger: b.log,
	})
	if err != nil {
		return err
	}
	l, err := srv.Listen()
	if err != nil {
		return err
	}
	h := &httpServer{srv: srv, url: mcpserver.URL(l.Addr()), served: make(chan error, 1)}
	// The shared tools are added, and SetRemoteTool sees the server, in
	// one step, so none shared meanwhile is missed; both before the first
	// request is served.
	b.mu.Lock()
	b.serveRemotes(srv)
	b.http = h
	b.mu.Unlock()
	go func() { h.served <- srv.Serve(l) }()
	return nil
}

// StopHTTP stops the MCP server started by StartHTTP. Calls in flight get
// a few seconds to finish; meanwhile Handle and the other methods answer as
// usual. Stopping a server that is not running does nothing.
func (b *Bridge) StopHTTP() (err error) {
	defer recoverInto(&err, "StopHTTP")
	b.httpMu.Lock()
	defer b.httpMu.Unlock()
	b.mu.Lock()
	h := b.http
	b.http = nil
	b.mu.Unlock()
	if h == nil {
		return nil
	}
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
