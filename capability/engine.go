package capability

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"
)

// Options configure an Engine. The zero value is usable.
type Options struct {
	// Timeout bounds a capability that sets no Timeout of its own.
	// Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxRequestBytes rejects larger requests with too_large before parsing.
	// Zero means DefaultMaxRequestBytes.
	MaxRequestBytes int
	// Logger receives panics with their stack traces. Nil means no logging.
	Logger *slog.Logger
}

// Defaults for Options.
const (
	DefaultTimeout = 30 * time.Second
	// DefaultMaxRequestBytes keeps a request far below Android's ~1 MB
	// Binder transaction limit, which also carries the Intent around it.
	DefaultMaxRequestBytes = 64 << 10
)

// Engine validates and dispatches requests against a Registry. It is safe for
// concurrent use.
type Engine struct {
	reg  *Registry
	opts Options
}

// NewEngine returns an engine over reg.
func NewEngine(reg *Registry, opts Options) *Engine {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxRequestBytes <= 0 {
		opts.MaxRequestBytes = DefaultMaxRequestBytes
	}
	return &Engine{reg: reg, opts: opts}
}

// Registry returns the registry the engine dispatches to.
func (e *Engine) Registry() *Registry { return e.reg }

type requestIDKey struct{}

// RequestID returns the id of the request being handled, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// WithRequestID returns a context that carries a request id to handlers.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// Handle decodes one raw request in any accepted layout, runs it and returns
// its reply. It never panics and never returns nil: malformed input gets a
// failure reply that says what was wrong.
func (e *Engine) Handle(ctx context.Context, raw []byte) (reply *Reply) {
	var req Request
	defer func() {
		if p := recover(); p != nil {
			reply = failure(req, e.panicked("decoding the request", p))
		}
	}()
	if len(raw) > e.opts.MaxRequestBytes {
		return failure(req, Errorf(CodeTooLarge, "request is %d bytes; the limit is %d", len(raw), e.opts.MaxRequestBytes))
	}
	req, err := DecodeRequest(raw)
	if err != nil {
		return failure(req, err)
	}
	result, err := e.Call(WithRequestID(ctx, req.ID), req.CapabilityID, req.Args)
	if err != nil {
		return failure(req, err)
	}
	return &Reply{
		ID:           req.ID,
		CapabilityID: req.CapabilityID,
		Status:       StatusSuccess,
		Message:      result.Message,
		Output:       result.Output,
		Shape:        req.Shape,
	}
}

// Call runs capability id with raw JSON arguments, for transports that decode
// their own envelope (MCP's tools/call). It validates the arguments, applies
// the timeout and recovers a panicking handler.
func (e *Engine) Call(ctx context.Context, id string, raw map[string]json.RawMessage) (Result, *Error) {
	c, ok := e.reg.Lookup(id)
	if !ok {
		return Result{}, Errorf(CodeUnknownCapability, "no capability %q; this tool offers: %s", excerpt(id), joinIDs(e.reg.IDs()))
	}
	args, err := c.Bind(raw)
	if err != nil {
		return Result{}, err
	}
	return e.run(ctx, c, args)
}

type outcome struct {
	result Result
	err    error
}

// run calls the handler on its own goroutine so that a handler which ignores
// its context still cannot hold the reply past the deadline. Such a handler
// keeps running in the background; its late outcome is dropped.
func (e *Engine) run(ctx context.Context, c *Capability, args Args) (Result, *Error) {
	if c.Handler == nil {
		return Result{}, Errorf(CodeInternalError, "capability %s has no handler", c.ID)
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = e.opts.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	done := make(chan outcome, 1) // buffered: a late handler must not block forever
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{err: e.panicked(c.ID, p)}
			}
		}()
		result, err := c.Handler(ctx, args)
		done <- outcome{result, err}
	}()

	select {
	case o := <-done:
		if o.err != nil {
			if errors.Is(o.err, context.DeadlineExceeded) {
				return Result{}, timedOut(c, timeout)
			}
			return Result{}, AsError(o.err, CodePlatformError)
		}
		return o.result, nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return Result{}, timedOut(c, timeout)
		}
		return Result{}, Errorf(CodeTimeout, "%s was cancelled before it finished: %v", c.ID, context.Cause(ctx))
	}
}

func timedOut(c *Capability, timeout time.Duration) *Error {
	msg := fmt.Sprintf("%s did not finish within %s", c.ID, timeout)
	if !c.Annotations.ReadOnly {
		// Say so plainly: the effect may still happen, and a blind retry
		// with a new request id could do it twice.
		msg += "; it may still complete, so check before retrying with a new request id"
	}
	return &Error{Code: CodeTimeout, Message: msg}
}

func (e *Engine) panicked(where string, p any) *Error {
	if e.opts.Logger != nil {
		e.opts.Logger.Error("recovered panic", "where", where, "panic", p, "stack", string(debug.Stack()))
	}
	return Errorf(CodeInternalError, "%s failed with an internal error: %v", where, p)
}

func joinIDs(ids []string) string {
	if len(ids) == 0 {
		return "(nothing)"
	}
	return strings.Join(ids, ", ")
}
