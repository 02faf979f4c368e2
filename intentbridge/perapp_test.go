package intentbridge

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// An app that calls by binding and in Intents at once is one app: its
// slow calls take two of the four workers, whichever way they came, and
// the next assistant finds a worker free.
func TestOneAppRunsTwoAtOnceAcrossTransports(t *testing.T) {
	b := notesBridge(t)
	var to replies
	const flood = "com.example.flood"
	for i := range 3 {
		b.Queue(listNotes(fmt.Sprint("bound-", i)), flood, &to, nil)
		b.QueueIntent(listNotes(fmt.Sprint("intent-", i)), flood, &to, nil)
	}
	running := takeWorkers(b)
	if len(running) != MaxRunningPerCaller {
		t.Errorf("the workers run %q; want %d of %s's calls, whichever way they came", running, MaxRunningPerCaller, flood)
	}
	b.Queue(listNotes("assistant"), testAgent, &to, nil)
	if j, _, ok := b.work.Pop(); !ok || j.caller != testAgent {
		t.Errorf("a free worker took %+v, %v; want the assistant's call", j, ok)
	}
}

// takeWorkers lets every worker take what it may of b's queue, as
// "caller request-id", each call slow: none finishes.
func takeWorkers(b *Bridge) []string {
	var running []string
	for range Workers {
		j, _, ok := b.work.Pop()
		if !ok {
			break
		}
		running = append(running, j.caller+" "+requestIDOf(j.request))
	}
	return running
}

// requestIDOf is the id of a request listNotes made.
func requestIDOf(request string) string {
	_, rest, _ := strings.Cut(request, `"id":"`)
	id, _, _ := strings.Cut(rest, `"`)
	return id
}

// Intents without a callback (a debuggable build, or the developer
// switch on) name no app, so their sender may be an app that already
// runs its two by binding: together the callers without a name run one
// fewer than an app, so that such an app holds three of the four workers
// at most, and the next assistant finds one free.
func TestIntentsWithoutACallbackGiveAnAppNoFourthWorker(t *testing.T) {
	b := notesBridge(t)
	var to replies
	const flood = "com.example.flood"
	for i := range 3 {
		b.Queue(listNotes(fmt.Sprint("bound-", i)), flood, &to, nil)
		b.QueueIntent(listNotes(fmt.Sprint("nameless-", i)), "", &to, nil)
	}
	running := takeWorkers(b)
	if want := []string{flood + " bound-0", " nameless-0", flood + " bound-1"}; !slices.Equal(running, want) {
		t.Errorf("the workers run %q; want %q, leaving one free", running, want)
	}
	b.Queue(listNotes("assistant"), testAgent, &to, nil)
	if j, _, ok := b.work.Pop(); !ok || j.caller != testAgent {
		t.Errorf("the free worker took %+v, %v; want the assistant's call", j, ok)
	}
}
