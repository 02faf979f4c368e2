// Package intentbridge is the package gomobile binds for every tool app: the
// engine inside the Tool SDK. It answers each Mobile-MCP request exactly
// once, through the ReplyTarget its transport gives. The Tool SDK's Java
// drives it like this:
//
//	Bridge bridge = Intentbridge.openBridge(context.getFilesDir().getPath());
//	Tool tool = Intentbridge.newTool("mcp_capabilities.xml", descriptorXml);
//	tool.setHandler("create_note", handler); // a Handler per capability
//	bridge.start(tool);
//	bridge.handle(requestJson, callerPackage, replyTarget);
//
// It holds all a tool needs and nothing else (no HTTP server, MCP SDK or
// SMS code: make size holds it to its budget; the SMS app binds smsapp
// beside it for those). Its surface is small on purpose and uses only
// types gomobile can carry, with structured values as JSON strings:
//
//   - OpenBridge opens the process's one Bridge on the app's data directory.
//   - Bridge.Start serves a Tool: the app's own descriptor (the resource its
//     service's mobile.mcp.tool.capabilities meta-data names, so that what
//     agents read is what the engine enforces) and a Handler per capability,
//     written in Java or Kotlin, or capabilities implemented in Go (the SMS
//     set, smsapp.AddSMS).
//   - Bridge.Handle runs one request for the calling app and hands its one
//     reply to a ReplyTarget the transport implements. The SDK's
//     transports queue each request instead (Bridge.Queue: one admission,
//     the same size check and cap per caller for every transport), and
//     its workers run them fairly (Bridge.RunNext).
//   - The app's screens record the user's decisions about calling apps
//     (AllowCaller and its siblings).
//
// A few exported methods (Served, OnClose, Logger, SetLogger, Tool.AddGo)
// are seams for the packages bound beside this one; their types are ones
// gomobile cannot carry, so Java never sees them.
//
// All logic lives in ordinary packages (capability, descriptor, access);
// this package only adapts them, and makes sure no Go panic
// ever crosses into Java, where it would kill the app.
package intentbridge

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/engine/replystore"
	"github.com/mobilemcp/mobilemcp/intentbridge/internal/access"
	"github.com/mobilemcp/mobilemcp/internal/buildinfo"
	"github.com/mobilemcp/mobilemcp/internal/fairqueue"
	"github.com/mobilemcp/mobilemcp/internal/nopanic"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// Intent extras and metadata keys. The Java side reads them from here so the
// two languages cannot drift apart.
const (
	// ServiceAction is the intent-filter action that marks a Mobile-MCP service.
	ServiceAction = "mobile.mcp.SERVICE"

	// ExtraRequest holds the request JSON (the specification's key).
	ExtraRequest = "mobile-mcp-request"
	// ExtraCallback holds the caller's mutable PendingIntent (the specification's key).
	ExtraCallback = "mobile-mcp-callback"
	// ExtraResponse holds the reply JSON in the specification's layout.
	ExtraResponse = "mobile-mcp-response"

	// ExtraPrototypeRequest holds a request from the prototype agent.
	ExtraPrototypeRequest = "request"
	// ExtraPrototypeCallback holds the prototype agent's PendingIntent.
	ExtraPrototypeCallback = "mcp_callback"
	// ExtraPrototypeResponse holds the flat reply the prototype agent reads.
	ExtraPrototypeResponse = "response"
	// ExtraPrototypeRequestID holds the request id next to a flat reply.
	ExtraPrototypeRequestID = "mcp_request_id"

	// MetaToolName, MetaToolDescription and MetaToolCapabilities are the
	// service's meta-data names (Mobile-MCP spec §1.1).
	MetaToolName         = "mobile.mcp.tool.name"
	MetaToolDescription  = "mobile.mcp.tool.description"
	MetaToolCapabilities = "mobile.mcp.tool.capabilities"
)

// Bridge runs Mobile-MCP requests for the tool's Java Service. It is safe
// for concurrent use from several Java threads.
type Bridge struct {
	replies  *replystore.Store
	consents *access.Consents
	// policy admits the calls Handle runs: the caller's consent, rate
	// limit and the no-callback rule. The MCP server does not use it.
	policy *access.Policy
	// work holds the requests the transports queued (Queue) for the
	// SDK's workers (RunNext).
	work *fairqueue.Queue[job]

	// log receives the engine's messages: logcat's, unless SetLogger
	// gave another.
	log capability.Logger

	mu       sync.Mutex         // guards engine, title, startErr and onClose
	engine   *capability.Engine // the started tool's, or nil before Start
	title    string             // the started tool's (Tool.SetTitle)
	startErr error              // why the last Start refused its tool
	onClose  []func() error     // what Close runs first (OnClose)
}

// OpenBridge opens the bridge of an app whose private files directory
// (Context.getFilesDir()) is dataDir. Two files are kept there: the
// replies to requests that change something, so that a request retried
// after Android killed the process is answered from the store instead of
// running again, and the user's decisions about calling apps (see
// AllowCaller). An empty dataDir keeps both in memory only.
//
// The app should open one Bridge per process and share it: the Service,
// the screens and the consent notification all act on the same decisions,
// which a second bridge would read once and then overwrite. Until Start,
// it answers every request with internal_error, but the consent calls
// work, so a notification's Allow button works in a process that runs no
// request.
func OpenBridge(dataDir string) (b *Bridge, err error) {
	defer nopanic.Into(&err, "intentbridge: OpenBridge")
	return openBridge(dataDir, nil)
}

// openBridge is OpenBridge with the clock of the consent decisions; nil
// means time.Now.
func openBridge(dataDir string, now func() time.Time) (*Bridge, error) {
	opts := replystore.Options{Logger: logcat{}}
	consentPath := ""
	if dataDir != "" {
		opts.Path = filepath.Join(dataDir, replystore.FileName)
		consentPath = filepath.Join(dataDir, access.ConsentFile)
	}
	consents, err := access.OpenConsents(consentPath, now)
	if err != nil {
		return nil, fmt.Errorf("intentbridge: opening the consent store: %w", err)
	}
	limit, err := ratelimit.ParseRate(DefaultSendRateLimit)
	if err != nil {
		return nil, err
	}
	replies, err := replystore.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("intentbridge: opening the reply store: %w", err)
	}
	return &Bridge{
		replies:  replies,
		consents: consents,
		policy:   access.NewPolicy(consents, limit),
		work:     newQueue(),
		log:      logcat{},
	}, nil
}

// Start serves tool: from now on Handle runs its capabilities. It refuses a
// tool whose descriptor has lint errors (the message lists them as
// 'mobilemcp lint' would), a capability the descriptor declares without a
// handler, a handler for a capability it does not declare, and a Go
// capability whose descriptor entry differs from its definition. A bridge
// starts once.
func (b *Bridge) Start(tool *Tool) (err error) {
	defer nopanic.Into(&err, "intentbridge: Start")
	if tool == nil {
		return errors.New("intentbridge: Start needs a Tool")
	}
	reg, err := tool.registry()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.engine != nil {
		return errors.New("intentbridge: the bridge serves a tool already; open one bridge per tool")
	}
	if err != nil {
		// Remembered, so that every request says why nothing runs.
		b.startErr = err
		return err
	}
	b.engine = capability.NewEngine(reg, capability.Options{Replies: b.replies, Logger: b.log})
	b.title = tool.title
	b.policy.SetToolName(tool.title)
	return nil
}

// StartFailed records that the app could not start its tool, for reason
// (such as a service without the meta-data naming its descriptor): every
// request is then answered with internal_error saying so. It does nothing
// once a tool has started.
func (b *Bridge) StartFailed(reason string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.engine == nil {
		b.startErr = errors.New(reason)
	}
}

// started returns the engine of the started tool, or the failure reply to
// a request before a tool started.
func (b *Bridge) started() (*capability.Engine, *capability.Reply) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.engine != nil:
		return b.engine, nil
	case b.startErr != nil:
		why := strings.TrimSpace(strings.TrimPrefix(b.startErr.Error(), "intentbridge: the tool cannot start:"))
		return nil, failed(capability.CodeInternalError, "this tool cannot start, so it runs nothing; its developer must fix this: "+why)
	}
	return nil, failed(capability.CodeInternalError, "the tool has not started; its service answers once its descriptor and handlers are loaded")
}

// Close runs what was registered with OnClose (such as stopping the SMS
// app's MCP server) and releases the reply store. The bridge must not be
// used afterwards.
func (b *Bridge) Close() error {
	b.mu.Lock()
	hooks := b.onClose
	b.onClose = nil
	b.mu.Unlock()
	var errs []error
	for _, hook := range hooks {
		errs = append(errs, hook())
	}
	return errors.Join(append(errs, b.replies.Close())...)
}

// OnClose makes Close run hook first. It is a seam for the packages bound
// beside this one (the SMS app's MCP server stops with its bridge);
// gomobile does not bind it.
func (b *Bridge) OnClose(hook func() error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.onClose = append(b.onClose, hook)
}

// Served is the engine of the started tool and its title, or a nil engine
// before Start. It is a seam for the packages bound beside this one (the
// SMS app's MCP server serves the same engine); gomobile does not bind it.
func (b *Bridge) Served() (*capability.Engine, string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.engine, b.title
}

// SetLogger makes the bridge log to l, such as an *slog.Logger, instead of
// logcat, as tests do; gomobile does not bind it.
func (b *Bridge) SetLogger(l capability.Logger) { b.log = l }

// Logger is where the bridge logs, for the packages bound beside this one;
// gomobile does not bind it.
func (b *Bridge) Logger() capability.Logger { return b.log }

// MaxReplyBytes caps the reply extras of one request (both layouts and the
// id together). They travel in one Binder transaction, whose ~1 MB budget is
// shared by the whole process, and Java strings cross it as UTF-16, so the
// cap keeps a reply at a small fraction of it.
const MaxReplyBytes = 128 << 10

// reply is one request's reply as it crosses to Java: strings only, so that
// a reply costs no object on either side of JNI.
type reply struct {
	spec, flat, id, code string
}

// encodeReply encodes r for Java and enforces MaxReplyBytes. flat is only
// made for a request in the prototype's layout.
func encodeReply(r *capability.Reply) reply {
	out := reply{spec: string(r.SpecJSON()), id: r.ID, code: string(r.ErrorCode)}
	if r.Shape == capability.ShapePrototype {
		out.flat = string(r.FlatJSON())
	}
	if size := len(out.spec) + len(out.flat) + len(out.id); size > MaxReplyBytes {
		what := "failed"
		if !r.Failed() {
			what = "ran"
		}
		return encodeReply(&capability.Reply{ID: r.ID, CapabilityID: r.CapabilityID, Shape: r.Shape,
			Status: capability.StatusFailure, ErrorCode: capability.CodeTooLarge,
			Message: fmt.Sprintf("%s %s, but its reply is %d bytes, over the %d-byte limit for an Intent reply", r.CapabilityID, what, size, MaxReplyBytes)})
	}
	return out
}

// failed builds a reply to a request the engine never saw.
func failed(code capability.Code, message string) *capability.Reply {
	return &capability.Reply{Status: capability.StatusFailure, ErrorCode: code, Message: message}
}

// ReplyTarget receives the one reply to a request. The transport
// implements it: the Intent transport fills the caller's PendingIntent,
// binding mode sends a Message to replyTo, and a request without a callback
// (adb) is logged to logcat. An error it returns is logged; the reply is
// not sent again.
//
// specJSON is the reply in the Mobile-MCP spec's layout, for
// ExtraResponse; every reply has it, and it is also the one line to log.
// flatJSON is "" unless the request came in the prototype's layout: then
// the transport also puts flatJSON in ExtraPrototypeResponse and requestID
// in ExtraPrototypeRequestID, where the prototype agent reads them.
// requestID is "" when the request had none, and errorCode is the
// failure's error_code, or "" on success.
type ReplyTarget interface {
	Send(specJSON, flatJSON, requestID, errorCode string) error
}

// Handle runs one request and hands its reply to to, exactly once, and
// never lets a panic reach Java. callerPackage is the calling app as
// Android vouches for it: in binding mode, the package of the Binder uid
// that sent the Message; "" when there is none (a request without a
// callback, from adb). A request that came in an Intent or from adb's
// shell is queued instead (QueueIntent, QueueShell).
//
// The handler runs on the calling thread, so a Java handler is called
// without leaving it. If a handler overruns its deadline, to gets the
// timeout reply at the deadline from another thread while the calling
// thread waits for the handler; Handle returns once it does.
//
// The caller's access is checked once the arguments are valid, before the
// capability runs (see AllowCaller): a capability that changes something
// needs the user's consent for callerPackage (consent_required until they
// decide, permission_denied if they refused) and is rate limited per caller
// (rate_limited); a request without a caller never runs one that changes
// something, and one that only reads when SetAllowNoCallback allows it. A
// repeated request id is answered from the reply store per caller package.
func (b *Bridge) Handle(requestJSON, callerPackage string, to ReplyTarget) {
	b.handle(requestJSON, callerPackage, false, to)
}

// Reject answers requestJSON with a failure of errorCode and message
// without running it: a transport rejects so a request it will not take
// (adb's provider, a caller that is not the shell), and Queue one it will
// not queue. The reply echoes the request's id and capability when they
// can be read, in the request's own layout, so the caller can match it; a
// request over the engine's size limit is not read at all.
func (b *Bridge) Reject(requestJSON, errorCode, message string, to ReplyTarget) {
	if to == nil {
		return
	}
	var req capability.Request
	if len(requestJSON) <= capability.DefaultMaxRequestBytes {
		req, _ = capability.DecodeRequest([]byte(requestJSON)) // what it recovers, even from a bad request
	}
	out := encodeReply(&capability.Reply{ID: req.ID, CapabilityID: req.CapabilityID, Shape: req.Shape,
		Status: capability.StatusFailure, ErrorCode: capability.Code(errorCode), Message: message})
	if err := to.Send(out.spec, out.flat, out.id, out.code); err != nil {
		b.log.Error("intentbridge: delivering a rejection failed", "request_id", text.Excerpt(out.id), "error", err)
	}
}

// handle runs a request of caller; claimed means the transport cannot
// vouch for the caller (capability.Caller.Vouched).
func (b *Bridge) handle(requestJSON, callerPackage string, claimed bool, to ReplyTarget) {
	if to == nil {
		b.log.Error("intentbridge: Handle was given no ReplyTarget; the request is dropped")
		return
	}
	deliver := func(r *capability.Reply) {
		out := encodeReply(r)
		if err := to.Send(out.spec, out.flat, out.id, out.code); err != nil {
			b.log.Error("intentbridge: delivering a reply failed", "request_id", text.Excerpt(out.id), "error", err)
		}
	}
	defer func() {
		if p := recover(); p != nil {
			// Only code before the engine can get here: the engine recovers
			// its own panics and delivers their failure.
			deliver(&capability.Reply{Status: capability.StatusFailure, ErrorCode: capability.CodeInternalError,
				Message: fmt.Sprintf("the tool failed with an internal error: %v", p)})
		}
	}()
	if strings.TrimSpace(requestJSON) == "" {
		deliver(failed(capability.CodeInvalidRequest, "no request: put the request JSON in the "+ExtraRequest+" extra, as a String"))
		return
	}
	engine, notStarted := b.started()
	if notStarted != nil {
		deliver(notStarted)
		return
	}
	call := capability.NewCall([]byte(requestJSON), capability.Caller{ID: callerPackage, Vouched: callerPackage != "" && !claimed}, b.policy.Admit)
	engine.Run(context.Background(), call, deliver)
}

// BuildID is the build this engine came from (internal/buildinfo): the
// commit it was built from. The testing library compares it with the id
// the SDK's own engines carry, so that a tool's tests never run one
// engine while the app ships another.
func BuildID() string { return buildinfo.StampedID() }
