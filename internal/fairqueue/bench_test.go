package fairqueue_test

import (
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/fairqueue"
)

// benchLimits are the tool SDK's (intentbridge's): 64 in flight per
// caller and for the unnamed together, 2 running per caller.
var benchLimits = fairqueue.Limits{PerCaller: 64, Unvouched: 64, Running: 2}

// job stands for what intentbridge queues: a request and its caller.
type job struct{ request, caller string }

// BenchmarkOneAtATime is the queue as a tool mostly sees it: one caller
// with one request in flight at a time, pushed, popped and finished. In
// steady state it allocates nothing.
func BenchmarkOneAtATime(b *testing.B) {
	q := fairqueue.New[job](benchLimits)
	item := job{request: `{"mobile-mcp-request":{}}`, caller: "com.example.assistant"}
	who := fairqueue.Caller{ID: item.caller, Vouched: true}
	b.ReportAllocs()
	for b.Loop() {
		if err := q.Push(who, item); err != nil {
			b.Fatal(err)
		}
		_, t, ok := q.Pop()
		if !ok {
			b.Fatal("nothing to pop")
		}
		if _, _, ok := q.FinishAndPop(t); ok {
			b.Fatal("popped a second item")
		}
	}
}

// BenchmarkBusy is four callers, two of them Android does not name, each
// with eight requests in flight: every push finds its caller's group and
// queue there already.
func BenchmarkBusy(b *testing.B) {
	q := fairqueue.New[job](benchLimits)
	callers := []fairqueue.Caller{
		{ID: "com.example.assistant", Vouched: true}, {ID: "com.example.other", Vouched: true},
		{ID: "com.example.claimed"}, {ID: ""},
	}
	for range 8 {
		for _, c := range callers {
			if err := q.Push(c, job{caller: c.ID}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, t, ok := q.Pop()
		if !ok {
			b.Fatal("nothing to pop")
		}
		q.Finish(t)
		c := callers[i%len(callers)]
		i++
		if err := q.Push(c, job{caller: c.ID}); err != nil {
			b.Fatal(err)
		}
	}
}
