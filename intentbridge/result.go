package intentbridge

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// parseResult reads the outcome of a Java handler (a Handler's result) as
// JSON: either a success,
//
//	{"message":"Created note 7","output":{"id":7}}
//
// or a failure,
//
//	{"error_code":"invalid_arguments","message":"there is no note 7"}
//
// with a code from capability.Codes; a rate_limited failure may add
// "retry_after_ms", the handler's own wait, which the reply carries on. It returns the Result, or the *Error
// of the failure. Output values stay raw JSON, for CheckOutput to match
// against the declaration. Text that is neither, a member it does not know and a
// member given twice are errors of their own, which the caller reports as
// the handler's bug.
//
// It walks the text with the request decoder's walker rather than through
// reflection: a Java handler's every call passes through here.
func parseResult(data []byte) (capability.Result, *capability.Error, error) {
	if !json.Valid(data) {
		return capability.Result{}, nil, errors.New("it is not JSON")
	}
	var message, output, code, wait []byte
	var problem error
	isObject := rawjson.ForEachMember(data, func(key, value []byte) {
		var field *[]byte
		switch string(key) {
		case "message":
			field = &message
		case "output":
			field = &output
		case "error_code":
			field = &code
		case "retry_after_ms":
			field = &wait
		default:
			problem = cmp.Or(problem, fmt.Errorf("it has the member %q, which is none of message, output, error_code and retry_after_ms", text.Excerpt(string(key))))
			return
		}
		if *field != nil {
			problem = cmp.Or(problem, fmt.Errorf("it has %q twice", key))
		}
		*field = value
	})
	switch {
	case !isObject:
		return capability.Result{}, nil, fmt.Errorf("it is %s, not an object", rawjson.Describe(data))
	case problem != nil:
		return capability.Result{}, nil, problem
	}
	msg, err := optionalString(message, "message")
	if err != nil {
		return capability.Result{}, nil, err
	}
	if code != nil {
		c, err := optionalString(code, "error_code")
		if err != nil {
			return capability.Result{}, nil, err
		}
		if !capability.Code(c).Known() {
			return capability.Result{}, nil, fmt.Errorf("its error_code %q is not one of the wire format's codes", text.Excerpt(c))
		}
		if output != nil {
			return capability.Result{}, nil, errors.New("it has both an error_code and outputs")
		}
		failure := &capability.Error{Code: capability.Code(c), Message: msg}
		if wait != nil {
			if failure.Code != capability.CodeRateLimited {
				return capability.Result{}, nil, errors.New("it has a retry_after_ms, which only a rate_limited failure may have")
			}
			ms, err := strconv.ParseInt(string(wait), 10, 64)
			if err != nil || ms <= 0 || ms > maxRetryAfterMillis {
				return capability.Result{}, nil, fmt.Errorf("its retry_after_ms is %s, not a whole number of milliseconds from 1 to %d (a year)", rawjson.Describe(wait), maxRetryAfterMillis)
			}
			failure.RetryAfter = time.Duration(ms) * time.Millisecond
		}
		return capability.Result{}, failure, nil
	}
	if wait != nil {
		return capability.Result{}, nil, errors.New("it has a retry_after_ms, which only a rate_limited failure may have")
	}
	if message == nil {
		return capability.Result{}, nil, errors.New("it has neither a message nor an error_code")
	}
	var values []capability.Value
	if output != nil && !rawjson.IsAbsent(output) {
		if !rawjson.ForEachMember(output, func(key, value []byte) {
			values = append(values, capability.Value{Name: string(key), Value: json.RawMessage(value)})
		}) {
			return capability.Result{}, nil, fmt.Errorf("its output is %s, not an object", rawjson.Describe(output))
		}
	}
	return capability.Result{Message: msg, Output: values}, nil, nil
}

// maxRetryAfterMillis bounds a handler's retry_after_ms at a year, so that
// the wait fits a time.Duration with room to spare.
const maxRetryAfterMillis = 365 * 24 * 60 * 60 * 1000

// optionalString reads a JSON string member, which may be absent.
func optionalString(raw []byte, name string) (string, error) {
	if raw == nil {
		return "", nil
	}
	if s, ok := rawjson.Unquote(raw); ok {
		return s, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("its %s is %s, not a string", name, rawjson.Describe(raw))
	}
	return s, nil
}
