package capability

import (
	"encoding/json"
	"math"
	"testing"
)

func TestReplyIsValidJSONWhateverTheOutput(t *testing.T) {
	r := &Reply{ID: "i\"d", CapabilityID: "c", Status: StatusSuccess, Message: "m\n", Output: []Value{
		{Name: "s", Type: String, Value: "x\u2028"}, {Name: "i", Type: Integer, Value: 7}, {Name: "j", Type: Integer, Value: int64(-8)},
		{Name: "b", Type: Boolean, Value: true}, {Name: "f", Type: Number, Value: 2.5}, {Name: "n", Type: Object, Value: nil},
		{Name: "r", Type: Object, Value: json.RawMessage(`{"a":1}`)}, {Name: "m", Type: Object, Value: map[string]any{"<": "&"}},
	}}
	want := `{"id":"i\"d","capability":{"id":"c","output":[{"name":"s","type":"string","value":"x\u2028"},{"name":"i","type":"integer","value":7},{"name":"j","type":"integer","value":-8},{"name":"b","type":"boolean","value":true},{"name":"f","type":"number","value":2.5},{"name":"n","type":"object","value":null},{"name":"r","type":"object","value":{"a":1}},{"name":"m","type":"object","value":{"<":"&"}}]},"status":"success","message":"m\n"}`
	if got := string(r.FlatJSON()); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	bad := &Reply{ID: "x", CapabilityID: "c", Status: StatusSuccess, Output: []Value{{Name: "f", Type: Number, Value: math.Inf(1)}}}
	if got, want := string(bad.FlatJSON()), `{"id":"x","capability":{"id":"c"},"status":"failure","message":"c produced an output that cannot be encoded as JSON: json: unsupported value: +Inf","error_code":"internal_error"}`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
