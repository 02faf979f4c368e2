package intentbridge

import (
	"encoding/json"
	"fmt"

	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/intentbridge/internal/access"
	"github.com/mobilemcp/mobilemcp/internal/nopanic"
)

// DefaultSendRateLimit is how many calls of capabilities that change
// something (send_sms) one calling app may make, in ratelimit.ParseRate's
// syntax: ten at once, then one more every six seconds. Read-only
// capabilities are not limited. SetSendRateLimit changes it.
const DefaultSendRateLimit = "10/min"

// The user's consent for a calling app, in the words the wire and the
// client's Consent use: CallerConsent and CallersJSON say one of these two,
// the decisions the engine keeps. The SDK answers an app that waits for
// consent with two more words, which the engine never stores: "dismissed"
// (the user put the question away) and "waiting" (no decision yet).
const (
	ConsentAllowed = string(access.Allowed)
	ConsentDenied  = string(access.Denied)
)

// SignerSource tells which app has a package name now: the app's Java side
// implements it with the PackageManager.
type SignerSource interface {
	// SigningCertificateSHA256 returns the lowercase hex SHA-256 of the
	// signing certificate of the installed package (several, sorted and
	// comma-separated, for an app signed by several), or an error when no
	// package of that name is installed. callerPackage is as Handle was
	// given it, which for apps sharing a user id is "<sharedUserId>:<uid>".
	SigningCertificateSHA256(callerPackage string) (string, error)
}

// SetSignerSource makes the user's decisions belong to an app, not a
// package name: a decision is recorded with the certificate the package is
// signed with, and a decision whose package is gone or now signed by
// another certificate (another app took the name) is dropped when that
// caller next calls, so the user is asked again. Without a source,
// decisions are by name. Call it once, before requests run.
func (b *Bridge) SetSignerSource(source SignerSource) {
	if source == nil {
		b.consents.SetSigners(nil)
		return
	}
	b.consents.SetSigners(func(pkg string) (signer string, err error) {
		defer nopanic.Into(&err, "intentbridge: SigningCertificateSHA256")
		return source.SigningCertificateSHA256(pkg)
	})
}

// AllowCaller records that the user allows the app callerPackage to run
// capabilities that change something, such as send_sms. Until the user
// decides, such a call gets consent_required; the app asks the user then
// (a notification) and calls AllowCaller or DenyCaller with the answer.
// The decision is saved in the data directory before AllowCaller returns,
// so it survives restarts.
func (b *Bridge) AllowCaller(callerPackage string) (err error) {
	defer nopanic.Into(&err, "intentbridge: AllowCaller")
	return b.consents.Decide(callerPackage, access.Allowed)
}

// DenyCaller records that the user refuses callerPackage: its calls of
// capabilities that change something get permission_denied, and the user
// is not asked again until ForgetCaller.
func (b *Bridge) DenyCaller(callerPackage string) (err error) {
	defer nopanic.Into(&err, "intentbridge: DenyCaller")
	return b.consents.Decide(callerPackage, access.Denied)
}

// ForgetCaller removes the decision about callerPackage (the user revoked
// it, or the package was removed from the phone), so its next call of a
// capability that changes something gets consent_required again.
// Forgetting an app without a decision does nothing.
func (b *Bridge) ForgetCaller(callerPackage string) (err error) {
	defer nopanic.Into(&err, "intentbridge: ForgetCaller")
	return b.consents.Forget(callerPackage)
}

// CallerConsent returns the user's decision about callerPackage as it
// stands: ConsentAllowed, ConsentDenied, or "" while there is none. A
// decision about another app that had the package name (another signer)
// is none: that app will be asked. The tool tells a waiting caller its
// decision with it, and only that caller, whose package Android named.
func (b *Bridge) CallerConsent(callerPackage string) (decision string) {
	defer func() {
		if recover() != nil {
			decision = ""
		}
	}()
	if d, ok := b.consents.Decision(callerPackage); ok {
		return string(d)
	}
	return ""
}

// CallersJSON returns the user's decisions as a JSON array sorted by
// package, for the app's screen:
// [{"package":"com.example.agent","decision":"allowed","at":"2026-11-21T10:00:00Z"}].
// decision is ConsentAllowed or ConsentDenied, and at is when it was made
// (RFC 3339, UTC). With no decisions it returns [].
func (b *Bridge) CallersJSON() (list string) {
	defer func() {
		if recover() != nil {
			list = "[]"
		}
	}()
	data, err := json.Marshal(b.consents.List())
	if err != nil {
		return "[]"
	}
	return string(data)
}

// SetAllowNoCallback decides whether Handle runs requests that have no
// caller, which is how adb's am start-foreground-service sends them (only
// the request extra); their replies go to logcat. It covers the
// capabilities that only read: one that changes something never runs
// without a caller Android vouches for, whatever this says, and adb sends
// those through QueueShell. The app allows them in debuggable builds and
// when the user turns on its developer switch. Off by default: such a
// request gets permission_denied.
func (b *Bridge) SetAllowNoCallback(allow bool) {
	b.policy.SetAllowNoCallback(allow)
}

// SetSendRateLimit replaces DefaultSendRateLimit, such as "3/min", "100/hour"
// or "off" (ratelimit.ParseRate). Every caller's budget starts afresh.
func (b *Bridge) SetSendRateLimit(rate string) (err error) {
	defer nopanic.Into(&err, "intentbridge: SetSendRateLimit")
	r, err := ratelimit.ParseRate(rate)
	if err != nil {
		return fmt.Errorf("intentbridge: %w", err)
	}
	return b.policy.SetRateLimit(r)
}
