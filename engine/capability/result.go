package capability

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mobilemcp/mobilemcp/internal/jsonscan"
)

// DecodeResult reads the outcome of a handler written in another language
// as JSON (the Android SDK's Java handlers return it through intentbridge):
// either a success,
//
//	{"message":"Created note 7","output":{"id":7}}
//
// or a failure,
//
//	{"error_code":"invalid_arguments","message":"there is no note 7"}
//
// with a code from Codes. It returns the Result, or the *Error of the
// failure. Output values stay raw JSON, for CheckOutput to match against
// the declaration. Text that is neither, a member it does not know and a
// member given twice are errors of their own, which the caller reports as
// the handler's bug.
//
// It walks the text with the request decoder's walker rather than through
// reflection: a Java handler's every call passes through here.
func DecodeResult(data []byte) (Result, *Error, error) {
	if !json.Valid(data) {
		return Result{}, nil, errors.New("it is not JSON")
	}
	var message, output, code []byte
	var problem error
	isObject := jsonscan.ForEachMember(data, func(key, value []byte) {
		var field *[]byte
		switch string(key) {
		case "message":
			field = &message
		case "output":
			field = &output
		case "error_code":
			field = &code
		default:
			problem = cmp.Or(problem, fmt.Errorf("it has the member %q, which is none of message, output and error_code", Excerpt(string(key))))
			return
		}
		if *field != nil {
			problem = cmp.Or(problem, fmt.Errorf("it has %q twice", key))
		}
		*field = value
	})
	switch {
	case !isObject:
		return Result{}, nil, fmt.Errorf("it is %s, not an object", describeJSON(data))
	case problem != nil:
		return Result{}, nil, problem
	}
	text, err := optionalString(message, "message")
	if err != nil {
		return Result{}, nil, err
	}
	if code != nil {
		c, err := optionalString(code, "error_code")
		if err != nil {
			return Result{}, nil, err
		}
		if !slices.Contains(Codes, Code(c)) {
			return Result{}, nil, fmt.Errorf("its error_code %q is not one of the wire format's codes", Excerpt(c))
		}
		if output != nil {
			return Result{}, nil, errors.New("it has both an error_code and outputs")
		}
		return Result{}, &Error{Code: Code(c), Message: text}, nil
	}
	if message == nil {
		return Result{}, nil, errors.New("it has neither a message nor an error_code")
	}
	var values []Value
	if output != nil && !isAbsent(output) {
		if !jsonscan.ForEachMember(output, func(key, value []byte) {
			values = append(values, Value{Name: string(key), Value: json.RawMessage(value)})
		}) {
			return Result{}, nil, fmt.Errorf("its output is %s, not an object", describeJSON(output))
		}
	}
	return Result{Message: text, Output: values}, nil, nil
}

// optionalString reads a JSON string member, which may be absent.
func optionalString(raw []byte, name string) (string, error) {
	if raw == nil {
		return "", nil
	}
	if s, ok := unquote(raw); ok {
		return s, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("its %s is %s, not a string", name, describeJSON(raw))
	}
	return s, nil
}
