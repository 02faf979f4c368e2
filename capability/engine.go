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
	"sync/atomic"
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
// arguments have been found valid and a repeated request id has been
// answered from the reply store, and before c runs. It returns the
// refusal, an *Error (consent_required, permission_denied, rate_limited),
// or nil. Any other error refuses with permission_denied.
//
// The order is the same on every transport: decode, bind and validate the
// arguments, replay a stored reply, admit, run. So an invalid call never
// asks for consent and never uses rate budget, and a retry of a call that
// ran is answered without either.
type Admission func(ctx context.Context, c *Capability) error

// WithAdmission returns a context whose requests must pass admit. A
// transport sets it per request: the Intent transport applies the user's
// consents and a rate limit per app, the MCP server its rate limit per
// client.
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
// failure reply that says what was wrong. The handler runs on a goroutine of
// its own, so that one which ignores its deadline still cannot hold the
// reply past it.
func (e *Engine) Handle(ctx context.Context, raw []byte) *Reply {
	var reply *Reply
	e.handle(ctx, raw, false, func(r *Reply) { reply = r })
	return reply
}

// HandleTo is Handle for a transport whose calling thread is expensive to
// leave: it runs the handler on the calling goroutine and hands the reply
// to deliver, exactly once. A Java thread calling in through JNI is such a
// thread: the goroutine Handle starts runs on another OS thread, and the
// two wake-ups cost far more than the whole request (docs/android.md).
//
// The reply is still on time. When the handler returns within its
// deadline, deliver is called on the calling goroutine before HandleTo
// returns. When it overruns, deliver is called from another goroutine at
// the deadline with the timeout reply, which is then the request's reply
// (and the one replayed for its id); the handler's late outcome is logged
// and dropped, and HandleTo returns once the handler does.
func (e *Engine) HandleTo(ctx context.Context, raw []byte, deliver func(*Reply)) {
	e.handle(ctx, raw, true, deliver)
}

func (e *Engine) handle(ctx context.Context, raw []byte, inline bool, deliver func(*Reply)) {
	var req Request
	var delivered atomic.Bool
	once := func(r *Reply) {
		if delivered.CompareAndSwap(false, true) {
			deliver(r)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			once(failure(req, e.panicked("handling the request", p)))
		}
	}()
	if len(raw) > e.opts.MaxRequestBytes {
		once(failure(req, Errorf(CodeTooLarge, "request is %d bytes; the limit is %d", len(raw), e.opts.MaxRequestBytes)))
		return
	}
	req, err := decodeRequest(raw)
	if err != nil {
		once(failure(req, err))
		return
	}
	e.invoke(ctx, req, inline, once)
}

// Invoke runs a decoded request and returns its reply, for transports that
// decode their own envelope but still carry a request id. With an
// idempotency store, a request that repeats the id of one the same caller
// made within the window gets the original reply, and the capability does
// not run again. Read-only capabilities are not deduplicated: running them
// again is harmless and gives fresh data.
func (e *Engine) Invoke(ctx context.Context, req Request) *Reply {
	var reply *Reply
	e.invoke(ctx, req, false, func(r *Reply) { reply = r })
	return reply
}

// invoke runs req and delivers its reply once: on this goroutine, except
// for an inline handler that overruns (see HandleTo).
func (e *Engine) invoke(ctx context.Context, req Request, inline bool, deliver func(*Reply)) {
	c, args, refused := e.bind(req)
	if refused != nil {
		deliver(refused)
		return
	}
	ctx = WithRequestID(ctx, req.ID)
	store := e.opts.Idempotency
	if store == nil || !c.ChangesState() || req.ID == "" {
		if refused := admit(ctx, c); refused != nil {
			deliver(failure(req, refused))
			return
		}
		e.runTo(ctx, c, args, inline, func(r Result, err *Error) bool {
			deliver(replyTo(req, r, err))
			return true
		})
		return
	}

	// Another process may be running the same id: wait for its reply as
	// long as it may take to come, its deadline and a little more.
	wait, cancel := context.WithTimeout(ctx, c.timeoutOr(e.opts.Timeout)+5*time.Second)
	claim, stored, storeErr := store.Begin(wait, Caller(ctx)+"\x00"+req.ID, fingerprint(c.ID, args))
	cancel()
	switch {
	case errors.Is(storeErr, idempotency.ErrConflict):
		deliver(failure(req, Errorf(CodeInvalidRequest, "request id %q was already used for a different request in the last %s; send a new id for a new request", Excerpt(req.ID), store.Window())))
		return
	case errors.Is(storeErr, idempotency.ErrPending):
		deliver(failure(req, Errorf(CodeTimeout, "request id %q is being run by another process, which has not answered yet; send the same id again later for its reply, not a new one", Excerpt(req.ID))))
		return
	case errors.Is(storeErr, idempotency.ErrFull):
		deliver(failure(req, Errorf(CodeRateLimited, "%s did not run: %v; retry in a minute, when the oldest have expired", c.ID, storeErr)))
		return
	case storeErr != nil:
		deliver(failure(req, Errorf(CodeInternalError, "%s did not run: the reply store failed: %v", c.ID, storeErr)))
		return
	case claim == nil:
		deliver(e.replayed(req, stored, true))
		return
	case claim.Orphaned():
		// Running it again could do it twice. This reply is kept, so every
		// retry hears the same.
		reply := failure(req, Errorf(CodeTimeout, "an earlier request with id %q stopped before its outcome was recorded (its process ended); %s may have completed, so check before retrying with a new request id", Excerpt(req.ID), c.ID))
		if _, err := claim.Finish(reply.SpecJSON(), true); err != nil && e.opts.Logger != nil {
			e.opts.Logger.Error("could not record a reply for replay", "request_id", Excerpt(req.ID), "error", err)
		}
		deliver(reply)
		return
	}
	if refused := admit(ctx, c); refused != nil {
		// A refusal is not kept, so the caller may retry under this id.
		reply := failure(req, refused)
		claim.Finish(reply.SpecJSON(), false)
		deliver(reply)
		return
	}
	e.runTo(ctx, c, args, inline, func(r Result, err *Error) bool {
		reply := replyTo(req, r, err)
		first, saveErr := claim.Finish(reply.SpecJSON(), reply.mayHaveActed())
		if !first {
			return false
		}
		if saveErr != nil && e.opts.Logger != nil {
			// The capability ran and its reply is real; only its replay is at
			// risk. Reporting a failure would invite a duplicate retry.
			e.opts.Logger.Error("could not record a reply for replay", "request_id", req.ID, "error", saveErr)
		}
		deliver(reply)
		return true
	})
}

// Validate returns the failure reply req gets before anything runs, for
// naming a capability the registry does not have or for arguments that do
// not fit it, or nil when req would run. It runs nothing; tools use it to
// check a request they build.
func (e *Engine) Validate(req Request) *Reply {
	_, _, refused := e.bind(req)
	return refused
}

// bind finds req's capability and validates its arguments, or returns the
// failure reply.
func (e *Engine) bind(req Request) (*Capability, Args, *Reply) {
	c, ok := e.reg.Lookup(req.CapabilityID)
	if !ok {
		err := e.unknown(req.CapabilityID)
		if len(req.CapabilityID) > MaxIDLength {
			req.CapabilityID = "" // too long to echo; the message has an excerpt
		}
		return nil, nil, failure(req, err)
	}
	args, err := e.checkArgs(c, req.Args)
	if err != nil {
		return nil, nil, failure(req, err)
	}
	return c, args, nil
}

// checkArgs binds raw to c's parameters and runs c's own Validate: every
// check of the arguments, done before anything else looks at the call.
func (e *Engine) checkArgs(c *Capability, raw map[string]json.RawMessage) (args Args, err *Error) {
	if args, err = c.bind(raw); err != nil || c.Validate == nil {
		return args, err
	}
	defer func() {
		if p := recover(); p != nil {
			args, err = nil, e.panicked(c.ID+"'s argument check", p)
		}
	}()
	if verr := c.Validate(args); verr != nil {
		return nil, AsError(verr, CodeInvalidArguments)
	}
	return args, nil
}

// admit applies the transport's Admission in ctx, if it set one.
func admit(ctx context.Context, c *Capability) *Error {
	if admit, _ := ctx.Value(admissionKey{}).(Admission); admit != nil {
		if err := admit(ctx, c); err != nil {
			return AsError(err, CodePermissionDenied)
		}
	}
	return nil
}

// replayed decodes a stored reply for req.
func (e *Engine) replayed(req Request, stored []byte, replayed bool) *Reply {
	reply, err := DecodeReply(stored)
	if err != nil {
		return failure(req, Errorf(CodeInternalError, "the stored reply to %s cannot be read: %v", Excerpt(req.ID), err))
	}
	reply.Shape = req.Shape
	reply.Replayed = replayed
	return reply
}

// Call runs capability id with raw JSON arguments, for transports that have
// no request id (MCP's tools/call without one). It validates the arguments,
// admits the caller, applies the timeout and recovers a panicking handler.
// A failure is an *Error.
func (e *Engine) Call(ctx context.Context, id string, raw map[string]json.RawMessage) (Result, error) {
	c, ok := e.reg.Lookup(id)
	if !ok {
		return Result{}, e.unknown(id)
	}
	args, err := e.checkArgs(c, raw)
	if err != nil {
		return Result{}, err
	}
	if refused := admit(ctx, c); refused != nil {
		return Result{}, refused
	}
	var result Result
	var cerr *Error
	e.runTo(ctx, c, args, false, func(r Result, err *Error) bool {
		result, cerr = r, err
		return true
	})
	return result, orNil(cerr)
}

func (e *Engine) unknown(id string) *Error {
	return Errorf(CodeUnknownCapability, "no capability %q; this tool offers: %s", Excerpt(id), joinIDs(e.reg.IDs()))
}

// replyTo builds the reply to req from a capability's outcome.
func replyTo(req Request, result Result, err *Error) *Reply {
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
	err    *Error
}

// runTo runs c's handler under c's deadline and hands the outcome to
// answer. answer reports whether the outcome was still
// wanted: only the first of a deadline and a late inline handler is.
//
// Without inline, the handler runs on a goroutine of its own, and answer
// is called on this goroutine by the deadline at the latest; a handler
// that ignores its context keeps running in the background and its late
// outcome is dropped. With inline, the handler runs on this goroutine,
// and a watchdog answers with the timeout at the deadline (see HandleTo).
func (e *Engine) runTo(ctx context.Context, c *Capability, args Args, inline bool, answer func(Result, *Error) bool) {
	if c.Handler == nil {
		answer(Result{}, Errorf(CodeInternalError, "capability %s has no handler", c.ID))
		return
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = e.opts.Timeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if inline {
		stopWatchdog := context.AfterFunc(ctx, func() { answer(Result{}, e.interrupted(ctx, c, timeout)) })
		o := e.execute(ctx, c, args)
		if !stopWatchdog() || !answer(o.result, o.err) {
			e.dropLate(c, timeout, o)
		}
		return
	}

	done := make(chan outcome, 1) // buffered: a late handler must not block forever
	go func() { done <- e.execute(ctx, c, args) }()
	select {
	case o := <-done:
		answer(o.result, o.err)
	case <-ctx.Done():
		answer(Result{}, e.interrupted(ctx, c, timeout))
	}
}

// execute calls c's handler and checks what it returns: a panic, an error
// and an output that contradicts the descriptor all become failures.
func (e *Engine) execute(ctx context.Context, c *Capability, args Args) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			o = outcome{err: e.panicked(c.ID, p)}
		}
	}()
	result, err := c.Handler(ctx, args)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return outcome{err: timedOut(c, c.timeoutOr(e.opts.Timeout))}
		}
		return outcome{err: AsError(err, CodePlatformError)}
	}
	out, cerr := c.CheckOutput(result.Output)
	if cerr != nil {
		return outcome{err: cerr}
	}
	result.Output = out
	return outcome{result: result}
}

// interrupted is the failure of a call whose context ended first.
func (e *Engine) interrupted(ctx context.Context, c *Capability, timeout time.Duration) *Error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return timedOut(c, timeout)
	}
	return Errorf(CodeTimeout, "%s was cancelled before it finished: %v", c.ID, context.Cause(ctx))
}

// dropLate logs the outcome of an inline handler that returned after its
// caller was answered.
func (e *Engine) dropLate(c *Capability, timeout time.Duration, o outcome) {
	if e.opts.Logger == nil {
		return
	}
	outcome := "success"
	if o.err != nil {
		outcome = string(o.err.Code)
	}
	e.opts.Logger.Warn("a handler returned after its deadline; its caller was answered with timeout, and this outcome is dropped",
		"capability", c.ID, "deadline", timeout, "outcome", outcome)
}

// timeoutOr is c's deadline, or dflt when c sets none.
func (c *Capability) timeoutOr(dflt time.Duration) time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return dflt
}

func timedOut(c *Capability, timeout time.Duration) *Error {
	msg := fmt.Sprintf("%s did not finish within %s", c.ID, timeout)
	if c.ChangesState() {
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
