package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

func init() {
	register(command{name: "serve", summary: "serve the capabilities as MCP tools over HTTP or stdio, on the simulated phone", run: runServe})
}

// shutdownGrace is how long a stopping server waits for calls in flight; a
// send_sms may be waiting for the radio.
const shutdownGrace = 30 * time.Second

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

// rateFlag is a flag holding a mcpserver.Rate.
type rateFlag struct{ rate ratelimit.Rate }

func (r *rateFlag) String() string { return r.rate.String() }
func (r *rateFlag) Set(v string) (err error) {
	r.rate, err = ratelimit.ParseRate(v)
	return err
}

// protocolVersions lists the MCP protocol versions the server answers in,
// newest first: every one the SDK speaks.
func protocolVersions() string {
	v := mcp.SupportedProtocolVersions()
	return strings.Join(v[:len(v)-1], ", ") + " and " + v[len(v)-1]
}

func runServe(e *env, args []string) int {
	fs := newFlags(e, "serve", "[flags]",
		`Serves every capability as an MCP tool at POST /mcp (Streamable HTTP,
stateless, JSON replies), on the simulated phone, in the MCP versions
  `+protocolVersions()+`.
Sends go to the outbox in the data directory, as with 'mobilemcp call'.
Each tools/call is logged on one line on stderr, without argument values.
Stop it with Ctrl-C.

With --stdio it serves the one MCP client that started it, on stdin and
stdout instead (MCP's stdio transport), as desktop agents run a server:
  claude mcp add sms -- uvx mobilemcp serve --stdio
stdout then carries only JSON-RPC, and the log goes to stderr. The end of
stdin, SIGINT or SIGTERM ends it once the calls in flight have finished.
'mobilemcp config' prints the configuration of each client.

Binding anything but loopback needs a token, which clients send as
"Authorization: Bearer <token>". Prefer $MOBILEMCP_TOKEN to --token:
command lines are visible to other users. See docs/desktop.md and
docs/reference/mcp-server.md.`)
	var phone phoneFlags
	phone.register(fs)
	addr := fs.String("addr", mcpserver.DefaultAddr, "`host:port` to listen on; anything but loopback needs a token")
	token := fs.String("token", "", "bearer `token` clients must send (default $MOBILEMCP_TOKEN)")
	var origins stringList
	fs.Var(&origins, "allow-origin", "also allow browser requests from this `origin` (scheme://host[:port]); repeatable. Loopback origins are always allowed")
	limit := rateFlag{mcpserver.DefaultRateLimit()}
	fs.Var(&limit, "rate-limit", "state-changing tool calls (every tool that is not read-only, such as send_sms) allowed per client (every loopback caller is one client, every holder of the token is one), as `calls/period`: a count per sec, min, hour, day or a duration (5/30s), or off")
	maxBody := fs.Int64("max-body", mcpserver.DefaultMaxBodyBytes, "largest request body (with --stdio, line), a whole number of `bytes`; larger ones get 413 (an Invalid Request error)")
	stdio := fs.Bool("stdio", false, "serve one client on stdin and stdout (MCP's stdio transport) instead of HTTP; logs go to stderr")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if len(positional) > 0 {
		return usageError(e, fs, "unexpected arguments %q", positional)
	}
	if *maxBody <= 0 {
		return usageError(e, fs, "--max-body must be positive, got %d", *maxBody)
	}
	if *stdio {
		var httpOnly []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "addr" || f.Name == "token" || f.Name == "allow-origin" {
				httpOnly = append(httpOnly, "--"+f.Name)
			}
		})
		if len(httpOnly) > 0 {
			return usageError(e, fs, "%s: --stdio serves the program that started it on stdin and stdout, with no address, token or origin", strings.Join(httpOnly, ", "))
		}
		if code, ok := phone.checkSIMConfig(e, fs); !ok {
			return code
		}
		return serveStdio(e, &phone, limit.rate, *maxBody)
	}
	if *token == "" {
		*token = e.getenv("MOBILEMCP_TOKEN")
	}

	if code, ok := phone.checkSIMConfig(e, fs); !ok {
		return code
	}
	opts := mcpserver.Options{
		Title:          builtinTool.name,
		Addr:           *addr,
		Token:          *token,
		AllowedOrigins: origins,
		MaxBodyBytes:   *maxBody,
		RateLimit:      limit.rate,
		Logger:         slog.New(slog.NewTextHandler(e.stderr, nil)),
	}
	if err := opts.Check(); err != nil {
		return usageError(e, fs, "%v", err)
	}
	// Bind before the engine opens the reply store, which creates the data
	// directory: a server that cannot start leaves nothing behind.
	l, err := mcpserver.Listen(opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp serve: %v\n", err)
		return exitFailure
	}
	defer l.Close() // Serve closes it too; this covers the failures before
	srv, eng, closeStore, err := phone.server(e, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp serve: %v\n", err)
		return exitFailure
	}
	defer closeStore()
	outbox, _ := phone.outboxPath(e) // engine() has resolved it already
	fmt.Fprintf(e.stdout, "Serving MCP at %s (tools: %s)\n", mcpwire.URL(l.Addr()), strings.Join(eng.Registry().IDs(), ", "))
	fmt.Fprintf(e.stdout, "Simulated sends go to %s. Press Ctrl-C to stop.\n", outbox)

	ctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case err := <-served:
		fmt.Fprintf(e.stderr, "mobilemcp serve: %v\n", err)
		return exitFailure
	case <-ctx.Done():
	}
	fmt.Fprintln(e.stderr, "mobilemcp serve: stopping; waiting for calls in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(e.stderr, "mobilemcp serve: %v\n", err)
		return exitFailure
	}
	if err := <-served; err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp serve: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// serveStdio serves the simulated phone to the one client on stdin and
// stdout. Nothing but JSON-RPC goes to stdout: what serve prints on a
// terminal goes to stderr here.
func serveStdio(e *env, phone *phoneFlags, rate ratelimit.Rate, maxBody int64) int {
	logger := slog.New(slog.NewTextHandler(e.stderr, nil))
	opts := mcpserver.Options{Title: builtinTool.name, MaxBodyBytes: maxBody, RateLimit: rate, Logger: logger}
	srv, eng, closeStore, err := phone.server(e, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp serve: %v\n", err)
		return exitFailure
	}
	defer closeStore()
	outbox, _ := phone.outboxPath(e)
	fmt.Fprintf(e.stderr, "mobilemcp serve: serving MCP on stdin and stdout (tools: %s); simulated sends go to %s\n", strings.Join(eng.Registry().IDs(), ", "), outbox)
	ctx, stop := signal.NotifyContext(e.ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A client that went away leaves a broken pipe: an error for the
	// session, not the end of the process before the calls in flight.
	signal.Ignore(syscall.SIGPIPE)
	if err := srv.ServeStdio(ctx, e.stdin, clientOut(e.stdout)); err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp serve: %v\n", err)
		return exitFailure
	}
	return exitOK
}

// server is the MCP server over the simulated phone's engine, with opts;
// closeStore closes the engine's reply store, once the server is done.
func (p *phoneFlags) server(e *env, opts mcpserver.Options) (srv *mcpserver.Server, eng *capability.Engine, closeStore func(), err error) {
	eng, store, err := p.engine(e, opts.Logger)
	if err != nil {
		return nil, nil, nil, err
	}
	if srv, err = mcpserver.New(eng, opts); err != nil {
		store.Close()
		return nil, nil, nil, err
	}
	return srv, eng, func() { store.Close() }, nil
}
