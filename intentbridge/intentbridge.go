// Package intentbridge is the only package gomobile binds for Android. Its
// surface is small on purpose and uses only types gomobile can carry: the
// Java Service hands it request strings with the calling app's package and
// gets reply strings back, the Java Platform answers its calls with JSON
// strings, and the app's screens record the user's decisions about calling
// apps (AllowCaller and its siblings) and start the MCP server (StartHTTP).
//
// All logic lives in ordinary packages (capability, capability/sms); this
// package only adapts them, and makes sure no Go panic ever crosses into
// Java, where it would kill the app.
package intentbridge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mobilemcp/mobilemcp/access"
	"github.com/mobilemcp/mobilemcp/capability"
	"github.com/mobilemcp/mobilemcp/capability/idempotency"
	"github.com/mobilemcp/mobilemcp/capability/sms"
	"github.com/mobilemcp/mobilemcp/ratelimit"
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

// Platform is implemented in Java with SubscriptionManager and SmsManager.
// Both methods answer in JSON so that Java only moves strings.
type Platform interface {
	// SubscriptionsJSON returns the active subscriptions as a JSON array of
	// {"subscription_id","sim_slot_index","carrier_name","display_name"}.
	// When they cannot be read it returns
	// {"error_code":"permission_denied","message":"..."} (or another error
	// code) instead, as SendSMS does. A thrown exception counts as
	// platform_error.
	SubscriptionsJSON() (string, error)

	// SendSMS sends text to the E.164 number on the subscription, split with
	// SmsManager.divideMessage and sent multipart with one sent PendingIntent
	// per part. It waits up to timeoutMillis for the parts' sent results and
	// returns {"results":[code,...]}: one code per part, Activity.RESULT_OK
	// (-1) or an SmsManager.RESULT_ERROR_* code, and 0 for a part whose
	// result had not arrived. When nothing could be sent it returns
	// {"error_code":"permission_denied","message":"..."} (or another error
	// code) instead. A thrown exception counts as platform_error.
	SendSMS(subscriptionID int, to, text string, timeoutMillis int64) (string, error)
}

// Bridge runs Mobile-MCP requests for the Java Service. It is safe for
// concurrent use from several Java threads.
type Bridge struct {
	engine   *capability.Engine
	replies  *idempotency.Store
	consents *access.Consents
	// policy admits the calls Handle runs: the caller's consent, rate
	// limit and the no-callback rule. The MCP server does not use it.
	policy *access.Policy

	// log receives the MCP server's call log. gomobile sends the log
	// package's output, and so slog's default logger, to logcat.
	log *slog.Logger

	mu   sync.Mutex  // guards http
	http *httpServer // the MCP server, while StartHTTP has it running
}

// NewBridge returns a bridge serving the SMS capabilities on p. dataDir is
// the app's private files directory (Context.getFilesDir()). Two files are
// kept there: the replies to sends, so that a request retried after Android
// killed the process is answered from the store instead of sending again,
// and the user's decisions about calling apps (see AllowCaller). An empty
// dataDir keeps both in memory only.
//
// The app should open one Bridge per process and share it: the Service, the
// Activity and the consent notification all act on the same decisions.
func NewBridge(p Platform, dataDir string) (*Bridge, error) {
	return openBridge(p, config{dataDir: dataDir})
}

// config is how openBridge builds a bridge.
type config struct {
	dataDir string
	// timeout, when positive, replaces every capability's own deadline.
	timeout time.Duration
	// now is the clock of the consent decisions; nil means time.Now.
	now func() time.Time
}

// openBridge builds the bridge.
func openBridge(p Platform, cfg config) (*Bridge, error) {
	if p == nil {
		return nil, fmt.Errorf("intentbridge: NewBridge needs a Platform")
	}
	caps := sms.Capabilities(javaPlatform{p})
	if cfg.timeout > 0 {
		for i := range caps {
			caps[i].Timeout = cfg.timeout
		}
	}
	reg, err := capability.NewRegistry(caps...)
	if err != nil {
		return nil, err
	}
	opts := idempotency.Options{}
	consentPath := ""
	if cfg.dataDir != "" {
		opts.Path = filepath.Join(cfg.dataDir, idempotency.FileName)
		consentPath = filepath.Join(cfg.dataDir, access.ConsentFile)
	}
	consents, err := access.OpenConsents(consentPath, cfg.now)
	if err != nil {
		return nil, fmt.Errorf("intentbridge: opening the consent store: %w", err)
	}
	limit, err := ratelimit.ParseRate(DefaultSendRateLimit)
	if err != nil {
		return nil, err
	}
	replies, err := idempotency.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("intentbridge: opening the reply store: %w", err)
	}
	return &Bridge{
		engine:   capability.NewEngine(reg, capability.Options{Idempotency: replies}),
		replies:  replies,
		consents: consents,
		policy:   access.NewPolicy(consents, limit),
		log:      slog.Default(),
	}, nil
}

// Close stops the MCP server if it runs and releases the reply store. The
// bridge must not be used afterwards.
func (b *Bridge) Close() error {
	return errors.Join(b.StopHTTP(), b.replies.Close())
}

// MaxReplyBytes caps the reply extras of one request (both layouts and the
// id together). They travel in one Binder transaction, whose ~1 MB budget is
// shared by the whole process, and Java strings cross it as UTF-16, so the
// cap keeps a reply at a small fraction of it.
const MaxReplyBytes = 128 << 10

// Reply is the outcome of one request, with everything the Java Service needs
// to fill the callback's extras. Its JSON is encoded once, when it is made.
type Reply struct {
	spec, flat string
	id, code   string
	prototype  bool
	replayed   bool
	// succeeded is set only by newReply, so that a Reply made in Java with
	// its generated no-argument constructor never claims success.
	succeeded bool
}

// newReply encodes r for Java and enforces MaxReplyBytes.
func newReply(r *capability.Reply) *Reply {
	out := &Reply{spec: string(r.SpecJSON()), id: r.ID, code: string(r.ErrorCode), replayed: r.Replayed, succeeded: !r.Failed(),
		prototype: r.Shape == capability.ShapePrototype}
	if out.prototype {
		out.flat = string(r.FlatJSON())
	}
	if size := len(out.spec) + len(out.flat) + len(out.id); size > MaxReplyBytes {
		what := "failed"
		if !r.Failed() {
			what = "ran"
		}
		return newReply(&capability.Reply{ID: r.ID, CapabilityID: r.CapabilityID, Shape: r.Shape,
			Status: capability.StatusFailure, ErrorCode: capability.CodeTooLarge,
			Message: fmt.Sprintf("%s %s, but its reply is %d bytes, over the %d-byte limit for an Intent reply", r.CapabilityID, what, size, MaxReplyBytes)})
	}
	return out
}

// failed builds a reply for a request the engine never saw.
func failed(code capability.Code, message string) *Reply {
	return newReply(&capability.Reply{Status: capability.StatusFailure, ErrorCode: code, Message: message})
}

// SpecJSON is the reply in the specification's layout, for ExtraResponse.
// Every reply carries it.
func (r *Reply) SpecJSON() string { return r.spec }

// Prototype reports whether the request came in the prototype's layout. The
// Service then also fills ExtraPrototypeResponse with FlatJSON and
// ExtraPrototypeRequestID with RequestID.
func (r *Reply) Prototype() bool { return r.prototype }

// FlatJSON is the reply in the prototype's flat layout, or "" when the
// request was not in that layout.
func (r *Reply) FlatJSON() string { return r.flat }

// RequestID is the request's id, or "" when it had none.
func (r *Reply) RequestID() string { return r.id }

// Replayed reports that the reply is the stored answer to an earlier
// request with the same id: nothing ran again.
func (r *Reply) Replayed() bool { return r.replayed }

// Success reports whether the capability succeeded.
func (r *Reply) Success() bool { return r.succeeded }

// ErrorCode is the failure's error_code, or "" on success.
func (r *Reply) ErrorCode() string { return r.code }

// LogLine is the reply as one line of JSON, for logcat when the request came
// without a callback (adb testing). It is the specification's layout.
func (r *Reply) LogLine() string { return r.spec }

// Handle runs one request and returns its reply. It never returns nil and
// never lets a panic reach Java. callerPackage is the calling app as Android
// vouches for it: the package that created the callback PendingIntent, or
// the package of the binding's sending uid; "" when there is none (a
// request without a callback, from adb).
//
// The caller's access is checked once the arguments are valid, before the
// capability runs (see AllowCaller): a capability that changes something
// needs the user's consent for callerPackage (consent_required until they
// decide, permission_denied if they refused) and is rate limited per caller
// (rate_limited); a request without a caller runs only when
// SetAllowNoCallback allows it. A repeated request id is answered from the
// reply store per caller package.
func (b *Bridge) Handle(requestJSON, callerPackage string) (reply *Reply) {
	defer func() {
		if p := recover(); p != nil {
			reply = failed(capability.CodeInternalError, fmt.Sprintf("the tool failed with an internal error: %v", p))
		}
	}()
	if strings.TrimSpace(requestJSON) == "" {
		return failed(capability.CodeInvalidRequest, "no request: put the request JSON in the "+ExtraRequest+" extra, as a String")
	}
	ctx := capability.WithCaller(context.Background(), callerPackage)
	ctx = capability.WithAdmission(ctx, b.policy.Admit)
	return newReply(b.engine.Handle(ctx, []byte(requestJSON)))
}
