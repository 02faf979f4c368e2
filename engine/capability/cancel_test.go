package capability_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// A call its caller cancelled does not run if it has not started, and a
// handler that sees the cancellation before its platform call stops there.
// Either way the reply says so and is not kept: the same request id runs
// when it comes again.
func TestCancelledCallsDoNothingAndAreNotKept(t *testing.T) {
	var reached, sent atomic.Int32
	c := capability.Capability{
		ID: "send", Description: "Sends.", Version: "1.0",
		Handler: func(ctx context.Context, _ capability.Args) (capability.Result, error) {
			reached.Add(1)
			if capability.Cancelled(ctx) {
				return capability.Result{}, capability.ErrCancelled
			}
			sent.Add(1)
			return capability.Result{Message: "sent"}, nil
		},
	}
	reg, err := capability.NewRegistry(c)
	if err != nil {
		t.Fatal(err)
	}
	store, _ := replystore.Open(replystore.Options{})
	eng := capability.NewEngine(reg, capability.Options{Replies: store})
	caller := capability.Caller{ID: "app", Vouched: true}
	call := func(id string, cancelled func() bool) *capability.Reply {
		return eng.Do(context.Background(), capability.NewCall([]byte(spec(`{"id":"`+id+`","capability":{"id":"send"}}`)), caller, nil).WithCancelled(cancelled))
	}
	yes := func() bool { return true }

	r := call("before", yes)
	want := specReply(`{"id":"before","capability":{"id":"send"},"status":"failure","message":"send was cancelled by its caller before it did anything","error_code":"timeout"}`)
	if !r.Cancelled || string(r.JSON()) != want || reached.Load() != 0 {
		t.Errorf("cancelled before it ran: Cancelled %v, %d runs, reply %s\nwant %s", r.Cancelled, reached.Load(), r.JSON(), want)
	}

	// Cancelled once the handler has started: true from its second look on.
	var looks atomic.Int32
	r = call("during", func() bool { return looks.Add(1) > 1 })
	want = specReply(`{"id":"during","capability":{"id":"send"},"status":"failure","message":"send was cancelled by its caller before it did anything","error_code":"timeout"}`)
	if !r.Cancelled || string(r.JSON()) != want || reached.Load() != 1 || sent.Load() != 0 {
		t.Errorf("cancelled in the handler: Cancelled %v, %d sent, reply %s\nwant %s", r.Cancelled, sent.Load(), r.JSON(), want)
	}

	for _, id := range []string{"before", "during"} {
		if r := call(id, nil); r.Failed() || r.Replayed || r.Cancelled {
			t.Errorf("%s again, not cancelled: %s (replayed %v)", id, r.JSON(), r.Replayed)
		}
	}
	if sent.Load() != 2 {
		t.Errorf("%d sends, want the 2 retries", sent.Load())
	}
}
