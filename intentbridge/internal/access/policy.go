package access

import (
	"context"
	"sync/atomic"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
)

// ShellCaller is the caller of a request that adb's shell sent through the
// tool's shell-only channel (the SDK's AdbProvider: a permission only the
// shell holds, and the shell's uid, both checked). No package can have this
// name: package names have no parentheses or spaces.
const ShellCaller = "(adb shell)"

// Policy applies the rules to one call. Its Admit method is given to the
// engine with each call (capability.NewCall's admit), by the transports that know
// the calling app.
type Policy struct {
	consents *Consents
	limiter  atomic.Pointer[ratelimit.Limiter]
	noCB     atomic.Bool
	toolName atomic.Pointer[string] // how refusals name the tool (SetToolName)
}

// NewPolicy returns a policy over the user's consents, limiting each caller
// to limit calls of capabilities that change something.
func NewPolicy(consents *Consents, limit ratelimit.Rate) *Policy {
	p := &Policy{consents: consents}
	p.limiter.Store(ratelimit.New(limit, nil))
	return p
}

// SetRateLimit replaces the per-caller limit, starting every bucket afresh.
func (p *Policy) SetRateLimit(limit ratelimit.Rate) error {
	if err := limit.Check(); err != nil {
		return err
	}
	p.limiter.Store(ratelimit.New(limit, nil))
	return nil
}

// SetToolName names the tool in refusals, as its user knows it (the tool
// service's mobile.mcp.tool.name), so that a denied caller is sent to the
// right app's settings. Before it is set, refusals say "this tool".
func (p *Policy) SetToolName(name string) { p.toolName.Store(&name) }

// settings says where the user changes a decision about a caller: the
// tool's own settings screen, which lists the apps that asked.
func (p *Policy) settings() string {
	if name := p.toolName.Load(); name != nil && *name != "" {
		return "the settings of " + *name + ", which list the apps that asked"
	}
	return "this tool's settings, which list the apps that asked"
}

// SetAllowNoCallback decides whether requests without a callback run the
// capabilities that only read. The app turns it on in debuggable builds and
// with its developer switch. A capability that changes something never runs
// without a caller, whatever this says.
func (p *Policy) SetAllowNoCallback(allow bool) { p.noCB.Store(allow) }

// Consents returns the consent store.
func (p *Policy) Consents() *Consents { return p.consents }

// Admit reports why the caller may not run c, or nil when it may. It is
// the capability.Admission of the transports that know the calling app.
//
// A caller the transport does not vouch for (an Intent's: there the caller
// is the app that created the callback PendingIntent, and any app that was
// handed that PendingIntent, as an assistant gives one to every tool it
// calls, can send it to us as its own callback) runs only read-only
// capabilities; the others are refused with permission_denied, without
// asking the user or using rate budget in that app's name. Binding mode's
// caller, the package of the Binder uid of the Message's sender, is one
// Android vouches for.
func (p *Policy) Admit(_ context.Context, from capability.Caller, c *capability.Capability) error {
	caller := from.ID
	switch {
	case caller == "" && c.ChangesState():
		// No caller, no change: nothing in such a request says who sent it (an
		// Intent without a callback, a process with no package), and any app can
		// send the same, whatever the build or switch.
		return capability.Errorf(capability.CodePermissionDenied,
			"%s changes something on this phone, and this request names no caller that Android vouches for (an Intent without a callback, or a process without a package), so it never runs; an app binds to this tool's service (binding mode), and adb sends it through the tool's shell-only provider, as 'mobilemcp adb call' does", c.ID)
	case caller == "":
		if !p.noCB.Load() {
			return capability.Errorf(capability.CodePermissionDenied,
				"requests without a callback are accepted only by debuggable builds or with the developer switch on; send a mutable PendingIntent in the mobile-mcp-callback extra")
		}
		return nil
	case !c.ChangesState():
		return nil
	case caller == ShellCaller:
		// The person at adb's keyboard controls the phone already: no
		// question to ask them, only the rate.
		return p.limit(c, ShellCaller)
	}
	if !from.Vouched {
		// Asking the user, or charging the budget, would be in the name
		// of an app that may not have sent this: no side effect at all.
		return capability.Errorf(capability.CodePermissionDenied,
			"%s changes something on this phone, so it runs only for a caller that Android identifies: bind to this tool's service and send the request as a Message (binding mode). A request in an Intent names only the app that created its callback PendingIntent, and any app holding that PendingIntent can send it", c.ID)
	}
	switch d, decided := p.consents.Decision(caller); {
	case !decided:
		return capability.Errorf(capability.CodeConsentRequired,
			"the user has not yet allowed %s to use %s; a notification on the phone asks them, so retry once they allow it", caller, c.ID)
	case d == Denied:
		return capability.Errorf(capability.CodePermissionDenied,
			"the user does not allow %s to use %s; they can change this in %s", caller, c.ID, p.settings())
	}
	return p.limit(c, caller)
}

func (p *Policy) limit(c *capability.Capability, caller string) error {
	l := p.limiter.Load()
	if wait, ok := l.Allow(caller); !ok {
		return capability.RateLimited(wait,
			"%s is limited to %s per app; retry in %s", c.ID, l.Rate(), ratelimit.RetryIn(wait))
	}
	return nil
}
