package sms

import (
	"sync"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// DefaultPartsPerMinute is how many SMS parts send_sms sends in any minute,
// over every caller and transport together. It is Android's own limit:
// SmsUsageMonitor lets one package send 30 parts (DEFAULT_SMS_MAX_COUNT) in
// 60 s (DEFAULT_SMS_CHECK_PERIOD) and holds the next one for a system dialog
// that asks the user to confirm. Its sent result then waits for the user,
// so an unattended assistant would get timeout for an SMS that may still
// go. Refusing it here first gives the caller a rate_limited reply that
// says when to retry.
const DefaultPartsPerMinute = 30

// partWindow counts the parts sent in the last minute, as SmsUsageMonitor
// does: a sliding window of send times, not a token bucket. A bucket of 30
// that refills one part every 2 s lets a 31st part through within the same
// minute, which is exactly what Android would stop.
type partWindow struct {
	limit  int
	period time.Duration
	now    func() time.Time

	mu    sync.Mutex
	times []time.Time // one per part, oldest first
}

func newPartWindow(limit int) *partWindow {
	return &partWindow{limit: limit, period: time.Minute, now: time.Now}
}

// take records n parts as sent now, if the window has room for them, and
// returns nil; otherwise it records nothing and returns the rate_limited
// error that says when to retry.
func (w *partWindow) take(n int) *capability.Error {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.now()
	w.prune(now)
	if n > w.limit {
		return capability.Errorf(capability.CodeRateLimited,
			"this SMS needs %s, more than the %d this phone may send in a minute; send a shorter text",
			text.Plural(n, "part"), w.limit)
	}
	if over := len(w.times) + n - w.limit; over > 0 {
		// The parts make room as they leave the window, oldest first.
		wait := w.times[over-1].Add(w.period).Sub(now)
		return capability.RateLimited(wait,
			"this phone sends at most %d SMS parts a minute (beyond that Android stops and asks the user to confirm); "+
				"%s went in the last minute and this SMS needs %d; nothing was sent: retry in %s",
			w.limit, text.Plural(len(w.times), "part"), n, ratelimit.RetryIn(wait))
	}
	for range n {
		w.times = append(w.times, now)
	}
	return nil
}

// settle corrects what take recorded for a send of planned parts once the
// platform has sent actual parts: nothing when the send failed as a whole,
// or another number when the phone split the text differently.
func (w *partWindow) settle(planned, actual int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if actual < planned {
		// The newest entries are this send's, or another's made at the same
		// moment, which is the same count.
		drop := min(planned-actual, len(w.times))
		w.times = w.times[:len(w.times)-drop]
		return
	}
	now := w.now()
	for range actual - planned {
		w.times = append(w.times, now)
	}
}

// prune forgets the parts sent a period or more before now.
func (w *partWindow) prune(now time.Time) {
	cut := 0
	for cut < len(w.times) && !now.Before(w.times[cut].Add(w.period)) {
		cut++
	}
	w.times = append(w.times[:0], w.times[cut:]...)
}
