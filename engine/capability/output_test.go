package capability_test

import (
	"encoding/json"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

func TestCheckOutput(t *testing.T) {
	c := &capability.Capability{ID: "create_note", Output: []capability.Param{
		{Name: "id", Type: capability.Integer},
		{Name: "title", Type: capability.String},
		{Name: "score", Type: capability.Number},
		{Name: "tags", Type: capability.Array},
	}}
	v := func(name string, value any) capability.Value { return capability.Value{Name: name, Value: value} }
	tests := []struct {
		name string
		out  []capability.Value
		want string // the checked outputs as JSON, or the error message
	}{
		{"declared order, whatever the handler's", []capability.Value{v("tags", []string{"a"}), v("score", 2), v("title", "t"), v("id", int64(7))},
			`[{"name":"id","type":"integer","value":7},{"name":"title","type":"string","value":"t"},{"name":"score","type":"number","value":2},{"name":"tags","type":"array","value":["a"]}]`},
		{"raw JSON values", []capability.Value{v("id", json.RawMessage(`7`)), v("title", json.RawMessage(`"t"`)), v("score", json.RawMessage(`2.5`)), v("tags", json.RawMessage(`[]`))},
			`[{"name":"id","type":"integer","value":7},{"name":"title","type":"string","value":"t"},{"name":"score","type":"number","value":2.5},{"name":"tags","type":"array","value":[]}]`},
		{"undeclared", []capability.Value{v("id", 7), v("idd", 7)},
			`internal_error: create_note returned the output "idd", which its descriptor does not declare; it declares: id, title, score, tags`},
		{"twice", []capability.Value{v("id", 7), v("id", 8)},
			`internal_error: create_note returned the output "id" twice`},
		{"string for an integer", []capability.Value{v("id", "7")},
			`internal_error: create_note returned the output "id" as string "7"; its descriptor declares an integer`},
		{"fraction for an integer", []capability.Value{v("id", 7.5)},
			`internal_error: create_note returned the output "id" as number 7.5; its descriptor declares an integer`},
		{"null", []capability.Value{v("title", nil)},
			`internal_error: create_note returned the output "title" as null; its descriptor declares a string`},
		{"object for an array", []capability.Value{v("tags", map[string]any{})},
			`internal_error: create_note returned the output "tags" as an object; its descriptor declares an array`},
		{"missing", []capability.Value{v("id", 7), v("score", 1)},
			`internal_error: create_note returned no "title" (string), "tags" (array), which its descriptor declares; a successful call returns every declared output`},
		{"unencodable", []capability.Value{v("id", make(chan int))},
			`internal_error: create_note returned the output "id" as a value that cannot be encoded as JSON: json: unsupported type: chan int`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := c.CheckOutput(tt.out)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				data, _ := json.Marshal(out)
				got = string(data)
			}
			if got != tt.want {
				t.Errorf("\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestCheckOutputOfACapabilityWithoutOutputs(t *testing.T) {
	c := &capability.Capability{ID: "delete"}
	if out, err := c.CheckOutput(nil); out != nil || err != nil {
		t.Errorf("no outputs: %v, %v", out, err)
	}
	if _, err := c.CheckOutput([]capability.Value{{Name: "x", Value: 1}}); err == nil ||
		err.Message != `delete returned the output "x", which its descriptor does not declare; it declares no outputs` {
		t.Errorf("an output of a capability without outputs: %v", err)
	}
}
