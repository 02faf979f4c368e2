package capability_test

import (
	"context"
	"runtime"
	"syscall"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// Run runs the handler on its caller's goroutine so that a JNI caller's thread is never left: the handler
// and the delivery run on the very OS thread that called in.
func TestRunRunsTheHandlerOnTheCallingThread(t *testing.T) {
	var handlerTID int
	reg, err := capability.NewRegistry(capability.Capability{
		ID: "where", Description: "Notes its thread.", Version: "1.0", Annotations: capability.Annotations{ReadOnly: true},
		Handler: func(context.Context, capability.Args) (capability.Result, error) {
			handlerTID = syscall.Gettid()
			return capability.Result{Message: "here"}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	eng := capability.NewEngine(reg, capability.Options{})
	runtime.LockOSThread() // as a thread that called in through cgo is
	defer runtime.UnlockOSThread()
	caller := syscall.Gettid()
	deliveredTID, deliveries := 0, 0
	eng.Run(context.Background(), capability.NewCall([]byte(spec(`{"id":"w","capability":{"id":"where"}}`)), capability.Caller{}, nil), func(*capability.Reply) {
		deliveredTID = syscall.Gettid()
		deliveries++
	})
	if deliveries != 1 || handlerTID != caller || deliveredTID != caller {
		t.Errorf("caller thread %d; handler ran on %d, %d deliveries on %d", caller, handlerTID, deliveries, deliveredTID)
	}
	// Handle, by contrast, runs the handler on a goroutine of its own.
	eng.Do(context.Background(), capability.NewCall([]byte(spec(`{"id":"w2","capability":{"id":"where"}}`)), capability.Caller{}, nil))
	if handlerTID == caller {
		t.Errorf("Handle ran the handler on the locked calling thread %d", caller)
	}
}
