package mcpserver

import (
	"context"
	"io"

	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
)

// stdioClient is the client identity of a stdio session in the call log,
// the rate limit and the reply store: the one program that started this
// process and holds its stdin.
const stdioClient = "stdio"

// ServeStdio serves the tools to one client over MCP's stdio transport on
// in and out until in ends or ctx is done, and returns once the calls in
// flight have finished. Nothing but JSON-RPC is written
// to out; the call log goes to Options.Logger. The client is stdioClient:
// it needs no token, since it started this process, and the rate limit on
// state-changing tools applies to it as to any client. A call the client
// cancels (notifications/cancelled) stops if it has not reached the
// platform, and gets no answer; one it gives up on otherwise (it goes away
// mid-call) runs to its end, so a send is never cut short.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx = context.WithValue(ctx, clientKey{}, stdioClient)
	t := &mcpwire.LineTransport{In: in, Out: out, MaxLineBytes: int(s.opts.MaxBodyBytes)}
	session, err := s.mcp.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- session.Wait() }()
	select {
	case err = <-ended:
	case <-ctx.Done():
		t.Stop()
		err = <-ended
	}
	if mcpwire.ClientGone(err) {
		err = nil
	}
	return err
}
