package capability_test

import (
	"context"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// A request id names one request of its caller: a retry with the same
// arguments, however written, is answered from the store, and one with
// other arguments, even a single character other, is refused and does not
// run.
func TestARetryWithOtherArgumentsIsRefused(t *testing.T) {
	var runs int
	c := capability.Capability{
		ID: "send", Description: "Sends a text.", Version: "1.0",
		Input: []capability.Param{
			{Name: "to", Type: capability.String, Required: true, Description: "who"},
			{Name: "text", Type: capability.String, Required: true, Description: "what"},
			{Name: "sim", Type: capability.Integer, Description: "which SIM"},
		},
		Handler: func(context.Context, capability.Args) (capability.Result, error) {
			runs++
			return capability.Result{Message: "sent"}, nil
		},
	}
	reg, err := capability.NewRegistry(c)
	if err != nil {
		t.Fatal(err)
	}
	store, err := replystore.Open(replystore.Options{Path: t.TempDir() + "/replies"})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	eng := capability.NewEngine(reg, capability.Options{Replies: store})
	send := func(args string) string {
		raw := spec(`{"id":"once","capability":{"id":"send","args":` + args + `}}`)
		return string(eng.Do(context.Background(), capability.NewCall([]byte(raw), capability.Caller{ID: "app", Vouched: true}, nil)).JSON())
	}
	sent := specReply(`{"id":"once","capability":{"id":"send"},"status":"success","message":"sent"}`)
	refused := specReply(`{"id":"once","capability":{"id":"send"},"status":"failure","message":"request id \"once\" was already used for a different request in the last 10m0s; send a new id for a new request","error_code":"invalid_request"}`)
	for _, step := range []struct {
		name, args, want string
	}{
		{"the first request runs", `{"to":"+441","text":"hi","sim":14}`, sent},
		{"its retry is replayed", `{"to":"+441","text":"hi","sim":14}`, sent},
		{"in another order, with the SIM as a string, it is the same request", `{"sim":"14","text":"hi","to":"+441"}`, sent},
		{"another text is refused", `{"to":"+441","text":"hI","sim":14}`, refused},
		{"another recipient is refused", `{"to":"+442","text":"hi","sim":14}`, refused},
		{"another SIM is refused", `{"to":"+441","text":"hi","sim":17}`, refused},
		{"leaving an argument out is refused", `{"to":"+441","text":"hi"}`, refused},
		{"moving text between arguments is refused", `{"to":"+441hi","text":"","sim":14}`, refused},
	} {
		if got := send(step.args); got != step.want {
			t.Errorf("%s:\n got %s\nwant %s", step.name, got, step.want)
		}
	}
	if runs != 1 {
		t.Errorf("the capability ran %d times; want once", runs)
	}
}
