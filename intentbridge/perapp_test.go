package intentbridge

import (
	"fmt"
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
	var running []string
	for range Workers {
		j, _, ok := b.work.Pop() // a worker takes it, and the call is slow: it does not finish
		if !ok {
			break
		}
		running = append(running, j.caller+" "+requestIDOf(j.request))
	}
	if len(running) != MaxRunningPerCaller {
		t.Errorf("the workers run %q; want %d of %s's calls, whichever way they came", running, MaxRunningPerCaller, flood)
	}
	b.Queue(listNotes("assistant"), testAgent, &to, nil)
	if j, _, ok := b.work.Pop(); !ok || j.caller != testAgent {
		t.Errorf("a free worker took %+v, %v; want the assistant's call", j, ok)
	}
}

// requestIDOf is the id of a request listNotes made.
func requestIDOf(request string) string {
	_, rest, _ := strings.Cut(request, `"id":"`)
	id, _, _ := strings.Cut(rest, `"`)
	return id
}
