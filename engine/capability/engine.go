package capability

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/replystore"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// Options configure an Engine. The zero value is usable.
type Options struct {
	// Timeout bounds a capability that sets no Timeout of its own.
	// Zero means DefaultTimeout.
	Timeout time.Duration
	// MaxRequestBytes rejects larger requests with too_large before parsing.
	// Zero means DefaultMaxRequestBytes.
	MaxRequestBytes int
	// Logger receives panics with their stack traces, a reply that could
	// not be kept for replay and a handler's outcome that came after its
	// deadline. Nil means no logging.
	Logger Logger
	// Replies, when set, replays the reply to a repeated request id
	// instead of running a capability that changes something again.
	Replies *replystore.Store
}

// Logger is where an Engine reports what no caller hears of, each message
// with key-value pairs as slog takes them. *slog.Logger is one; the engine
// every tool app ships has its own, which carries no slog.
type Logger interface {
	Warn(msg string, args ...any)
	Error(msg string, args ...any)
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

// Caller is who sent a call, as its transport knows it.
type Caller struct {
	// ID names the caller: an Android package, "(adb shell)" for adb's
	// shell (the Android bridge's name, which no package can have), "mcp:" and a client's name for an MCP client, "cli" for the
	// command line. It is "" when the transport cannot name one (an Intent
	// without a callback). Replies are replayed per caller, so two callers
	// that happen to pick the same request id never see each other's.
	ID string
	// Vouched reports that the transport vouches for ID: Android names the
	// sender of a bound Message and the shell behind the shell-only provider,
	// and an MCP client proved itself with the server's token. An Intent's
	// caller is only claimed: it is the app that created the callback
	// PendingIntent, which any app it was handed to can send.
	Vouched bool
}

// Admission decides whether caller may run capability c. The engine asks
// after c's arguments have been found valid and a repeated request id has
// been answered from the reply store, and before c runs. It returns the
// refusal, an *Error (consent_required, permission_denied, rate_limited),
// or nil. Any other error refuses with permission_denied.
//
// The order is the same on every transport: decode, bind and validate the
// arguments, replay a stored reply, admit, run. So an invalid call never
// asks for consent and never uses rate budget, and a retry of a call that
// ran is answered without either.
type Admission func(ctx context.Context, caller Caller, c *Capability) error

// Call is one request for Engine.Run, with what its transport knows of it:
// who sent it and how it is admitted. NewCall makes one of a request as
// the transport received it, NewToolCall one of a capability and its
// arguments that the transport decoded itself.
type Call struct {
	raw     []byte          // the request as received, for NewCall
	decoded bool            // a NewToolCall: request and args instead of raw
	request Request         // NewToolCall's request id and capability
	args    json.RawMessage // NewToolCall's arguments as received
	caller  Caller
	admit   Admission
	// cancelled reports whether the caller gave up on the call
	// (WithCancelled); nil never.
	cancelled func() bool
}

// NewCall returns a call of request, a Mobile-MCP request as the transport
// received it, in any layout that Mobile-MCP accepts (Run decodes it), sent
// by caller and admitted by admit. A nil admit admits every call: the
// command line's and the tests'.
func NewCall(request []byte, caller Caller, admit Admission) Call {
	return Call{raw: request, caller: caller, admit: admit}
}

// NewToolCall returns a call of the capability capabilityID that the
// transport decoded itself, such as an MCP tools/call: requestID is the
// transport's own ("" for none), and args are the arguments as the
// transport received them, in JSON: an object, a JSON string holding one,
// or a list of {name, type, value}, as a Mobile-MCP request may carry them;
// nil or JSON null means none. The pipeline decodes them as it decodes a
// Mobile-MCP request's, so a name given twice is refused the same way.
// caller and admit are NewCall's.
func NewToolCall(requestID, capabilityID string, args json.RawMessage, caller Caller, admit Admission) Call {
	return Call{decoded: true, request: Request{ID: requestID, CapabilityID: capabilityID}, args: args, caller: caller, admit: admit}
}

// WithCancelled returns c with cancelled, which reports whether the caller
// has given up on the call and will not read its reply (an MCP client's
// notifications/cancelled). A call cancelled before its handler starts
// does not run. A handler that has started is not stopped, because what it
// asked of the platform, such as a send, must finish and be recorded; it
// looks with the function Cancelled before a platform call it cannot take
// back, and returns ErrCancelled instead of making it. The reply of a call
// that did nothing is marked Reply.Cancelled and is not kept, so a retry
// under its request id runs it.
func (c Call) WithCancelled(cancelled func() bool) Call {
	c.cancelled = cancelled
	return c
}

// ErrCancelled is what a handler returns when it stops, having done
// nothing, because Cancelled reports that its caller gave up on the call.
var ErrCancelled = errors.New("the caller cancelled the call")

// Cancelled reports whether the caller of the call a handler runs for has
// given up on it (Call.WithCancelled). A handler asks just before a
// platform call it cannot take back, such as a send: until then, stopping
// loses nothing.
func Cancelled(ctx context.Context) bool {
	d, _ := ctx.Value(runningKey{}).(*delivery)
	return d != nil && d.cancelled != nil && d.cancelled()
}

// runningKey is the context key under which a handler finds the call it
// runs for: its *delivery, which holds the request and the caller.
type runningKey struct{}

// CallerOf returns who sent the call a handler is running for, as its
// transport told the engine (NewCall's caller).
func CallerOf(ctx context.Context) Caller {
	if d, _ := ctx.Value(runningKey{}).(*delivery); d != nil {
		return d.caller
	}
	return Caller{}
}

// RequestID returns the id of the request a handler is running for, or "".
func RequestID(ctx context.Context) string {
	if d, _ := ctx.Value(runningKey{}).(*delivery); d != nil {
		return d.req.ID
	}
	return ""
}

// Run runs one call through the engine's one pipeline and hands its reply
// to deliver, exactly once. The steps, in this order on every transport:
//
//  1. decode the request (NewCall), refusing one over MaxRequestBytes;
//  2. bind it to its capability and check the arguments (names, types, the
//     capability's own Validate);
//  3. look the request id up in the reply store, replaying a stored reply;
//  4. admit the caller (NewCall's admit);
//  5. run the handler under the capability's deadline;
//  6. check its outputs against the descriptor;
//  7. keep the reply in the store, and deliver it.
//
// It never panics: malformed input and a panicking handler get a failure
// reply that says what was wrong.
//
// The handler runs on the calling goroutine, because some callers' threads
// are expensive to leave: a Java thread calling in through JNI is one, and
// the two wake-ups of a hand-off cost far more than the whole request
// (docs/internals/benchmarks.md). The reply is still on time. When the handler returns
// within its deadline, deliver is called on the calling goroutine before
// Run returns. When it overruns, deliver is called from another goroutine
// at the deadline with the timeout reply, which is then the request's reply
// (and the one replayed for its id); the handler's late outcome is logged
// and dropped, and Run returns once the handler does.
func (e *Engine) Run(ctx context.Context, call Call, deliver func(*Reply)) {
	e.pipeline(ctx, call, deliver, false)
}

// Do runs call through the same pipeline as Run and returns its reply, by
// the capability's deadline at the latest, even from a handler that
// ignores it: the handler runs on a goroutine of its own. It is for the
// transports whose goroutine is cheap to leave: the MCP server and the
// command line. The steps before the handler run on the calling goroutine,
// whose stack has grown already; a new goroutine's would grow (copying it)
// while it decoded.
func (e *Engine) Do(ctx context.Context, call Call) *Reply {
	replies := make(chan *Reply, 1) // buffered: a late handler's goroutine must not block
	e.pipeline(ctx, call, func(r *Reply) { replies <- r }, true)
	return <-replies
}

// pipeline is Run's steps, for Run and Do; detached runs the handler on a
// goroutine of its own (Do), and is the one thing in which they differ.
func (e *Engine) pipeline(ctx context.Context, call Call, deliver func(*Reply), detached bool) {
	d := &delivery{engine: e, caller: call.caller, deliver: deliver, cancelled: call.cancelled}
	defer func() {
		if p := recover(); p != nil {
			d.answer(failure(d.req, e.panicked("handling the request", p)))
		}
	}()
	req, err := e.decode(call)
	d.req = req
	if err != nil {
		d.answer(failure(req, err))
		return
	}
	c, args, refused := e.bind(req)
	if refused != nil {
		d.answer(refused)
		return
	}
	timeout := c.timeoutOr(e.opts.Timeout) // the one deadline: the store's wait, the handler's, the messages'
	if replied := e.lookUp(ctx, call.caller, c, args, timeout, d); replied {
		return
	}
	if call.admit != nil {
		if err := call.admit(ctx, call.caller, c); err != nil {
			d.answer(failure(req, AsError(err, CodePermissionDenied)))
			return
		}
	}
	if call.cancelled != nil && call.cancelled() {
		d.answer(cancelled(req, c))
		return
	}
	e.run(context.WithValue(ctx, runningKey{}, d), c, args, timeout, d, detached)
}

// cancelled is the reply to a call whose caller cancelled it before it did
// anything: nobody reads it, and it is not kept.
func cancelled(req Request, c *Capability) *Reply {
	r := failure(req, Errorf(CodeTimeout, "%s was cancelled by its caller before it did anything", c.ID))
	r.Cancelled = true
	return r
}

// decode is the pipeline's first step: NewCall's request decoded, or
// NewToolCall's arguments.
func (e *Engine) decode(call Call) (Request, *Error) {
	if call.decoded {
		req := call.request
		if call.args != nil {
			args, err := decodeRawArgs(call.args)
			if err != nil {
				return req, err
			}
			req.Args = args
		}
		return req, nil
	}
	if err := checkSize(len(call.raw), e.opts.MaxRequestBytes); err != nil {
		return Request{}, err
	}
	return decodeRequest(call.raw)
}

// CheckSize refuses a request of size bytes over maxBytes with too_large,
// as the engine does before it reads one: a transport that queues requests
// calls it first, so that an oversized one is never queued.
func CheckSize(size, maxBytes int) error {
	return orNil(checkSize(size, maxBytes))
}

func checkSize(size, maxBytes int) *Error {
	if size > maxBytes {
		return Errorf(CodeTooLarge, "request is %d bytes; the limit is %d", size, maxBytes)
	}
	return nil
}

// lookUp is the reply store's step. A capability that changes something,
// called with a request id, claims that id for its caller: a repeat within
// the store's window gets the original reply, and the capability does not
// run again. Read-only capabilities are not deduplicated: running them
// again is harmless and gives fresh data. lookUp reports whether it
// answered the call itself (a replay, or a refusal of the id); otherwise
// d holds the claim, if any, that the reply is kept under.
func (e *Engine) lookUp(ctx context.Context, caller Caller, c *Capability, args Args, timeout time.Duration, d *delivery) (replied bool) {
	store, req := e.opts.Replies, d.req
	if store == nil || !c.ChangesState() || req.ID == "" {
		return false
	}
	// Another process may be running the same id: wait for its reply as
	// long as it may take to come, its deadline and a little more.
	wait, cancel := context.WithTimeout(ctx, timeout+5*time.Second)
	claim, stored, storeErr := store.Begin(wait, storeKey(caller, req.ID), fingerprint(c.ID, args))
	cancel()
	switch {
	case errors.Is(storeErr, replystore.ErrConflict):
		d.answer(failure(req, Errorf(CodeInvalidRequest, "request id %q was already used for a different request in the last %s; send a new id for a new request", text.Excerpt(req.ID), store.Window())))
	case errors.Is(storeErr, replystore.ErrPending):
		d.answer(failure(req, Errorf(CodeTimeout, "request id %q is being run by another process, which has not answered yet; send the same id again later for its reply, not a new one", text.Excerpt(req.ID))))
	case errors.Is(storeErr, replystore.ErrFull):
		d.answer(failure(req, RateLimited(time.Minute, "%s did not run: %v; retry in a minute, when the oldest have expired", c.ID, storeErr)))
	case storeErr != nil:
		d.answer(failure(req, Errorf(CodeInternalError, "%s did not run: the reply store failed: %v", c.ID, storeErr)))
	case claim == nil:
		d.answer(e.replayed(req, stored, true))
	case claim.Orphaned():
		// Running it again could do it twice. This reply is kept, so every
		// retry hears the same.
		d.claim = claim
		d.answer(failure(req, Errorf(CodeTimeout, "an earlier request with id %q stopped before its outcome was recorded (its process ended); %s may have completed, so check before retrying with a new request id", text.Excerpt(req.ID), c.ID)))
	default:
		d.claim = claim
		return false
	}
	return true
}

// storeKey is the reply store's key of request id from caller. A caller
// the transport only claims (an Intent's, named by whoever created its
// callback) has a key space of its own: it never hears the reply of a
// call its claimed app made by binding, nor waits on one in flight and
// takes its refusal, or the reverse. No vouched caller's ID starts with
// NUL.
func storeKey(caller Caller, id string) string {
	key := caller.ID + "\x00" + id
	if !caller.Vouched {
		key = "\x00claimed\x00" + key
	}
	return key
}

// delivery hands a call's one reply to its transport, after keeping it in
// the reply store when the call holds a claim there. Its handler finds the
// request and the caller in it too (RequestID, CallerOf).
type delivery struct {
	engine    *Engine
	req       Request
	caller    Caller
	claim     *replystore.Claim // nil: nothing to keep
	deliver   func(*Reply)
	cancelled func() bool // Call.WithCancelled
	done      atomic.Bool
}

// answer keeps and delivers r, unless the call was answered already, and
// reports whether r was the call's reply. Only the first of a handler that
// returns and its deadline is.
func (d *delivery) answer(r *Reply) bool {
	if !d.done.CompareAndSwap(false, true) {
		return false
	}
	if d.claim != nil {
		// A refusal is not kept, so the caller may fix the request and retry
		// under the same id; anything that may have acted is.
		if _, err := d.claim.Finish(r.SpecJSON(), r.mayHaveActed()); err != nil && d.engine.opts.Logger != nil {
			// The capability ran and its reply is real; only its replay is at
			// risk. Reporting a failure would invite a duplicate retry.
			d.engine.opts.Logger.Error("could not record a reply for replay", "request_id", text.Excerpt(d.req.ID), "error", err)
		}
	}
	d.deliver(r)
	return true
}

// Validate returns the failure reply req gets before anything runs, for
// naming a capability the registry does not have or for arguments that do
// not fit it, or nil when req would run: the pipeline's first steps (see
// Run), and nothing else. Tools use it to check a request they build.
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
// Every problem goes in one invalid_arguments message: when binding found
// some, Validate still runs on the arguments that bound, provided every
// required one did (it may take those as given), and its invalid_arguments
// problem joins the message.
func (e *Engine) checkArgs(c *Capability, raw map[string]json.RawMessage) (Args, *Error) {
	args, problems := c.bind(raw)
	if c.Validate != nil && (len(problems) == 0 || c.requiredGiven(args)) {
		verr := e.validate(c, args)
		switch {
		case verr == nil:
		case len(problems) == 0:
			return nil, verr
		case verr.Code == CodeInvalidArguments:
			problems = append(problems, verr.Message)
		}
	}
	if len(problems) > 0 {
		return nil, c.invalid(problems)
	}
	return args, nil
}

// validate runs c's Validate on args, a panic included.
func (e *Engine) validate(c *Capability, args Args) (err *Error) {
	defer func() {
		if p := recover(); p != nil {
			err = e.panicked(c.ID+"'s argument check", p)
		}
	}()
	if verr := c.Validate(args); verr != nil {
		return AsError(verr, CodeInvalidArguments)
	}
	return nil
}

// replayed decodes a stored reply for req.
func (e *Engine) replayed(req Request, stored []byte, replayed bool) *Reply {
	reply, err := DecodeReply(stored)
	if err != nil {
		return failure(req, Errorf(CodeInternalError, "the stored reply to %s cannot be read: %v", text.Excerpt(req.ID), err))
	}
	reply.Shape = req.Shape
	reply.Replayed = replayed
	return reply
}

func (e *Engine) unknown(id string) *Error {
	return Errorf(CodeUnknownCapability, "no capability %q; this tool offers: %s", text.Excerpt(id), joinIDs(e.reg.IDs()))
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
	if r.Cancelled {
		return false // it stopped before it did anything
	}
	switch r.ErrorCode {
	case "", CodePlatformError, CodeTimeout, CodeInternalError:
		return true
	}
	return false // refused: bad arguments, no permission or consent, rate limited
}

// fingerprint identifies a request's content, so that an id reused for a
// different request is caught. Validated arguments are used, so "14" and 14
// count as the same.
//
// It is FNV-1a's 128-bit hash, which is not cryptographic, and need not
// be: a request id is claimed per caller (the store's key starts with
// Caller.ID), so a collision could only let a caller replay a reply to its
// own request, by crafting arguments that collide with that request's. It
// must be the same in every process that shares the store, which FNV is
// and hash/maphash, seeded per process, is not. crypto/sha256 would do too,
// but it brings the whole FIPS module into the engine every tool ships.
func fingerprint(capabilityID string, args Args) string {
	canonical, _ := json.Marshal(args) // map keys are sorted
	h := fnv.New128a()
	h.Write([]byte(capabilityID))
	h.Write([]byte{0})
	h.Write(canonical)
	return hex.EncodeToString(h.Sum(nil))
}

type outcome struct {
	result    Result
	err       *Error
	cancelled bool // the handler returned ErrCancelled
}

// run calls c's handler under its deadline, on this goroutine or, detached,
// on one of its own, and answers d with its outcome. A watchdog answers d
// with the timeout at the deadline, or with the cancellation when parent
// ends first, if the handler has not returned by then; the handler's late
// outcome is then logged and dropped.
func (e *Engine) run(parent context.Context, c *Capability, args Args, timeout time.Duration, d *delivery, detached bool) {
	if c.Handler == nil {
		d.answer(failure(d.req, Errorf(CodeInternalError, "capability %s has no handler", c.ID)))
		return
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	// A timer of its own rather than context.AfterFunc on ctx, which costs
	// several allocations a call; the parent is watched only when it can end.
	deadline := time.AfterFunc(timeout, func() { d.answer(failure(d.req, timedOut(c, timeout))) })
	stopWatchingParent := func() bool { return true }
	if parent.Done() != nil {
		stopWatchingParent = context.AfterFunc(parent, func() {
			d.answer(failure(d.req, Errorf(CodeTimeout, "%s was cancelled before it finished: %v", c.ID, context.Cause(parent))))
		})
	}
	if detached {
		go e.finish(ctx, cancel, c, args, timeout, d, deadline, stopWatchingParent)
		return
	}
	e.finish(ctx, cancel, c, args, timeout, d, deadline, stopWatchingParent)
}

// finish calls the handler and answers d with its outcome, unless a
// watchdog answered first.
func (e *Engine) finish(ctx context.Context, cancel context.CancelFunc, c *Capability, args Args, timeout time.Duration, d *delivery, deadline *time.Timer, stopWatchingParent func() bool) {
	defer cancel()
	o := e.execute(ctx, c, args, timeout)
	inTime := deadline.Stop()
	inTime = stopWatchingParent() && inTime
	reply := replyTo(d.req, o.result, o.err)
	if o.cancelled {
		reply = cancelled(d.req, c)
	}
	if !inTime || !d.answer(reply) {
		e.dropLate(c, timeout, o)
	}
}

// execute calls c's handler and checks what it returns: a panic, an error
// and an output that contradicts the descriptor all become failures.
func (e *Engine) execute(ctx context.Context, c *Capability, args Args, timeout time.Duration) (o outcome) {
	defer func() {
		if p := recover(); p != nil {
			o = outcome{err: e.panicked(c.ID, p)}
		}
	}()
	result, err := c.Handler(ctx, args)
	if errors.Is(err, ErrCancelled) {
		return outcome{cancelled: true}
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return outcome{err: timedOut(c, timeout)}
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
		e.opts.Logger.Error("recovered panic", "where", where, "panic", p, "stack", stack())
	}
	return Errorf(CodeInternalError, "%s failed with an internal error: %v", where, p)
}

// stack is the calling goroutine's stack trace, its first 16 KiB. (It is
// runtime.Stack: runtime/debug.Stack, which does the same, would bring
// the rest of runtime/debug into the engine every tool app ships.)
func stack() string {
	buf := make([]byte, 16<<10)
	return string(buf[:runtime.Stack(buf, false)])
}

func joinIDs(ids []string) string {
	if len(ids) == 0 {
		return "(nothing)"
	}
	return strings.Join(ids, ", ")
}
