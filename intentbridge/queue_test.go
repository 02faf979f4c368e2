package intentbridge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// doneCount is a Done that counts.
type doneCount struct{ n atomic.Int32 }

func (d *doneCount) Done() { d.n.Add(1) }

// notesBridge serves list_notes, whose handler returns the request id it
// ran, on a bridge with nothing queued.
func notesBridge(t *testing.T) *Bridge {
	t.Helper()
	tool := NewTool("res/xml/mcp_capabilities.xml", compiled(listNotesDescriptor))
	tool.SetHandler("list_notes", handlerFunc(func(_, requestID, _ string, _ int64) (string, error) {
		return `{"message":"` + requestID + `","output":{"count":0,"notes":[]}}`, nil
	}))
	return openSMS(t, tool, "")
}

func listNotes(id string) string {
	return `{"mobile-mcp-request":{"version":"1.0","request":{"id":"` + id + `","capability":{"id":"list_notes","args":{}}}}}`
}

// message is the message of a reply.
func message(t *testing.T, s *sent) string {
	t.Helper()
	var r struct {
		Spec struct {
			Response struct{ Message string }
		} `json:"mobile-mcp-response"`
	}
	if err := json.Unmarshal([]byte(s.spec), &r); err != nil {
		t.Fatal(err)
	}
	return r.Spec.Response.Message
}

// Binding, an Intent (with a callback or without) and adb's shell each
// pass the same admission before anything is queued: an oversized request
// is answered too_large, and one past the caller's cap rate_limited, at
// once; the queue holds nothing of either, and Done is not told of them.
func TestEveryTransportPassesOneAdmission(t *testing.T) {
	for _, tt := range []struct {
		name   string
		queue  func(b *Bridge, request string, to ReplyTarget, done Done) bool
		caller string
	}{
		{"binding", func(b *Bridge, r string, to ReplyTarget, d Done) bool { return b.Queue(r, testAgent, to, d) }, testAgent},
		{"an Intent", func(b *Bridge, r string, to ReplyTarget, d Done) bool { return b.QueueIntent(r, testAgent, to, d) }, testAgent},
		{"the shell", func(b *Bridge, r string, to ReplyTarget, d Done) bool { return b.QueueShell(r, to, d) }, "(adb shell)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := notesBridge(t)
			var to replies
			var done doneCount
			big := listNotes(strings.Repeat("x", capability.DefaultMaxRequestBytes))
			if tt.queue(b, big, &to, &done) {
				t.Fatal("an oversized request was queued")
			}
			for i := range MaxInFlightPerCaller {
				if !tt.queue(b, listNotes(fmt.Sprint("r", i)), &to, &done) {
					t.Fatalf("request %d was refused: %s", i, to.all()[len(to.all())-1].spec)
				}
			}
			if tt.queue(b, listNotes("over"), &to, &done) {
				t.Fatal("the request past the cap was queued")
			}
			got := to.all()
			if len(got) != 2 {
				t.Fatalf("%d replies before any ran; want the two refusals", len(got))
			}
			if got[0].code != "too_large" || message(t, got[0]) != fmt.Sprintf("request is %d bytes; the limit is 65536", len(big)) {
				t.Errorf("the oversized request got %s", got[0].spec)
			}
			if want := tt.caller + " has 64 requests in flight to this tool, the most one app may have; send the next once one is answered"; got[1].code != "rate_limited" || got[1].id != "over" || message(t, got[1]) != want {
				t.Errorf("the request past the cap got %s", got[1].spec)
			}
			if waiting, running := b.work.Len(); waiting != MaxInFlightPerCaller || running != 0 {
				t.Errorf("queued %d, running %d; want the cap's worth waiting", waiting, running)
			}
			for b.RunNext() {
			}
			if len(to.all()) != 2+MaxInFlightPerCaller || done.n.Load() != MaxInFlightPerCaller {
				t.Errorf("%d replies, %d done; want every queued request run once", len(to.all()), done.n.Load())
			}
		})
	}
}

// Intents whose callbacks claim two packages, then a third, then none:
// the callers Android does not name share one budget.
func TestIntentsShareOneBudgetWhateverTheyClaim(t *testing.T) {
	b := notesBridge(t)
	var to replies
	for i := range MaxInFlightUnnamed / 2 {
		for _, claim := range []string{"com.example.a", "com.example.b"} {
			if !b.QueueIntent(listNotes(claim+fmt.Sprint(i)), claim, &to, nil) {
				t.Fatalf("%s %d was refused", claim, i)
			}
		}
	}
	for _, claim := range []string{"com.example.c", ""} {
		if b.QueueIntent(listNotes("over"), claim, &to, nil) {
			t.Errorf("%q: queued past the shared budget", claim)
		}
	}
	want := "callers that Android does not name have 64 requests in flight to this tool together, the most they may have:" +
		" an Intent names only the app that created its callback, which any app holding that callback can claim;" +
		" bind to the tool's service to have requests of your own, or send the next once one is answered"
	for _, r := range to.all() {
		if r.code != "rate_limited" || message(t, r) != want {
			t.Errorf("got %s", r.spec)
		}
	}
	// An app that binds is named, and apart from the claims.
	if !b.Queue(listNotes("bound"), "com.example.a", &to, nil) {
		t.Error("the bound app was refused for the Intents' budget")
	}
}

// One app queued ten requests before the assistant's one; with a single
// worker, the assistant's runs second, not eleventh.
func TestTheAssistantRunsBeforeTheFlood(t *testing.T) {
	b := notesBridge(t)
	var to replies
	for i := range 10 {
		b.Queue(listNotes(fmt.Sprint("flood-", i)), "com.example.flood", &to, nil)
	}
	b.Queue(listNotes("assistant"), testAgent, &to, nil)
	for b.RunNext() {
	}
	var order []string
	for _, r := range to.all() {
		order = append(order, r.id)
	}
	if i := slices.Index(order, "assistant"); i != 1 {
		t.Errorf("the assistant's request ran as number %d of %q", i+1, order)
	}
}
