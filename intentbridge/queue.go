package intentbridge

import (
	"errors"
	"fmt"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/intentbridge/internal/access"
	"github.com/mobilemcp/mobilemcp/internal/fairqueue"
)

// The bounds on the requests a tool runs. Every transport's requests pass
// the same admission (Bridge.Queue and its siblings) before anything is
// queued, so one app's flood neither fills the heap nor holds the workers
// while another app waits.
const (
	// Workers is how many requests the Tool SDK runs at once, each on a
	// worker thread of its own that calls RunNext.
	Workers = 4
	// MaxRunningPerCaller is how many requests one app runs at once:
	// half the workers, so that another app's request finds a worker
	// free, or waits for one handler at most, however many requests the
	// first has queued. An app's requests count once whichever way they
	// came: by binding, and in Intents whose callback it created; the
	// callers without a name count as one app.
	MaxRunningPerCaller = Workers / 2
	// MaxInFlightPerCaller is how many requests one caller may have
	// queued or running; one more is answered rate_limited at once.
	MaxInFlightPerCaller = 64
	// MaxInFlightUnnamed is how many requests the callers Android does
	// not name (Intents, whose callback names only its creator, and
	// processes without a package) may have queued or running together,
	// whatever package their callbacks claim.
	MaxInFlightUnnamed = 64
)

// Done is told when a queued request has run, after its reply was
// delivered and its handler returned (Bridge.Queue). The tool service
// counts the requests it was started for with it, and stops after the
// last.
type Done interface {
	Done()
}

// job is a queued request and where its reply goes.
type job struct {
	request string
	caller  string
	claimed bool
	to      ReplyTarget
	done    Done
}

func newQueue() *fairqueue.Queue[job] {
	return fairqueue.New[job](fairqueue.Limits{PerCaller: MaxInFlightPerCaller, Unvouched: MaxInFlightUnnamed, Running: MaxRunningPerCaller})
}

// Queue admits a binding request of callerPackage (as Handle names it)
// and queues it for RunNext, which runs it as Handle does; done, if not
// nil, is told once it has. It returns false when it rejected the request
// instead, having answered to at once and queued nothing: too_large when
// the request is larger than the engine reads, rate_limited when the
// caller has MaxInFlightPerCaller requests queued or running already.
// Every transport passes this admission (QueueIntent, QueueShell).
func (b *Bridge) Queue(requestJSON, callerPackage string, to ReplyTarget, done Done) bool {
	return b.queue(job{request: requestJSON, caller: callerPackage, to: to, done: done})
}

// QueueIntent is Queue for a request that came in an Intent, whose caller
// is only claimed: callbackCreator is the package that created the
// callback PendingIntent (PendingIntent.getCreatorPackage), "" without a
// callback. An assistant hands such a PendingIntent to every tool it
// calls, and a tool can pass it on to us as its own callback, so the
// creator is not proof of who sent the request. Read-only capabilities run
// as in Handle. One that changes something is refused with
// permission_denied, which tells the caller to use binding mode: nobody is
// asked, no budget is used and nothing runs in the creator's name (the
// confused deputy; see docs/security.md). A request without a callback
// runs as Handle's with "". Besides its claimed package's cap, it counts
// against MaxInFlightUnnamed, which every caller Android does not name
// shares. It runs within the claimed package's MaxRunningPerCaller, with
// what that app sends by binding: an app that calls both ways runs no more
// at once than one that binds.
func (b *Bridge) QueueIntent(requestJSON, callbackCreator string, to ReplyTarget, done Done) bool {
	return b.queue(job{request: requestJSON, caller: callbackCreator, claimed: callbackCreator != "", to: to, done: done})
}

// QueueShell is Queue for a request that adb's shell sent through the
// tool's shell-only channel: the SDK's AdbProvider calls it only after
// checking that the Binder caller is the shell's uid (2000) or root's and
// holds android.permission.DUMP, which no app can be granted. The shell may
// run any capability without the user's consent (whoever holds adb controls
// the phone), rate limited like an app.
func (b *Bridge) QueueShell(requestJSON string, to ReplyTarget, done Done) bool {
	return b.queue(job{request: requestJSON, caller: access.ShellCaller, to: to, done: done})
}

func (b *Bridge) queue(j job) bool {
	if j.to == nil {
		b.log.Error("intentbridge: Queue was given no ReplyTarget; the request is dropped")
		return false
	}
	if err := capability.CheckSize(len(j.request), capability.DefaultMaxRequestBytes); err != nil {
		b.Reject(j.request, string(capability.CodeTooLarge), capability.AsError(err, capability.CodeTooLarge).Message, j.to)
		return false
	}
	caller := fairqueue.Caller{ID: j.caller, Vouched: j.caller != "" && !j.claimed}
	if err := b.work.Push(caller, j); err != nil {
		// Checked for first: errors.As would take full's address on every
		// request, which costs an allocation.
		if full, ok := errors.AsType[*fairqueue.FullError](err); ok {
			b.Reject(j.request, string(capability.CodeRateLimited), fullMessage(full), j.to)
			return false
		}
		b.Reject(j.request, string(capability.CodeInternalError), err.Error(), j.to)
		return false
	}
	return true
}

// fullMessage says which cap a rejected caller reached, and what to do.
func fullMessage(full *fairqueue.FullError) string {
	if full.Shared || full.Caller.ID == "" {
		return fmt.Sprintf("callers that Android does not name have %d requests in flight to this tool together, the most they may have:"+
			" an Intent names only the app that created its callback, which any app holding that callback can claim;"+
			" bind to the tool's service to have requests of your own, or send the next once one is answered", MaxInFlightUnnamed)
	}
	return fmt.Sprintf("%s has %d requests in flight to this tool, the most one app may have; send the next once one is answered",
		full.Caller.ID, full.Limit)
}

// RunNext runs queued requests on the calling thread, one after another,
// until none may run now, and reports whether it ran any. It chooses each
// so that no caller runs more than MaxRunningPerCaller at once and the
// caller running the fewest goes first. A worker calls it after each
// request it is handed: a request that had to wait for one of its
// caller's to finish runs on the worker that finished it.
func (b *Bridge) RunNext() bool {
	j, t, ok := b.work.Pop()
	if !ok {
		return false
	}
	for ok {
		b.handle(j.request, j.caller, j.claimed, j.to)
		done := j.done
		// One step frees this request's place and takes the next.
		j, t, ok = b.work.FinishAndPop(t)
		if done != nil {
			b.tellDone(done)
		}
	}
	return true
}

// tellDone calls done.Done, which is Java's: a panic it causes stays here.
func (b *Bridge) tellDone(done Done) {
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("intentbridge: Done failed", "error", p)
		}
	}()
	done.Done()
}
