package access

import (
	"context"
	"sync/atomic"

	"github.com/mobilemcp/mobilemcp/capability"
	"github.com/mobilemcp/mobilemcp/ratelimit"
)

// NoCallbackCaller is the rate-limit key of requests that came without a
// callback, and so without a caller identity.
const NoCallbackCaller = "(no callback)"

// Policy applies the rules to one call. Its Admit method is given to the
// engine per request (capability.WithAdmission), by the transports that know
// the calling app.
type Policy struct {
	consents *Consents
	limiter  atomic.Pointer[ratelimit.Limiter]
	noCB     atomic.Bool
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

// SetAllowNoCallback decides whether requests without a callback are run.
// The app turns it on in debuggable builds and with its developer switch.
func (p *Policy) SetAllowNoCallback(allow bool) { p.noCB.Store(allow) }

// Consents returns the consent store.
func (p *Policy) Consents() *Consents { return p.consents }

// Admit reports why the caller in ctx may not run c, or nil when it may.
func (p *Policy) Admit(ctx context.Context, c *capability.Capability) error {
	caller := capability.Caller(ctx)
	if caller == "" {
		if !p.noCB.Load() {
			return capability.Errorf(capability.CodePermissionDenied,
				"requests without a callback are accepted only by debuggable builds or with the developer switch on; send a mutable PendingIntent in the mobile-mcp-callback extra")
		}
		if !c.ChangesState() {
			return nil
		}
		// A developer on adb controls the phone already; only the rate applies.
		return p.limit(c, NoCallbackCaller)
	}
	if !c.ChangesState() {
		return nil
	}
	switch d, decided := p.consents.Decision(caller); {
	case !decided:
		return capability.Errorf(capability.CodeConsentRequired,
			"the user has not yet allowed %s to use %s; a notification on the phone asks them, so retry once they allow it", caller, c.ID)
	case d == Denied:
		return capability.Errorf(capability.CodePermissionDenied,
			"the user does not allow %s to use %s; they can change this in the mobilemcp app", caller, c.ID)
	}
	return p.limit(c, caller)
}

func (p *Policy) limit(c *capability.Capability, caller string) error {
	l := p.limiter.Load()
	if wait, ok := l.Allow(caller); !ok {
		return capability.Errorf(capability.CodeRateLimited,
			"%s is limited to %s per app; retry in %s", c.ID, l.Rate(), ratelimit.RetryIn(wait))
	}
	return nil
}
