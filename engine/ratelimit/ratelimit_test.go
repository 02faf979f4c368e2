package ratelimit

import (
	"strings"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{in: "10/min", want: "10/min"},
		{in: "10/m", want: "10/min"},
		{in: "1/s", want: "1/sec"},
		{in: "100/hour", want: "100/hour"},
		{in: "3/DAY", want: "3/day"},
		{in: "5/30s", want: "5/30s"},
		{in: "off", want: "off"},
		{in: "OFF", want: "off"},
		{in: "10", err: `rate "10": want CALLS/PERIOD, such as 10/min, or off`},
		{in: "ten/min", err: `rate "ten/min": want CALLS/PERIOD, such as 10/min, or off`},
		{in: "10/fortnight", err: `rate "10/fortnight": the period "fortnight" is not sec, min, hour, day or a duration such as 30s`},
		{in: "0/min", err: "rate 0/1m0s: want at least 1 call per positive period, or off"},
		{in: "1/-5s", err: "rate 1/-5s: want at least 1 call per positive period, or off"},
	}
	for _, tt := range tests {
		r, err := ParseRate(tt.in)
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("ParseRate(%q) = %v, %v; want error %q", tt.in, r, err, tt.err)
			}
		case err != nil || r.String() != tt.want:
			t.Errorf("ParseRate(%q) = %v, %v; want %s", tt.in, r, err, tt.want)
		}
	}
}

// clock is a fake time source for the limiter.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func TestLimiterIsATokenBucketPerClient(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	l := New(Rate{Calls: 3, Per: time.Minute}, c.now)
	for i := range 3 {
		if _, ok := l.Allow("a"); !ok {
			t.Fatalf("call %d refused; a full bucket allows a burst of 3", i+1)
		}
	}
	// One call refills every 20 s. Asking again and again must not push
	// the next allowed call further out.
	for range 5 {
		if wait, ok := l.Allow("a"); ok || wait != 20*time.Second {
			t.Fatalf("4th call: ok=%v wait=%v; want a refusal with 20s to wait", ok, wait)
		}
	}
	if _, ok := l.Allow("b"); !ok {
		t.Error("client b is limited by client a's calls")
	}
	c.advance(15 * time.Second)
	if wait, ok := l.Allow("a"); ok || wait != 5*time.Second || RetryAfter(wait) != 5 {
		t.Errorf("after 15 s: ok=%v wait=%v", ok, wait)
	}
	c.advance(5 * time.Second)
	if _, ok := l.Allow("a"); !ok {
		t.Error("after 20 s one call is allowed again")
	}
	if _, ok := l.Allow("a"); ok {
		t.Error("and only one")
	}
}

func TestLimiterForgetsIdleClients(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)}
	l := New(Rate{Calls: 2, Per: time.Minute}, c.now)
	for i := range 100 {
		l.Allow("ip:10.0.0." + strings.Repeat("1", i%7+1))
	}
	l.Allow("busy")
	l.Allow("busy")
	if len(l.buckets) != 8 {
		t.Fatalf("%d buckets, want 8", len(l.buckets))
	}
	c.advance(time.Minute)
	l.Allow("busy") // sweeps: every other bucket is full again
	if len(l.buckets) != 1 {
		t.Errorf("%d buckets after a quiet minute, want 1 (busy)", len(l.buckets))
	}
}

func TestOffAllowsEverything(t *testing.T) {
	l := New(Off(), time.Now)
	for range 1000 {
		if _, ok := l.Allow("a"); !ok {
			t.Fatal("Off() refused a call")
		}
	}
}

func TestRetryAfterRoundsUp(t *testing.T) {
	for _, tt := range []struct {
		wait time.Duration
		want int
	}{{0, 0}, {time.Millisecond, 1}, {time.Second, 1}, {1001 * time.Millisecond, 2}, {720 * time.Second, 720}} {
		if got := RetryAfter(tt.wait); got != tt.want {
			t.Errorf("RetryAfter(%v) = %d, want %d", tt.wait, got, tt.want)
		}
	}
}

func TestRetryInSaysTheSeconds(t *testing.T) {
	for _, tt := range []struct {
		wait time.Duration
		want string
	}{{time.Millisecond, "1 second"}, {time.Second, "1 second"}, {1001 * time.Millisecond, "2 seconds"}, {6 * time.Second, "6 seconds"}} {
		if got := RetryIn(tt.wait); got != tt.want {
			t.Errorf("RetryIn(%v) = %q, want %q", tt.wait, got, tt.want)
		}
	}
}
