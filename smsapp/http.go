package smsapp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
	"github.com/mobilemcp/mobilemcp/internal/nopanic"
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
func (s *Server) StartHTTP(addr, token string) (err error) {
	defer nopanic.Into(&err, "smsapp: StartHTTP")
	s.httpMu.Lock()
	defer s.httpMu.Unlock()
	s.mu.Lock()
	running := s.http
	s.mu.Unlock()
	engine, title := s.bridge.Served()
	if running != nil {
		return fmt.Errorf("smsapp: the MCP server is already running at %s; call StopHTTP first", running.url)
	}
	if engine == nil {
		return errors.New("smsapp: the tool has not started; call Bridge.Start before StartHTTP")
	}
	srv, err := mcpserver.New(engine, mcpserver.Options{
		Title:  title,
		Addr:   addr,
		Token:  token,
		Logger: s.log(),
	})
	if err != nil {
		return err
	}
	l, err := srv.Listen()
	if err != nil {
		return err
	}
	h := &httpServer{srv: srv, url: mcpwire.URL(l.Addr()), served: make(chan error, 1)}
	// The shared tools are added, and SetRemoteTool sees the server, in
	// one step, so none shared meanwhile is missed; both before the first
	// request is served.
	s.mu.Lock()
	s.serveRemotes(srv)
	s.http = h
	s.mu.Unlock()
	go func() { h.served <- srv.Serve(l) }()
	return nil
}

// StopHTTP stops the MCP server started by StartHTTP. Calls in flight get
// a few seconds to finish; meanwhile Handle and the other methods answer as
// usual. Stopping a server that is not running does nothing.
func (s *Server) StopHTTP() (err error) {
	defer nopanic.Into(&err, "smsapp: StopHTTP")
	s.httpMu.Lock()
	defer s.httpMu.Unlock()
	s.mu.Lock()
	h := s.http
	s.http = nil
	s.mu.Unlock()
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
func (s *Server) ServingURL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.http == nil {
		return ""
	}
	return s.http.url
}
