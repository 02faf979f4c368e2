package intentbridge

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// Handler runs one capability, implemented in Java or Kotlin (the Tool
// SDK's adapter implements it for the app's handlers).
//
// Handle gets the arguments after the engine validated them against the
// descriptor: argsJSON is a JSON object whose values have their declared
// types (a "14" sent for an integer arrives as 14), without the optional
// ones the caller left out. callerPackage is the caller Android vouches
// for: the package of a bound Message's sender, or "(adb shell)" for the
// shell's provider; it is "" for a caller that is only claimed (an Intent's
// callback creator). timeoutMillis is what remains of the capability's
// deadline, rounded up to a whole millisecond, so that a handler that waits
// exactly that long never gives up before the deadline. It returns the
// outcome as JSON, either
//
//	{"message":"Created note 7","output":{"id":7}}
//
// with one output value per declared output, or a failure
//
//	{"error_code":"invalid_arguments","message":"there is no note 7"}
//
// with one of the error codes of the wire format. A failure with
// invalid_arguments or permission_denied promises that nothing was done, so
// the caller may correct the request and retry it under the same id. An
// exception thrown out of Handle becomes internal_error. A timeout failure
// returned once the deadline has passed, by a handler that gave up there,
// is the engine's own timeout reply, the one the caller gets at the
// deadline.
type Handler interface {
	Handle(argsJSON, requestID, callerPackage string, timeoutMillis int64) (resultJSON string, err error)
}

// ArgumentCheck checks the arguments of one capability implemented in Java
// or Kotlin, in ways its descriptor cannot state (Tool.SetArgumentCheck).
//
// Check gets the arguments as Handler.Handle would, after the engine checked
// them against the descriptor, and returns what is wrong with them as a
// message for the caller, such as "title is blank", or "" when nothing is.
// A problem rejects the request with invalid_arguments; an exception thrown out of
// Check becomes internal_error. It runs before consent and the reply
// store, so it must not act, and it has no deadline: keep it quick.
type ArgumentCheck interface {
	Check(argsJSON string) (problem string, err error)
}

// javaArgumentCheck adapts c to the engine.
func javaArgumentCheck(id string, c ArgumentCheck) capability.Validator {
	return func(args capability.Args) error {
		argsJSON, err := argsForJava(id, args)
		if err != nil {
			return err
		}
		problem, err := c.Check(argsJSON)
		switch {
		case err != nil:
			return capability.Errorf(capability.CodeInternalError, "%s's argument check failed in Java: %v", id, err)
		case problem != "":
			return &capability.Error{Code: capability.CodeInvalidArguments, Message: problem}
		}
		return nil
	}
}

// javaHandler adapts h to the engine.
func javaHandler(id string, h Handler) capability.Handler {
	return func(ctx context.Context, args capability.Args) (capability.Result, error) {
		argsJSON, err := argsForJava(id, args)
		if err != nil {
			return capability.Result{}, err
		}
		left := time.Duration(0)
		if deadline, ok := ctx.Deadline(); ok {
			left = time.Until(deadline)
		}
		if left <= 0 {
			return capability.Result{}, context.DeadlineExceeded
		}
		text, err := h.Handle(argsJSON, capability.RequestID(ctx), vouchedCaller(ctx), wholeMillisUp(left))
		if err != nil {
			return capability.Result{}, capability.Errorf(capability.CodeInternalError, "%s failed in Java: %v", id, err)
		}
		result, err := decodeResult(id, text)
		if gaveUpAtTheDeadline(ctx, err) {
			// The deadline's own reply, whichever of the two reaches the
			// engine first: the watchdog's at the deadline or this one.
			return capability.Result{}, context.DeadlineExceeded
		}
		return result, err
	}
}

// wholeMillisUp is left in milliseconds, rounded up: a Java handler that
// waits all of the time it is given reaches the deadline, not a moment
// before it.
func wholeMillisUp(left time.Duration) int64 {
	return int64((left + time.Millisecond - 1) / time.Millisecond)
}

// gaveUpAtTheDeadline reports whether err, what a handler returned, is a
// timeout failure and ctx's deadline has passed: the handler stopped
// because its time was up, as the Kotlin adapter of suspending handlers
// does when it cancels one at the deadline.
func gaveUpAtTheDeadline(ctx context.Context, err error) bool {
	if err == nil {
		return false // every call that succeeds: no allocation for errors.As
	}
	failure, isFailure := errors.AsType[*capability.Error](err)
	deadline, ok := ctx.Deadline()
	return ok && isFailure && failure.Code == capability.CodeTimeout && !time.Now().Before(deadline)
}

// argsForJava encodes capability id's validated arguments for Java.
func argsForJava(id string, args capability.Args) (string, error) {
	if len(args) == 0 {
		return "{}", nil // as json.Marshal writes it, without its reflection
	}
	argsJSON, err := json.Marshal(args)
	if err != nil {
		return "", capability.Errorf(capability.CodeInternalError, "%s: encoding its arguments for Java: %v", id, err)
	}
	return string(argsJSON), nil
}

// decodeResult reads what a Handler returned.
func decodeResult(id, text string) (capability.Result, error) {
	result, failure, err := parseResult([]byte(text))
	switch {
	case err != nil:
		return capability.Result{}, capability.Errorf(capability.CodeInternalError, "%s's handler returned %.80q, which is not a result: %v", id, text, err)
	case failure != nil:
		return capability.Result{}, failure
	}
	return result, nil
}

// vouchedCaller is the caller a handler is told of: the one Android vouches
// for (a bound Message's sender, or access.ShellCaller for the shell), and
// "" for a caller that is only claimed (an Intent's), so that a handler
// never keeps data in the name of an app that may not have called.
func vouchedCaller(ctx context.Context) string {
	if caller := capability.CallerOf(ctx); caller.Vouched {
		return caller.ID
	}
	return ""
}
