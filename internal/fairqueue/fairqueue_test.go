package fairqueue_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/fairqueue"
)

var (
	flood     = fairqueue.Caller{ID: "com.example.flood", Vouched: true}
	assistant = fairqueue.Caller{ID: "com.example.assistant", Vouched: true}
)

func claimed(id string) fairqueue.Caller { return fairqueue.Caller{ID: id} }

func vouched(id string) fairqueue.Caller { return fairqueue.Caller{ID: id, Vouched: true} }

// popAll pops until nothing may run, and returns the items in order with
// the funcs that finish them.
func popAll(q *fairqueue.Queue[string]) (items []string, done []func()) {
	for {
		item, t, ok := q.Pop()
		if !ok {
			return items, done
		}
		items = append(items, item)
		done = append(done, func() { q.Finish(t) })
	}
}

func TestACallerPastItsCapIsRefused_andNothingIsQueued(t *testing.T) {
	q := fairqueue.New[string](fairqueue.Limits{PerCaller: 3, Unvouched: 4, Running: 2})
	for i := range 3 {
		if err := q.Push(flood, fmt.Sprint("f", i)); err != nil {
			t.Fatal(err)
		}
	}
	err := q.Push(flood, "f-over")
	var full *fairqueue.FullError
	if !errors.As(err, &full) || *full != (fairqueue.FullError{Caller: flood, Limit: 3}) {
		t.Fatalf("Push = %v; want the caller's cap", err)
	}
	if waiting, running := q.Len(); waiting != 3 || running != 0 {
		t.Errorf("Len = %d, %d; want 3 waiting", waiting, running)
	}
	// Another caller is not held to the flood's cap.
	if err := q.Push(assistant, "a"); err != nil {
		t.Errorf("the assistant was refused: %v", err)
	}
	// An item that has run frees its place.
	_, done, _ := q.Pop()
	q.Finish(done)
	q.Finish(done) // a second call changes nothing
	if err := q.Push(flood, "f3"); err != nil {
		t.Errorf("after one ran: %v", err)
	}
	if err := q.Push(flood, "f4"); err == nil {
		t.Error("a second done freed a second place")
	}
}

// Callers Android does not vouch for share one cap: a flood that changes
// the package its callbacks claim gets no more in flight than one that
// keeps it, and neither does a request that claims no package at all.
func TestChangingTheClaimGainsNothing(t *testing.T) {
	q := fairqueue.New[string](fairqueue.Limits{PerCaller: 4, Unvouched: 4, Running: 2})
	for i := range 2 {
		for _, c := range []string{"com.example.a", "com.example.b"} {
			if err := q.Push(claimed(c), c+fmt.Sprint(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, c := range []fairqueue.Caller{claimed("com.example.c"), claimed("")} {
		var full *fairqueue.FullError
		if err := q.Push(c, "over"); !errors.As(err, &full) || !full.Shared || full.Limit != 4 {
			t.Errorf("%q: Push = %v; want the shared cap", c.ID, err)
		}
	}
	// A vouched caller of the same name is apart from the claims.
	if err := q.Push(fairqueue.Caller{ID: "com.example.a", Vouched: true}, "vouched"); err != nil {
		t.Errorf("the vouched app was refused for its name's claims: %v", err)
	}
}

// One caller with many items and one with a single item: the single item
// goes second, not after the flood, and the flood never runs more than
// Limits.Running at once.
func TestPopIsFair(t *testing.T) {
	q := fairqueue.New[string](fairqueue.Limits{PerCaller: 64, Unvouched: 64, Running: 2})
	for i := range 10 {
		q.Push(flood, fmt.Sprint("f", i))
	}
	q.Push(assistant, "a0")
	q.Push(assistant, "a1")
	q.Push(assistant, "a2")
	items, done := popAll(q)
	if want := []string{"f0", "a0", "f1", "a1"}; !slices.Equal(items, want) {
		t.Fatalf("popped %q; want %q", items, want)
	}
	// The assistant's f0 finishes: the assistant, now running fewer, goes next.
	done[1]()
	if items, _ := popAll(q); !slices.Equal(items, []string{"a2"}) {
		t.Errorf("popped %q; want the assistant's last", items)
	}
	done[0]()
	if items, _ := popAll(q); !slices.Equal(items, []string{"f2"}) {
		t.Errorf("popped %q; want the flood's next", items)
	}
}

// An app is the callers of one ID: what an Intent claims for it runs
// within the same Limits.Running as what it sends by binding, so calling
// both ways gains it no worker. Each app takes its turn, and the callers
// without a name are one app, which runs one fewer at once than an app
// does: an app running its two by name may be among them.
func TestOneAppRunsWithinOneLimitWhicheverWayItCalls(t *testing.T) {
	q := fairqueue.New[string](fairqueue.Limits{PerCaller: 64, Unvouched: 64, Running: 2})
	for i := range 3 {
		q.Push(vouched("com.example.a"), fmt.Sprint("bound", i))
		q.Push(claimed("com.example.a"), fmt.Sprint("claimed", i))
	}
	q.Push(claimed("com.example.b"), "b0")
	q.Push(claimed(""), "none0")
	q.Push(claimed(""), "none1")
	q.Push(claimed(""), "none2")
	items, done := popAll(q)
	if want := []string{"bound0", "b0", "none0", "claimed0"}; !slices.Equal(items, want) {
		t.Fatalf("popped %q; want %q", items, want)
	}
	done[0]()
	done[2]()
	if items, _ := popAll(q); !slices.Equal(items, []string{"none1", "bound1"}) {
		t.Errorf("popped %q; want the next without a name, running none now, then the app's next, in turn", items)
	}
}

// Many goroutines push and pop at once (run with -race): every item that
// was accepted runs exactly once, and no caller ever runs more than its
// share.
func TestConcurrentUse(t *testing.T) {
	limits := fairqueue.Limits{PerCaller: 8, Unvouched: 8, Running: 2}
	q := fairqueue.New[int](limits)
	var mu sync.Mutex
	ran := map[int]int{}
	running := map[int]int{}
	var wg sync.WaitGroup
	accepted := make(chan int, 1000)
	for c := range 5 {
		wg.Go(func() {
			for i := range 100 {
				item := c*1000 + i
				if q.Push(fairqueue.Caller{ID: fmt.Sprint(c), Vouched: c%2 == 0}, item) == nil {
					accepted <- item
				}
			}
		})
	}
	stop := make(chan struct{})
	var workers sync.WaitGroup
	for range 4 {
		workers.Go(func() {
			for {
				item, done, ok := q.Pop()
				if !ok {
					select {
					case <-stop:
						return
					default:
						continue
					}
				}
				group := item / 1000
				if group%2 != 0 {
					group = -1 // the unvouched run as one
				}
				mu.Lock()
				ran[item]++
				running[group]++
				if running[group] > limits.Running {
					t.Errorf("%d items of caller %d run at once", running[group], group)
				}
				mu.Unlock()
				mu.Lock()
				running[group]--
				mu.Unlock()
				q.Finish(done)
			}
		})
	}
	wg.Wait()
	close(accepted)
	for {
		if waiting, running := q.Len(); waiting == 0 && running == 0 {
			break
		}
	}
	close(stop)
	workers.Wait()
	n := 0
	for item := range accepted {
		n++
		if ran[item] != 1 {
			t.Errorf("item %d ran %d times", item, ran[item])
		}
	}
	if n != len(ran) {
		t.Errorf("%d items accepted, %d ran", n, len(ran))
	}
}

// A Ticket frees one place once: finishing it again after its caller's
// records were reused for another caller frees nothing of that caller's.
func TestAStaleTicketFreesNothing(t *testing.T) {
	q := fairqueue.New[string](fairqueue.Limits{PerCaller: 1, Unvouched: 1, Running: 1})
	if err := q.Push(flood, "f"); err != nil {
		t.Fatal(err)
	}
	_, stale, _ := q.Pop()
	q.Finish(stale) // the flood's records are idle now, and reused below
	if err := q.Push(assistant, "a"); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := q.Pop(); !ok {
		t.Fatal("the assistant's item did not run")
	}
	q.Finish(stale)
	q.Finish(fairqueue.Ticket[string]{})
	if waiting, running := q.Len(); waiting != 0 || running != 1 {
		t.Errorf("Len = %d, %d; want the assistant's item still running", waiting, running)
	}
	if err := q.Push(assistant, "a2"); err == nil {
		t.Error("a stale Ticket freed the assistant's place")
	}
}
