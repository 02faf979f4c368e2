package capability

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Code is a machine-readable failure reason, sent as "error_code" in failure
// replies. It is a mobilemcp extension; spec clients ignore it.
type Code string

// The failure codes. Their meaning is part of the wire contract.
const (
	CodeInvalidRequest     Code = "invalid_request"     // not a well-formed Mobile-MCP request
	CodeUnsupportedVersion Code = "unsupported_version" // request version other than "1.0"
	CodeUnknownCapability  Code = "unknown_capability"  // no capability with that id
	CodeInvalidArguments   Code = "invalid_arguments"   // arguments do not fit the capability
	CodePermissionDenied   Code = "permission_denied"   // the app lacks an Android permission, or the caller is not allowed
	CodeConsentRequired    Code = "consent_required"    // the user has not yet allowed this caller
	CodeRateLimited        Code = "rate_limited"        // too many calls from this caller
	CodePlatformError      Code = "platform_error"      // the phone could not do it (no SIM, no service, ...)
	CodeTimeout            Code = "timeout"             // no outcome within the deadline
	CodeTooLarge           Code = "too_large"           // request or reply over the size limit
	CodeInternalError      Code = "internal_error"      // a bug; the message says what
)

// Codes returns every failure code, in the order the wire format lists
// them. The slice is a copy: changing it changes nothing else.
func Codes() []Code { return slices.Clone(codes) }

// codes is every failure code.
var codes = []Code{
	CodeInvalidRequest, CodeUnsupportedVersion, CodeUnknownCapability,
	CodeInvalidArguments, CodePermissionDenied, CodeConsentRequired,
	CodeRateLimited, CodePlatformError, CodeTimeout, CodeTooLarge,
	CodeInternalError,
}

// Known reports whether c is one of the wire format's failure codes.
func (c Code) Known() bool { return slices.Contains(codes, c) }

// Error is a failure with a code and a message meant for the caller (often
// an LLM): it says what was wrong, with which value, and what to do instead.
type Error struct {
	// Code is the wire format's error_code.
	Code Code
	// Message says what was wrong, naming the field and the value, and
	// what to send instead.
	Message string
	// RetryAfter, for rate_limited, is how long the caller should wait
	// before it tries again; zero when the error does not say. The reply
	// carries it as retry_after_ms, so a client need not read the message.
	RetryAfter time.Duration
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// RetryAfterMillis is a wait as the wire's retry_after_ms carries it: whole
// milliseconds, rounded up, so that a caller who waits that long is never
// early.
func RetryAfterMillis(wait time.Duration) int64 {
	return (wait + time.Millisecond - 1).Milliseconds()
}

// Errorf returns an *Error with a formatted message. It is never nil, so
// returning it as an error is safe.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// RateLimited returns a rate_limited *Error that tells the caller to wait
// wait (RetryAfter) with a formatted message, which should say so in
// words too.
func RateLimited(wait time.Duration, format string, args ...any) *Error {
	return &Error{Code: CodeRateLimited, Message: fmt.Sprintf(format, args...), RetryAfter: wait}
}

// orNil returns err as an error, and nil when err is nil. The exported
// functions return error rather than *Error, through orNil, because a nil
// *Error stored in an error is not a nil error: a caller's err != nil would
// be true on success (the typed-nil trap). Callers find the *Error with
// errors.As.
func orNil(err *Error) error {
	if err == nil {
		return nil
	}
	return err
}

// AsError converts any error to an *Error. An error that wraps an *Error
// keeps its code; anything else becomes fallback with the error's text.
// err must not be nil.
func AsError(err error, fallback Code) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: fallback, Message: err.Error()}
}
