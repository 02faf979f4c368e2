package capability_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// deliveries records what Run delivers, from any goroutine.
type deliveries struct {
	mu      sync.Mutex
	replies []string
	got     chan struct{} // closed at the first delivery
}

func newDeliveries() *deliveries { return &deliveries{got: make(chan struct{})} }

func (d *deliveries) deliver(r *capability.Reply) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.replies = append(d.replies, string(r.JSON()))
	if len(d.replies) == 1 {
		close(d.got)
	}
}

func (d *deliveries) all() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.replies...)
}

func TestRunAnswersAnOverrunAtItsDeadlineAndOnlyThen(t *testing.T) {
	release := make(chan struct{})
	var runs atomic.Int32
	reg, err := capability.NewRegistry(capability.Capability{
		ID: "slow", Description: "Ignores its deadline.", Version: "1.0", Timeout: 50 * time.Millisecond,
		Handler: func(context.Context, capability.Args) (capability.Result, error) {
			runs.Add(1)
			<-release
			return capability.Result{Message: "too late"}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	store, _ := replystore.Open(replystore.Options{})
	eng := capability.NewEngine(reg, capability.Options{Replies: store, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	request := []byte(spec(`{"id":"s1","capability":{"id":"slow"}}`))
	want := specReply(`{"id":"s1","capability":{"id":"slow"},"status":"failure","message":"slow did not finish within 50ms; it may still complete, so check before retrying with a new request id","error_code":"timeout"}`)

	d := newDeliveries()
	returned := make(chan struct{})
	start := time.Now()
	go func() {
		eng.Run(context.Background(), capability.NewCall(request, capability.Caller{}, nil), d.deliver)
		close(returned)
	}()
	select {
	case <-d.got:
	case <-time.After(5 * time.Second):
		t.Fatal("no reply although the deadline passed")
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Errorf("answered after %s, before the 50ms deadline", waited)
	}
	if got := d.all(); len(got) != 1 || got[0] != want {
		t.Fatalf("at the deadline, delivered %q\nwant [%s]", got, want)
	}
	select {
	case <-returned:
		t.Fatal("Run returned while its handler was still running")
	default:
	}

	// A retry while the handler still runs gets the same reply, and runs nothing.
	retry := eng.Do(context.Background(), capability.NewCall(request, capability.Caller{}, nil))
	if string(retry.JSON()) != want || !retry.Replayed {
		t.Errorf("retry: replayed=%v %s\nwant the stored %s", retry.Replayed, retry.JSON(), want)
	}

	close(release)
	<-returned
	if got := d.all(); len(got) != 1 {
		t.Errorf("the late result was delivered too: %q", got)
	}
	if runs.Load() != 1 {
		t.Errorf("the handler ran %d times", runs.Load())
	}
	if !strings.Contains(log.String(), `msg="a handler returned after its deadline; its caller was answered with timeout, and this outcome is dropped" capability=slow deadline=50ms outcome=success`) {
		t.Errorf("the dropped late outcome was not logged:\n%s", log.String())
	}
}

func TestRunDeliversEveryOutcomeOnce(t *testing.T) {
	eng := newTestEngine(t)
	tests := []struct{ name, request, want string }{
		{"success", spec(`{"id":"i1","capability":{"id":"noargs"}}`),
			specReply(`{"id":"i1","capability":{"id":"noargs"},"status":"success","message":"done"}`)},
		{"a panic", spec(`{"id":"i2","capability":{"id":"panics"}}`),
			specReply(`{"id":"i2","capability":{"id":"panics"},"status":"failure","message":"panics failed with an internal error: tripped over itself","error_code":"internal_error"}`)},
		{"an output the descriptor does not declare", spec(`{"id":"i3","capability":{"id":"unencodable"}}`),
			specReply(`{"id":"i3","capability":{"id":"unencodable"},"status":"failure","message":"unencodable returned the output \"c\" as a value that cannot be encoded as JSON: json: unsupported type: chan int","error_code":"internal_error"}`)},
		{"bad arguments", spec(`{"id":"i4","capability":{"id":"echo","args":{}}}`),
			specReply(`{"id":"i4","capability":{"id":"echo"},"status":"failure","message":"echo: text is required (string: a short text)","error_code":"invalid_arguments"}`)},
		{"not JSON", `{`, specReply(`{"id":null,"status":"failure","message":"request is not valid JSON: unexpected end of JSON input (at byte 1)","error_code":"invalid_request"}`)},
		{"an overrun", spec(`{"id":"i5","capability":{"id":"hangs"}}`),
			specReply(`{"id":"i5","capability":{"id":"hangs"},"status":"failure","message":"hangs did not finish within 20ms; it may still complete, so check before retrying with a new request id","error_code":"timeout"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDeliveries()
			done := make(chan struct{})
			go func() {
				defer close(done)
				eng.Run(context.Background(), capability.NewCall([]byte(tt.request), capability.Caller{}, nil), d.deliver)
			}()
			select {
			case <-d.got:
			case <-time.After(5 * time.Second):
				t.Fatal("nothing delivered")
			}
			if got := d.all(); len(got) != 1 || got[0] != tt.want {
				t.Errorf("delivered %q\nwant [%s]", got, tt.want)
			}
		})
	}
}
