// Package fairqueue holds the work of many callers for a small pool of
// workers, so that one caller's flood neither fills memory nor keeps the
// workers from anyone else.
//
// A caller is who sent the work as its transport knows it: one Android
// vouches for (a binding's uid, adb's shell), or one it does not (an
// Intent, which names only the app that created its callback, and which any
// app holding that callback can claim). Each caller has a cap on its work
// in flight (queued or running); the callers Android does not vouch for
// also share one cap between them, so that changing the claimed name gains
// nothing. Beyond a cap, Push refuses at once, before anything is queued.
//
// Pop hands out work fairly: an app runs at most Limits.Running items at
// once, and of the apps with work waiting, the one running the fewest goes
// first, ties taken in turn. An app is the callers of one ID, vouched for
// or not: its work by binding and the work an Intent claims for it run
// within one Limits.Running, so calling both ways gains an app nothing.
// The callers without a name are one app here.
package fairqueue

import (
	"fmt"
	"sync"
)

// Caller is who sent a piece of work.
type Caller struct {
	// ID names the caller; "" for one with no name.
	ID string
	// Vouched reports that Android vouches for ID.
	Vouched bool
}

// Limits bound a Queue. Every field must be at least 1.
type Limits struct {
	// PerCaller is the most work one caller may have in flight.
	PerCaller int
	// Unvouched is the most work the callers Android does not vouch for
	// may have in flight together.
	Unvouched int
	// Running is the most work the callers of one ID run at once,
	// vouched for or not, and the callers without a name together.
	// Below the number of workers, it leaves a worker for another app.
	Running int
}

// FullError is Push's refusal: the caller, or all the callers Android does
// not vouch for together (Shared), have Limit items in flight already.
type FullError struct {
	Caller Caller
	Shared bool
	Limit  int
}

func (e *FullError) Error() string {
	if e.Shared {
		return fmt.Sprintf("fairqueue: the callers Android does not vouch for have %d items in flight, their limit together", e.Limit)
	}
	return fmt.Sprintf("fairqueue: %q has %d items in flight, its limit", e.Caller.ID, e.Limit)
}

// Queue holds work of type T. Its zero value is not usable; make one with
// New. It is safe for concurrent use.
type Queue[T any] struct {
	limits Limits

	mu     sync.Mutex
	groups map[string]*group[T] // by Caller.ID
	// turn lists the groups with work waiting, in the order they take
	// turns: a group served moves to the back.
	turn []*group[T]
	// unvouched is the work in flight of every caller Android does not
	// vouch for, held to Limits.Unvouched.
	unvouched int
}

// group is the work of one app: the callers of one ID, the one Android
// vouches for and the one only claimed, which run within one
// Limits.Running.
type group[T any] struct {
	key      string
	inFlight int
	running  int
	waiting  int
	callers  map[Caller]*caller[T]
	turn     []*caller[T] // those with work waiting, in turn
}

// caller is one caller's work within its group.
type caller[T any] struct {
	id       Caller
	inFlight int
	queue    []T
}

// New returns an empty queue with limits.
func New[T any](limits Limits) *Queue[T] {
	if limits.PerCaller < 1 || limits.Unvouched < 1 || limits.Running < 1 {
		panic(fmt.Sprintf("fairqueue: every limit must be at least 1: %+v", limits))
	}
	return &Queue[T]{limits: limits, groups: map[string]*group[T]{}}
}

// Push queues item for c, or refuses it with a *FullError, queueing
// nothing, when c or the unvouched callers together are at their cap.
func (q *Queue[T]) Push(c Caller, item T) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	g := q.groups[c.ID]
	if g == nil {
		g = &group[T]{key: c.ID, callers: map[Caller]*caller[T]{}}
	}
	who := g.callers[c]
	if who == nil {
		who = &caller[T]{id: c}
	}
	switch {
	case who.inFlight >= q.limits.PerCaller:
		return &FullError{Caller: c, Limit: q.limits.PerCaller}
	case !c.Vouched && q.unvouched >= q.limits.Unvouched:
		return &FullError{Caller: c, Shared: true, Limit: q.limits.Unvouched}
	}
	q.groups[g.key] = g
	g.callers[c] = who
	who.inFlight++
	g.inFlight++
	if !c.Vouched {
		q.unvouched++
	}
	if len(who.queue) == 0 {
		g.turn = append(g.turn, who)
	}
	who.queue = append(who.queue, item)
	if g.waiting == 0 {
		q.turn = append(q.turn, g)
	}
	g.waiting++
	return nil
}

// Pop takes the next item to run, fairly, and the func to call once it
// has finished, which frees its place. ok is false when no item may run
// now: none waits, or every caller with work waiting runs its most
// already (Limits.Running).
func (q *Queue[T]) Pop() (item T, done func(), ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	at := -1
	for i, g := range q.turn {
		if g.running < q.limits.Running && (at < 0 || g.running < q.turn[at].running) {
			at = i
		}
	}
	if at < 0 {
		return item, nil, false
	}
	g := q.turn[at]
	who := g.turn[0]
	item, who.queue[0] = who.queue[0], item // drop the queue's reference
	who.queue = who.queue[1:]
	g.turn = g.turn[1:]
	if len(who.queue) > 0 {
		g.turn = append(g.turn, who)
	}
	g.waiting--
	g.running++
	q.turn = append(q.turn[:at], q.turn[at+1:]...)
	if g.waiting > 0 {
		q.turn = append(q.turn, g)
	}
	var once sync.Once
	return item, func() { once.Do(func() { q.finish(g, who) }) }, true
}

// finish frees the place of an item of who, in g, that has run.
func (q *Queue[T]) finish(g *group[T], who *caller[T]) {
	q.mu.Lock()
	defer q.mu.Unlock()
	g.running--
	g.inFlight--
	who.inFlight--
	if !who.id.Vouched {
		q.unvouched--
	}
	if who.inFlight == 0 {
		delete(g.callers, who.id)
	}
	if g.inFlight == 0 {
		delete(q.groups, g.key)
	}
}

// Len returns how many items wait, and how many run.
func (q *Queue[T]) Len() (waiting, running int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, g := range q.groups {
		waiting += g.waiting
		running += g.running
	}
	return waiting, running
}
