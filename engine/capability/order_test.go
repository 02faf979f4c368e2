package capability_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// orderProbe is a capability that changes state, with a Validate of its
// own, counting how often admission and the handler are reached.
type orderProbe struct {
	admits, runs atomic.Int32
	refuse       atomic.Bool // admission refuses while set
}

func (p *orderProbe) engine(t *testing.T) (*capability.Engine, capability.Admission) {
	t.Helper()
	c := capability.Capability{
		ID: "post", Description: "Posts a word.", Version: "1.0",
		Input: []capability.Param{{Name: "word", Type: capability.String, Required: true, Description: "a word"}},
		Validate: func(args capability.Args) error {
			switch args.String("word") {
			case "bad":
				return errors.New("word must not be bad")
			case "coded":
				return capability.Errorf(capability.CodeInternalError, "the check itself failed")
			case "boom":
				panic("the check tripped")
			}
			return nil
		},
		Handler: func(context.Context, capability.Args) (capability.Result, error) {
			p.runs.Add(1)
			return capability.Result{Message: "posted"}, nil
		},
	}
	reg, err := capability.NewRegistry(c)
	if err != nil {
		t.Fatal(err)
	}
	store, _ := replystore.Open(replystore.Options{})
	admit := func(context.Context, capability.Caller, *capability.Capability) error {
		p.admits.Add(1)
		if p.refuse.Load() {
			return capability.Errorf(capability.CodeRateLimited, "slow down")
		}
		return nil
	}
	return capability.NewEngine(reg, capability.Options{Replies: store}), admit
}

// TestEngineOrder holds the engine to its one order on every path: decode,
// bind, the capability's own Validate, the reply store, admission, run.
func TestEngineOrder(t *testing.T) {
	var p orderProbe
	eng, admit := p.engine(t)
	app := capability.Caller{ID: "app", Vouched: true}
	post := func(id, word string) string {
		return string(eng.Do(context.Background(), capability.NewCall([]byte(spec(`{"id":"`+id+`","capability":{"id":"post","args":{"word":`+word+`}}}`)), app, admit)).JSON())
	}
	steps := []struct {
		name, id, word, want string
		admits, runs         int32
	}{
		{"a mistyped argument is refused before admission", "t1", `5`,
			specReply(`{"id":"t1","capability":{"id":"post"},"status":"failure","message":"post: word must be a string, got number 5","error_code":"invalid_arguments"}`), 0, 0},
		{"so is one Validate refuses, with its message", "t2", `"bad"`,
			specReply(`{"id":"t2","capability":{"id":"post"},"status":"failure","message":"word must not be bad","error_code":"invalid_arguments"}`), 0, 0},
		{"Validate's coded error keeps its code", "t3", `"coded"`,
			specReply(`{"id":"t3","capability":{"id":"post"},"status":"failure","message":"the check itself failed","error_code":"internal_error"}`), 0, 0},
		{"a panicking Validate is an internal error", "t4", `"boom"`,
			specReply(`{"id":"t4","capability":{"id":"post"},"status":"failure","message":"post's argument check failed with an internal error: the check tripped","error_code":"internal_error"}`), 0, 0},
		{"a valid call is admitted and runs", "ok", `"fine"`,
			specReply(`{"id":"ok","capability":{"id":"post"},"status":"success","message":"posted"}`), 1, 1},
		{"its retry is replayed before admission", "ok", `"fine"`,
			specReply(`{"id":"ok","capability":{"id":"post"},"status":"success","message":"posted"}`), 1, 1},
	}
	for _, s := range steps {
		if got := post(s.id, s.word); got != s.want || p.admits.Load() != s.admits || p.runs.Load() != s.runs {
			t.Errorf("%s:\n got %s, %d admitted, %d run\nwant %s, %d, %d", s.name, got, p.admits.Load(), p.runs.Load(), s.want, s.admits, s.runs)
		}
	}

	// A refusal by admission is not kept: once admitted, the same id runs.
	p.refuse.Store(true)
	if got, want := post("later", `"fine"`), specReply(`{"id":"later","capability":{"id":"post"},"status":"failure","message":"slow down","error_code":"rate_limited"}`); got != want {
		t.Errorf("refused:\n got %s\nwant %s", got, want)
	}
	p.refuse.Store(false)
	if got := post("later", `"fine"`); got != specReply(`{"id":"later","capability":{"id":"post"},"status":"success","message":"posted"}`) || p.runs.Load() != 2 {
		t.Errorf("admitted after a refusal: %s, %d runs", got, p.runs.Load())
	}

	// A decoded request, as MCP's tools/call without a request id gives
	// one, and Validate, for tools that check a request, apply the same
	// checks.
	decoded := capability.NewToolCall("", "post", json.RawMessage(`{"word":"bad"}`), app, admit)
	if r := eng.Do(context.Background(), decoded); r.ErrorCode != capability.CodeInvalidArguments || r.Message != "word must not be bad" {
		t.Errorf("a decoded request: %+v", r)
	}
	if r := eng.Validate(capability.Request{ID: "v", CapabilityID: "post", Args: map[string]json.RawMessage{"word": json.RawMessage(`"bad"`)}}); r == nil || r.Message != "word must not be bad" {
		t.Errorf("Validate: %+v", r)
	}
	if admitted := p.admits.Load(); admitted != 3 {
		t.Errorf("admission was asked %d times, want 3", admitted)
	}
}
