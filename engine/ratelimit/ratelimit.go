// Package ratelimit limits how often each client may do something, with a
// token bucket per client:
//
//	limiter := ratelimit.New(ratelimit.Rate{Calls: 10, Per: time.Minute}, nil)
//	if wait, ok := limiter.Allow(client); !ok {
//		return capability.RateLimited(wait, "retry in %s", ratelimit.RetryIn(wait))
//	}
//
// The MCP server limits the calls of every capability that changes state
// (capability.Capability.ChangesState) per HTTP client with it, and the
// Android bridge limits them per calling app.
package ratelimit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/mobilemcp/mobilemcp/internal/text"
)

// Rate is a number of calls per period. A client may make Calls calls at
// once, and then one more each Per/Calls.
type Rate struct {
	// Calls is how many calls the period allows, and the burst a client
	// may make at once. A negative Calls allows everything (Off()).
	Calls int
	// Per is the period, such as time.Minute.
	Per time.Duration
}

// Off returns the Rate that allows everything. A function, not a variable,
// so that no importer can change what "off" means for every other.
func Off() Rate { return Rate{Calls: -1} }

// unlimited reports whether r allows everything, as Off() does.
func (r Rate) unlimited() bool { return r.Calls < 0 }

// String writes r the way ParseRate reads it, such as "10/min".
func (r Rate) String() string {
	if r.unlimited() {
		return "off"
	}
	for _, u := range rateUnits {
		if r.Per == u.per {
			return strconv.Itoa(r.Calls) + "/" + u.names[0]
		}
	}
	return fmt.Sprintf("%d/%s", r.Calls, r.Per)
}

var rateUnits = []struct {
	names []string
	per   time.Duration
}{
	{[]string{"sec", "s", "second"}, time.Second},
	{[]string{"min", "m", "minute"}, time.Minute},
	{[]string{"hour", "h"}, time.Hour},
	{[]string{"day", "d"}, 24 * time.Hour},
}

// ParseRate reads a rate such as "10/min", "1/s", "100/hour" or "5/30s"
// (any Go duration after the slash), or "off" for Off().
func ParseRate(s string) (Rate, error) {
	if strings.EqualFold(s, "off") {
		return Off(), nil
	}
	calls, per, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(calls)
	if !ok || err != nil {
		return Rate{}, fmt.Errorf("rate %q: want CALLS/PERIOD, such as 10/min, or off", s)
	}
	r := Rate{Calls: n}
	for _, u := range rateUnits {
		for _, name := range u.names {
			if strings.EqualFold(per, name) {
				r.Per = u.per
			}
		}
	}
	if r.Per == 0 {
		if r.Per, err = time.ParseDuration(per); err != nil {
			return Rate{}, fmt.Errorf("rate %q: the period %q is not sec, min, hour, day or a duration such as 30s", s, per)
		}
	}
	return r, r.Check()
}

// Check reports a rate that allows no call at all.
func (r Rate) Check() error {
	if r.unlimited() {
		return nil
	}
	if r.Calls < 1 || r.Per <= 0 {
		return fmt.Errorf("rate %d/%s: want at least 1 call per positive period, or off", r.Calls, r.Per)
	}
	return nil
}

// Limiter is a token bucket per client. Buckets that have refilled
// completely are forgotten, so memory stays bounded by the clients active
// within one period. It is safe for concurrent use.
type Limiter struct {
	rate Rate
	now  func() time.Time

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
	sweep   time.Time
}

// New returns a limiter allowing r per client. now is the time source; nil
// means time.Now.
func New(r Rate, now func() time.Time) *Limiter {
	if now == nil {
		now = time.Now
	}
	return &Limiter{rate: r, now: now, buckets: map[string]*rate.Limiter{}}
}

// Rate returns the limiter's rate.
func (l *Limiter) Rate() Rate { return l.rate }

// Allow takes one call from client's bucket. When the bucket is empty it
// takes nothing and returns how long until the next call is allowed.
func (l *Limiter) Allow(client string) (wait time.Duration, ok bool) {
	if l.rate.unlimited() {
		return 0, true
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.forgetFull(now)
	b := l.buckets[client]
	if b == nil {
		b = rate.NewLimiter(rate.Every(l.rate.Per/time.Duration(l.rate.Calls)), l.rate.Calls)
		l.buckets[client] = b
	}
	if b.AllowN(now, 1) {
		return 0, true
	}
	r := b.ReserveN(now, 1)
	wait = r.DelayFrom(now)
	r.CancelAt(now) // asking must not push the next allowed call further out
	return wait, false
}

// forgetFull drops full buckets at most once per period: a new bucket
// starts full, so forgetting one changes nothing.
func (l *Limiter) forgetFull(now time.Time) {
	if now.Before(l.sweep) {
		return
	}
	l.sweep = now.Add(l.rate.Per)
	for client, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.rate.Calls) {
			delete(l.buckets, client)
		}
	}
}

// RetryAfter rounds a wait up to whole seconds, for people and models.
func RetryAfter(wait time.Duration) int {
	return int(math.Ceil(wait.Seconds()))
}

// RetryIn says a wait in whole seconds, rounded up: "1 second", "6 seconds".
func RetryIn(wait time.Duration) string {
	return text.Plural(RetryAfter(wait), "second")
}
