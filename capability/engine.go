package capability

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"time"

	"github.com/mobilemcp/mobilemcp/capability/idempotency"
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
	// Idempotency, when set, replays the reply to a repeated request id
	// instead of running a capability that changes something again.
	Idempotency *idempotency.Store
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

type (
	requestIDKey struct{}
	callerKey    struct{}
	admissionKey struct{}
)

// Admission decides whether the caller may run capability c, after c's
// arguments have been found valid and before it runs. It returns the
// refusal, an *Error (consent_required, permission_denied, rate_limited),
// or nil. Any other error refuses with permission_denied.
type Admission func(ctx context.Context, c *Capability) error

// WithAdmission returns a context whose requests must pass admit. A
// transport that knows its calling app sets it per request: the Intent
// transport applies the user's consents, while the MCP server has its own
// token and limits.
func WithAdmission(ctx context.Context, admit Admission) context.Context {
	return context.WithValue(ctx, admissionKey{}, admit)
}

// Caller returns the identity of the app or client that sent the request
// being handled, or "" when the transport does not know it.
func Caller(ctx context.Context) string {
	c, _ := ctx.Value(callerKey{}).(string)
	return c
}

// WithCaller returns a context that names the caller. Replies are replayed
// per caller, so two apps that happen to pick the same request id do not
// see each other's replies.
func WithCaller(ctx context.Context, caller string) context.Context {
	return context.WithValue(ctx, callerKey{}, caller)
}

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
	req, err := decodeRequest(raw)
	if err != nil {
		return failure(req, err)
	}
	return e.Invoke(ctx, req)
}

// Invoke runs a decoded request and returns its reply, for transports that
// decode their own envelope but still carry a request id. With an
// idempotency store, a request that repeats the id of one the same caller
// made within the window gets the original reply, and the capability does
// not run again. Read-only capabilities are not deduplicated: running them
// again is harmless and gives fresh data.
func (e *Engine) Invoke(ctx context.Context, req Request) *Reply {
	c, ok := e.reg.Lookup(req.CapabilityID)
	if !ok {
		err := e.unknown(req.CapabilityID)
		if len(req.CapabilityID) > MaxIDLength {
			req.CapabilityID = "" // too long to echo; the message has an excerpt
		}
		return failure(req, err)
	}
	args, err := c.bind(req.Args)
	if err != nil {
		return failure(req, err)
	}
	ctx = WithRequestID(ctx, req.ID)
	store := e.opts.Idempotency
	if store == nil || c.Annotations.ReadOnly || req.ID == "" {
		return e.reply(ctx, req, c, args)
	}

	key := Caller(ctx) + "\x00" + req.ID
	stored, replayed, storeErr := store.Do(key, fingerprint(c.ID, args), func() ([]byte, bool) {
		r := e.reply(ctx, req, c, args)
		return r.SpecJSON(), r.mayHaveActed()
	})
	switch {
	case errors.Is(storeErr, idempotency.ErrConflict):
		return failure(req, Errorf(CodeInvalidRequest, "request id %q was already used for a different request in the last %s; send a new id for a new request", excerpt(req.ID), store.Window()))
	case storeErr != nil && e.opts.Logger != nil:
		// The capability ran and its reply is real; only its replay is at
		// risk. Reporting a failure would invite a duplicate retry.
		e.opts.Logger.Error("could not record a reply for replay", "request_id", req.ID, "error", storeErr)
	}
	reply, decodeErr := DecodeReply(stored)
	if decodeErr != nil {
		return failure(req, Errorf(CodeInternalError, "the stored reply to %s cannot be read: %v", excerpt(req.ID), decodeErr))
	}
	reply.Shape = req.Shape
	reply.Replayed = replayed
	return reply
}

// Call runs capability id with raw JSON arguments, for transports that have
// no request id (MCP's tools/call without one). It validates the arguments,
// applies the timeout and recovers a panicking handler.
// A failure is an *Error.
func (e *Engine) Call(ctx context.Context, id string, raw map[string]json.RawMessage) (Result, error) {
	c, ok := e.reg.Lookup(id)
	if !ok {
		return Result{}, e.unknown(id)
	}
	args, err := c.bind(raw)
	if err != nil {
		return Result{}, err
	}
	result, err := e.run(ctx, c, args)
	return result, orNil(err)
}

func (e *Engine) unknown(id string) *Error {
	return Errorf(CodeUnknownCapability, "no capability %q; this tool offers: %s", excerpt(id), joinIDs(e.reg.IDs()))
}

// reply runs c and builds the reply to req.
func (e *Engine) reply(ctx context.Context, req Request, c *Capability, args Args) *Reply {
	result, err := e.run(ctx, c, args)
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

// mayHaveActed reports whether the capability may have changed something.
// Such replies are kept for replay, failures too: a timeout or a failed
// second part may still have sent something. A refusal (bad arguments, no
// permission) guarantees nothing happened, so the caller may fix the request
// and retry under the same id.
func (r *Reply) mayHaveActed() bool {
	switch r.ErrorCode {
	case "", CodePlatformError, CodeTimeout, CodeInternalError:
		return true
	}
	return false // refused: bad arguments, no permission or consent, rate limited
}

// fingerprint identifies a request's content, so that an id reused for a
// different request is caught. Validated arguments are used, so "14" and 14
// count as the same.
func fingerprint(capabilityID string, args Args) string {
	canonical, _ := json.Marshal(args) // map keys are sorted
	sum := sha256.Sum256(append([]byte(capabilityID+"\x00"), canonical...))
	return hex.EncodeToString(sum[:])
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
	if admit, _ := ctx.Value(admissionKey{}).(Admission); admit != nil {
		if err := admit(ctx, c); err != nil {
			return Result{}, AsError(err, CodePermissionDenied)
		}
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
