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
// within one Limits.Running, so calling both ways gains it nothing (their
// caps on work in flight stay apart, so a claim cannot use up the app's
// own). The callers without a name are one app here, which runs one fewer
// than Limits.Running at once, since any app may be among them.
//
// Every request of a tool passes through a Queue, so in steady state it
// allocates nothing: the records of a caller whose work has all run are
// kept for the next caller, and an item's place is freed with a Ticket, a
// plain value, rather than a func.
package fairqueue

import (
	"fmt"
	"slices"
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
	// Running is the most work one app runs at once. Below the number
	// of workers, it leaves a worker for another app. The callers
	// without a name run one fewer together (at least one): an app that
	// runs its most by name may be among them too, and so holds fewer
	// workers than two apps do.
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
	groups map[groupKey]*group[T]
	// turn lists the groups with work waiting, in the order they take
	// turns: a group served moves to the back.
	turn []*group[T]
	// seq numbers the items handed out, so that a Ticket names one.
	seq uint64
	// unvouched is the work in flight of the callers Android does not
	// vouch for, together: at most Limits.Unvouched.
	unvouched int
	// idleGroups and idleCallers are records whose work has all run,
	// kept for reuse (at most maxIdle of each): a caller that sends one
	// request at a time would otherwise need new ones for each.
	idleGroups  []*group[T]
	idleCallers []*caller[T]
}

// maxIdle bounds the records a Queue keeps for reuse: enough for the few
// callers a tool serves at once, and no more, so that a burst of many
// callers does not stay in memory.
const maxIdle = 8

// groupKey names a group: an app, the callers of one ID whether Android
// vouches for them or not; the zero key is the callers without a name.
type groupKey struct {
	id string
}

func keyOf(c Caller) groupKey { return groupKey{id: c.ID} }

// callerKey names c within its app's group: the caller Android vouches
// for and the one an Intent claims have records, and caps, of their own.
// No vouched caller's ID starts with NUL.
func callerKey(c Caller) string {
	if c.Vouched {
		return c.ID
	}
	return "\x00" + c.ID
}

// group is the work of one app: the callers of one ID.
type group[T any] struct {
	key      groupKey
	inFlight int
	waiting  int
	running  []uint64              // the seq of each item that runs
	callers  map[string]*caller[T] // by callerKey
	turn     []*caller[T]          // those with work waiting, in turn
}

// caller is one caller's work within its group.
type caller[T any] struct {
	id       string // callerKey
	vouched  bool
	inFlight int
	queue    []T // waiting from queue[head] on
	head     int
}

// Ticket is an item Pop handed out. Give it to Finish once the item has
// run, to free its place. Its zero value names no item.
type Ticket[T any] struct {
	g   *group[T]
	who *caller[T]
	seq uint64
}

// New returns an empty queue with limits.
func New[T any](limits Limits) *Queue[T] {
	if limits.PerCaller < 1 || limits.Unvouched < 1 || limits.Running < 1 {
		panic(fmt.Sprintf("fairqueue: every limit must be at least 1: %+v", limits))
	}
	return &Queue[T]{limits: limits, groups: map[groupKey]*group[T]{}}
}

// Push queues item for c, or refuses it with a *FullError, queueing
// nothing, when c or the unvouched callers together are at their cap.
func (q *Queue[T]) Push(c Caller, item T) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	key := keyOf(c)
	g := q.groups[key]
	var who *caller[T]
	if g != nil {
		who = g.callers[callerKey(c)]
	}
	switch {
	case who != nil && who.inFlight >= q.limits.PerCaller:
		return &FullError{Caller: c, Limit: q.limits.PerCaller}
	case !c.Vouched && q.unvouched >= q.limits.Unvouched:
		return &FullError{Caller: c, Shared: true, Limit: q.limits.Unvouched}
	}
	if g == nil {
		g = q.newGroup(key)
		q.groups[key] = g
	}
	if who == nil {
		who = q.newCaller(c)
		g.callers[who.id] = who
	}
	who.inFlight++
	g.inFlight++
	if !c.Vouched {
		q.unvouched++
	}
	if who.waiting() == 0 {
		g.turn = append(g.turn, who)
	}
	who.push(item)
	if g.waiting == 0 {
		q.turn = append(q.turn, g)
	}
	g.waiting++
	return nil
}

// Pop takes the next item to run, fairly, and the Ticket to give Finish
// once it has run. ok is false when no item may run now: none waits, or
// every caller with work waiting runs its most already (Limits.Running).
func (q *Queue[T]) Pop() (item T, t Ticket[T], ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pop()
}

// Finish frees the place of the item that t names, which has run. A
// second Finish of the same Ticket, or of the zero Ticket, does nothing.
func (q *Queue[T]) Finish(t Ticket[T]) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.finish(t)
}

// FinishAndPop is Finish of done and then Pop, in one step: what a worker
// does between one item and the next.
func (q *Queue[T]) FinishAndPop(done Ticket[T]) (item T, t Ticket[T], ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.finish(done)
	return q.pop()
}

// pop is Pop, with q.mu held.
func (q *Queue[T]) pop() (item T, t Ticket[T], ok bool) {
	at := -1
	for i, g := range q.turn {
		if len(g.running) < q.running(g) && (at < 0 || len(g.running) < len(q.turn[at].running)) {
			at = i
		}
	}
	if at < 0 {
		return item, t, false
	}
	g := q.turn[at]
	who := g.turn[0]
	item = who.pop()
	g.turn = slices.Delete(g.turn, 0, 1) // in place; it clears the freed slot
	if who.waiting() > 0 {
		g.turn = append(g.turn, who)
	}
	g.waiting--
	q.seq++
	g.running = append(g.running, q.seq)
	q.turn = slices.Delete(q.turn, at, at+1)
	if g.waiting > 0 {
		q.turn = append(q.turn, g)
	}
	return item, Ticket[T]{g: g, who: who, seq: q.seq}, true
}

// running is the most work g runs at once: Limits.Running, and one fewer
// (at least one) for the callers without a name, among whom an app that
// runs its most by name may be.
func (q *Queue[T]) running(g *group[T]) int {
	if g.key.id == "" {
		return max(1, q.limits.Running-1)
	}
	return q.limits.Running
}

// finish is Finish, with q.mu held.
func (q *Queue[T]) finish(t Ticket[T]) {
	if t.g == nil {
		return
	}
	g, who := t.g, t.who
	i := slices.Index(g.running, t.seq)
	if i < 0 {
		return // finished already
	}
	g.running = slices.Delete(g.running, i, i+1)
	g.inFlight--
	who.inFlight--
	if !who.vouched {
		q.unvouched--
	}
	if who.inFlight == 0 {
		delete(g.callers, who.id)
		if len(q.idleCallers) < maxIdle {
			who.id = ""
			q.idleCallers = append(q.idleCallers, who)
		}
	}
	if g.inFlight == 0 {
		delete(q.groups, g.key)
		if len(q.idleGroups) < maxIdle {
			g.key = groupKey{}
			q.idleGroups = append(q.idleGroups, g)
		}
	}
}

// newGroup returns an empty group for key, reusing an idle one.
func (q *Queue[T]) newGroup(key groupKey) *group[T] {
	if n := len(q.idleGroups); n > 0 {
		g := q.idleGroups[n-1]
		q.idleGroups[n-1] = nil
		q.idleGroups = q.idleGroups[:n-1]
		g.key = key
		return g
	}
	return &group[T]{key: key, callers: map[string]*caller[T]{}}
}

// newCaller returns an empty record of c, reusing an idle one.
func (q *Queue[T]) newCaller(c Caller) *caller[T] {
	if n := len(q.idleCallers); n > 0 {
		who := q.idleCallers[n-1]
		q.idleCallers[n-1] = nil
		q.idleCallers = q.idleCallers[:n-1]
		who.id, who.vouched = callerKey(c), c.Vouched
		return who
	}
	return &caller[T]{id: callerKey(c), vouched: c.Vouched}
}

// waiting is how many items of who wait.
func (who *caller[T]) waiting() int { return len(who.queue) - who.head }

// push appends item to who's queue. When the queue's array is full but
// items were taken from its front, the waiting ones move down to make room
// rather than the array growing.
func (who *caller[T]) push(item T) {
	if who.head > 0 && len(who.queue) == cap(who.queue) {
		n := copy(who.queue, who.queue[who.head:])
		clear(who.queue[n:])
		who.queue = who.queue[:n]
		who.head = 0
	}
	who.queue = append(who.queue, item)
}

// pop takes the first waiting item of who, which has one.
func (who *caller[T]) pop() T {
	var zero T
	item := who.queue[who.head]
	who.queue[who.head] = zero // drop the queue's reference
	who.head++
	if who.head == len(who.queue) {
		who.queue, who.head = who.queue[:0], 0
	}
	return item
}

// Len returns how many items wait, and how many run.
func (q *Queue[T]) Len() (waiting, running int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, g := range q.groups {
		waiting += g.waiting
		running += len(g.running)
	}
	return waiting, running
}
