// Package mcpserver serves a capability registry as MCP tools over
// Streamable HTTP, at POST /mcp, and over stdio, on the official Go MCP SDK:
//
//	srv, err := mcpserver.New(engine, mcpserver.Options{Token: token})
//	// ...
//	l, err := srv.Listen() // 127.0.0.1:9531 unless Options.Addr says otherwise
//	// ...
//	err = srv.Serve(l)
//
// Every registered capability becomes one tool: its id is the tool name,
// its parameters are the input and output schemas, and its annotations are
// the tool's hints. Calls go to the same [capability.Engine] every other
// transport uses, so validation, timeouts and error codes are the engine's.
//
// The server is stateless and answers with plain JSON, never SSE, so curl
// and any Streamable HTTP client work, with protocol 2025-11-25 (initialize
// first) and 2026-07-28 (no initialize). Around the SDK it adds what a
// server that can send SMS needs: a bearer token (required off loopback),
// an Origin allow-list, a body size limit, a per-client rate limit on
// state-changing tools and a one-line log of each call.
package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/net/netutil"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/mcptool"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/internal/buildinfo"
	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
)

// Defaults for Options.
const (
	// DefaultAddr is loopback only: nothing off the machine can reach it.
	// The port is the Android SMS MCP server's, as its transcripts show.
	DefaultAddr = "127.0.0.1:9531"
	// DefaultMaxBodyBytes is far above any real tools/call (send_sms
	// arguments are a few hundred bytes) and far below what could hurt.
	DefaultMaxBodyBytes = mcpwire.DefaultMaxLineBytes
	// Path is the one endpoint, as the transcripts use it.
	Path = mcpwire.Path
	// DefaultReadTimeout bounds reading a request's headers, and then its
	// body: a client that sends either a byte at a time is cut off, so
	// nobody holds a connection for longer without sending a request.
	DefaultReadTimeout = 10 * time.Second
	// DefaultMaxConns leaves room under a small open-files limit (ulimit
	// -n 128) for the reply store, the outbox and the rest: a flood of
	// connections waits in the kernel's queue instead of exhausting the
	// process's descriptors. One agent needs a handful.
	DefaultMaxConns = 100
)

// DefaultRateLimit returns the default limit on state-changing tool calls:
// ten a minute per client, enough for an assistant, too few for a spam run.
// A function, not a variable, so that no importer can change every
// server's default: a server takes another limit from Options.RateLimit.
func DefaultRateLimit() ratelimit.Rate {
	return ratelimit.Rate{Calls: 10, Per: time.Minute}
}

// Name is the serverInfo name the server introduces itself with; its title
// is the served tool's (Options.Title).
const Name = "mobilemcp"

// Version returns the version in serverInfo: the build's, the one
// 'mobilemcp version' prints, so that what an agent shows of the server
// names the build that answers. The release build stamps it; a build from a
// checkout reports "devel".
func Version() string { return buildinfo.Version() }

// Options configure a Server. The zero value serves on DefaultAddr with the
// default limits and no token.
type Options struct {
	// Title is the serverInfo title: the served tool's name, as its
	// manifest's mobile.mcp.tool.name gives it. Empty means Name.
	Title string
	// Addr is the host:port Listen binds. Empty means DefaultAddr. Any
	// address that is not loopback needs a Token.
	Addr string
	// Token, when set, is required as "Authorization: Bearer <Token>" on
	// every request, on any address.
	Token string
	// AllowedOrigins are browser origins (scheme://host[:port]) allowed in
	// addition to the loopback ones: http(s)://localhost, 127.0.0.1 and
	// [::1] on any port. A request with any other Origin gets 403.
	AllowedOrigins []string
	// MaxBodyBytes caps a request body; a larger one gets 413. Zero means
	// DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// ReadTimeout bounds reading a request's headers, and then again its
	// body; a client too slow for either gets 408 and its connection is
	// closed. Zero means DefaultReadTimeout.
	ReadTimeout time.Duration
	// MaxConns caps the connections served at once; further ones wait in
	// the kernel's queue until one closes. Zero means DefaultMaxConns.
	MaxConns int
	// RateLimit caps calls of state-changing tools per client: every
	// capability that is not read-only (capability.Capability.ChangesState),
	// whatever its other hints say. The zero Rate means DefaultRateLimit();
	// ratelimit.Off() turns the limit off.
	RateLimit ratelimit.Rate
	// Logger receives one line per tools/call (never argument values) and
	// recovered panics. Nil means no logging.
	Logger *slog.Logger
}

// withDefaults returns o with its zero fields set to their defaults.
func (o Options) withDefaults() Options {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.RateLimit == (ratelimit.Rate{}) {
		o.RateLimit = DefaultRateLimit()
	}
	if o.ReadTimeout <= 0 {
		o.ReadTimeout = DefaultReadTimeout
	}
	if o.MaxConns <= 0 {
		o.MaxConns = DefaultMaxConns
	}
	return o
}

// Check reports the first invalid option, as New and Listen would, so that
// a program can refuse bad options before it binds or builds anything.
func (o Options) Check() error {
	o = o.withDefaults()
	if _, err := o.check(); err != nil {
		return err
	}
	_, err := checkAddr(o.Addr)
	return err
}

// check validates o, which has its defaults, and returns its origin policy.
func (o Options) check() (originPolicy, error) {
	if err := o.RateLimit.Check(); err != nil {
		return originPolicy{}, err
	}
	return newOriginPolicy(o.AllowedOrigins)
}

// Server is an MCP server over one engine. Build it with New.
type Server struct {
	opts    Options
	engine  *capability.Engine
	mcp     *mcp.Server
	limiter *ratelimit.Limiter
	handler http.Handler
	http    *http.Server

	remoteMu sync.Mutex          // guards remotes
	remotes  map[string][]string // the tool names of each Remote, by package
}

// New builds the MCP server for every capability in the engine's registry.
// It fails when an option is invalid or a capability cannot become a tool.
func New(engine *capability.Engine, opts Options) (*Server, error) {
	if engine == nil {
		return nil, errors.New("mcpserver: New needs an engine")
	}
	opts = opts.withDefaults()
	origins, err := opts.check()
	if err != nil {
		return nil, err
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		opts:    opts,
		engine:  engine,
		limiter: ratelimit.New(opts.RateLimit, nil),
		remotes: map[string][]string{},
	}
	// The title comes from the app's manifest, and reaches the client's model.
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: Name, Title: cmp.Or(mcptool.VisibleTitle(opts.Title), Name), Version: Version()}, &mcp.ServerOptions{
		// Set explicitly: a nil Capabilities would also advertise logging,
		// which this server does not offer.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	s.mcp.AddReceivingMiddleware(s.logCalls)
	for _, c := range engine.Registry().All() {
		tool, err := newTool(c)
		if err != nil {
			return nil, err
		}
		s.mcp.AddTool(tool, s.toolHandler(s.engine, c.ID))
	}
	s.handler = guardPages(origins, s.wrap(mcp.NewStreamableHTTPHandler(
		// One shared server: the SDK asks for it twice per request.
		func(*http.Request) *mcp.Server { return s.mcp },
		&mcp.StreamableHTTPOptions{
			Stateless:           true,
			JSONResponse:        true,
			MaxRequestBodyBytes: opts.MaxBodyBytes,
			// guardPages checks the Host, before the token, for every path.
			DisableLocalhostProtection: true,
			// In 2026-07-28 a client cancels a call by closing its request.
			PropagateRequestCancellation: true,
		})))
	mux := http.NewServeMux()
	mux.Handle(Path, s.handler)
	mux.Handle(mcpwire.ProofPath, guardPages(origins, http.HandlerFunc(s.serveProof)))
	s.http = &http.Server{
		Handler: mux,
		// The body has a deadline of its own, set when the handler starts
		// reading it (wrap); ReadTimeout would also cut the reply's wait.
		ReadHeaderTimeout: opts.ReadTimeout,
		WriteTimeout:      writeTimeout(engine.Registry()),
		// Short, because an idle connection holds one of MaxConns.
		IdleTimeout:    30 * time.Second,
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
	}
	return s, nil
}

// writeTimeout outlasts the slowest capability (send_sms waits up to a
// minute for the radio) and any remote call (Share), so a reply is
// never cut off while it is written.
func writeTimeout(reg *capability.Registry) time.Duration {
	longest := MaxSharedTimeout
	for _, c := range reg.All() {
		longest = max(longest, c.Timeout)
	}
	return longest + 10*time.Second
}

// Handler returns the /mcp handler with every protection, for mounting in
// another server. It still refuses requests that arrive on a non-loopback
// address when no token is set, since it cannot see how it was bound.
func (s *Server) Handler() http.Handler { return s.handler }

// Listen binds the server's Options.Addr; see the function Listen.
func (s *Server) Listen() (net.Listener, error) { return Listen(s.opts) }

// Listen binds o.Addr (DefaultAddr when empty) for a Server with options o.
// It refuses a non-loopback address without a token, naming the address,
// before binding anything. A program that must leave nothing behind when
// it cannot serve binds with Listen before it builds its engine and the
// Server, then passes the listener to Serve.
func Listen(o Options) (net.Listener, error) {
	o = o.withDefaults()
	if err := checkBind(o.Addr, o.Token); err != nil {
		return nil, err
	}
	// localhost is the loopback of both families, like the default; Go
	// would bind only the first address it resolves to.
	if host, port, _ := net.SplitHostPort(o.Addr); strings.EqualFold(host, "localhost") {
		o.Addr = net.JoinHostPort("127.0.0.1", port)
	}
	l, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, listenError(o.Addr, err)
	}
	if host, _, _ := net.SplitHostPort(o.Addr); host != "127.0.0.1" {
		return l, nil
	}
	// The loopback is both families': adb's forward, and clients that
	// resolve localhost, may try [::1] first, where another program could
	// otherwise listen on the same port and take the connections (and a
	// token) meant for this server.
	v6 := net.JoinHostPort("::1", strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
	l6, err := net.Listen("tcp", v6)
	switch {
	case errors.Is(err, syscall.EADDRNOTAVAIL) || errors.Is(err, syscall.EAFNOSUPPORT):
		return l, nil // no IPv6 loopback on this machine: nothing to take
	case err != nil:
		l.Close()
		return nil, listenError(v6, err)
	}
	return newDualListener(l, l6), nil
}

// listenError says why addr cannot be bound; a port in use is named as
// another program's, which on a phone is another app.
func listenError(addr string, err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("mcpserver: another program (on a phone, another app) holds %s, so the server did not start; stop it, or use another port: %w", addr, err)
	}
	return fmt.Errorf("mcpserver: %w", err)
}

// Serve answers requests on l, at most Options.MaxConns connections at a
// time, until Shutdown, then returns nil.
func (s *Server) Serve(l net.Listener) error {
	if err := s.http.Serve(netutil.LimitListener(l, s.opts.MaxConns)); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Shutdown stops accepting connections and waits for calls in flight to
// finish, or for ctx to end.
func (s *Server) Shutdown(ctx context.Context) error { return s.http.Shutdown(ctx) }
