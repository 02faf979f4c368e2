package capability_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// TestSuccessIsANilError holds the exported calls to returning error, so
// that a success compared with nil as an error is nil: a nil *Error in an
// error is not (the typed-nil trap).
func TestSuccessIsANilError(t *testing.T) {
	eng := newTestEngine(t)
	echo, _ := eng.Registry().Lookup("echo")
	args := map[string]json.RawMessage{"text": json.RawMessage(`"hi"`)}
	var err error
	if _, err = capability.DecodeRequest([]byte(`{"id":"n1","capability":{"id":"noargs"}}`)); err != nil {
		t.Errorf("DecodeRequest: %#v", err)
	}
	if _, err = echo.Bind(args); err != nil {
		t.Errorf("Bind: %#v", err)
	}
}

// A failure is an *Error, which errors.As finds.
func TestFailureIsAnError(t *testing.T) {
	_, err := capability.DecodeRequest([]byte(`{"id":"n1"}`))
	var e *capability.Error
	if !errors.As(err, &e) || e.Code != capability.CodeInvalidRequest {
		t.Errorf("error %#v, want an *Error with code %s", err, capability.CodeInvalidRequest)
	}
}
