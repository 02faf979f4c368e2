package intentbridge

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// waitingStub stands in for a Java handler that waits as long as it was
// told it has, then gives up with a timeout failure of its own, as the
// Kotlin adapter does when it cancels a suspending handler at the deadline.
type waitingStub struct {
	wait bool
	left int64
}

func (w *waitingStub) Handle(argsJSON, requestID, callerPackage string, timeoutMillis int64) (string, error) {
	w.left = timeoutMillis
	if w.wait {
		time.Sleep(time.Duration(timeoutMillis) * time.Millisecond)
	}
	return `{"error_code":"timeout","message":"the printer did not answer"}`, nil
}

// A Java handler is given its time rounded up to a whole millisecond, so
// one that waits exactly that long reaches the deadline; the timeout
// failure it then returns is the engine's own deadline, which the engine
// answers with its timeout reply, the one its watchdog sends at the
// deadline. The caller hears the same whichever comes first.
func TestAJavaHandlerThatGivesUpAtItsDeadlineIsTheDeadlinesTimeout(t *testing.T) {
	stub := &waitingStub{wait: true}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond+500*time.Microsecond)
	defer cancel()
	_, err := javaHandler("print", stub)(ctx, capability.Args{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("after waiting the %d ms it was given, the handler's timeout is %v, want the deadline (context.DeadlineExceeded)", stub.left, err)
	}
	// How much of the 50.5 ms is left when the handler is called depends
	// on the machine; the rounding itself is TestTimeLeftIsRoundedUp's.
	if stub.left < 1 || stub.left > 51 {
		t.Errorf("the handler was given %d ms of 50.5 ms, want 1 to 51", stub.left)
	}
}

// A Java handler is told its time in whole milliseconds, rounded up.
func TestTimeLeftIsRoundedUp(t *testing.T) {
	for _, tt := range []struct {
		left time.Duration
		want int64
	}{
		{50*time.Millisecond + 500*time.Microsecond, 51},
		{50 * time.Millisecond, 50},
		{50*time.Millisecond + time.Nanosecond, 51},
		{time.Nanosecond, 1},
		{2 * time.Minute, 120000},
	} {
		if got := wholeMillisUp(tt.left); got != tt.want {
			t.Errorf("wholeMillisUp(%v) = %d, want %d", tt.left, got, tt.want)
		}
	}
}

// A timeout failure before the deadline is the handler's own: something it
// waited for did not answer.
func TestAJavaHandlersOwnTimeoutBeforeTheDeadlineIsItsReply(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := javaHandler("print", &waitingStub{})(ctx, capability.Args{})
	var failure *capability.Error
	if !errors.As(err, &failure) || failure.Code != capability.CodeTimeout || failure.Message != "the printer did not answer" {
		t.Errorf("got %v, want the handler's timeout: the printer did not answer", err)
	}
}
