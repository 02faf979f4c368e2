package capability_test

import (
	"encoding/json"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// bindOne binds {"name": raw} to a capability with the one input param p.
func bindOne(t *testing.T, p capability.Param, raw string) string {
	t.Helper()
	c := &capability.Capability{ID: "c", Version: "1", Input: []capability.Param{p}}
	_, err := c.Bind(map[string]json.RawMessage{p.Name: json.RawMessage(raw)})
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestIntegerMessagesSpeakAsPeopleDo(t *testing.T) {
	n := capability.Param{Name: "duration", Type: capability.Integer, Required: true}
	for _, tt := range []struct{ raw, want string }{
		{`1.5`, "invalid_arguments: c: duration must be a whole number, got 1.5"},
		{`"1.5"`, "invalid_arguments: c: duration must be a whole number, got 1.5"},
		{`-2.25e1`, "invalid_arguments: c: duration must be a whole number, got -2.25e1"},
		{`99999999999999999999`, "invalid_arguments: c: duration must be a whole number no larger than 9223372036854775807, got 99999999999999999999"},
		{`-99999999999999999999`, "invalid_arguments: c: duration must be a whole number no smaller than -9223372036854775808, got -99999999999999999999"},
		{`"1e2"`, `invalid_arguments: c: duration must be a whole number written in digits, such as 100, got "1e2"`},
		{`1e17`, "invalid_arguments: c: duration must be a whole number written in digits, such as 100000000000000000, got 1e17"},
		{`1e2`, ""},
		{`"-14"`, ""},
	} {
		if got := bindOne(t, n, tt.raw); got != tt.want {
			t.Errorf("duration=%s: %q\nwant %q", tt.raw, got, tt.want)
		}
	}
}

func TestArrayItemsAreEnforced(t *testing.T) {
	for _, tt := range []struct {
		items capability.Type
		raw   string
		want  string
	}{
		{capability.String, `["a","b"]`, ""},
		{capability.String, `["a",5]`, "invalid_arguments: c: tags[1] must be a string, got number 5"},
		{capability.Integer, `[1, 2.0, -3]`, ""},
		{capability.Integer, `[1, 2.5]`, "invalid_arguments: c: tags[1] must be an integer, got number 2.5"},
		{capability.Number, `[1, 2.5]`, ""},
		{capability.Boolean, `[true, null]`, "invalid_arguments: c: tags[1] must be a boolean, got null"},
		{capability.Object, `[{}, []]`, "invalid_arguments: c: tags[1] must be an object, got an array"},
		{capability.Array, `[[], [1]]`, ""},
		{"", `[1, "a", null, {}]`, ""},
		// A string holding the array, as adb sends it, is checked the same.
		{capability.String, `"[\"a\", 1]"`, "invalid_arguments: c: tags[1] must be a string, got number 1"},
	} {
		p := capability.Param{Name: "tags", Type: capability.Array, Items: tt.items}
		if got := bindOne(t, p, tt.raw); got != tt.want {
			t.Errorf("items %q, tags=%s: %q\nwant %q", tt.items, tt.raw, got, tt.want)
		}
	}
}

func TestOutputItemsAreEnforced(t *testing.T) {
	c := &capability.Capability{ID: "list", Version: "1", Output: []capability.Param{{Name: "ids", Type: capability.Array, Items: capability.Integer}}}
	if _, err := c.CheckOutput([]capability.Value{{Name: "ids", Type: capability.Array, Value: []any{int64(1), "2"}}}); err == nil ||
		err.Error() != `internal_error: list returned the output "ids" with an element its descriptor does not allow: ids[1] must be an integer, got string "2"` {
		t.Errorf("CheckOutput = %v", err)
	}
	if _, err := c.CheckOutput([]capability.Value{{Name: "ids", Type: capability.Array, Value: []any{int64(1), 2.0}}}); err != nil {
		t.Errorf("CheckOutput of whole numbers = %v", err)
	}
}

func TestOnlyAnArrayHasItems(t *testing.T) {
	for _, p := range []capability.Param{
		{Name: "n", Type: capability.String, Items: capability.String},
		{Name: "n", Type: capability.Array, Items: "int"},
	} {
		c := capability.Capability{ID: "c", Version: "1", Input: []capability.Param{p}}
		if _, err := capability.NewRegistry(c); err == nil {
			t.Errorf("a registry took %+v", p)
		}
	}
}
