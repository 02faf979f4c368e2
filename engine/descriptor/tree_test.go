package descriptor_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
)

// A tree from a compiled resource has namespaces but no prefixes:
// DecodeTree gives each namespace the prefix messages name it by, and
// declares them on the root, as the source file would.
func TestDecodeTreeNamesTheNamespaces(t *testing.T) {
	root, err := descriptor.DecodeTree([]byte(`{"name":"mobile-mcp-capabilities","line":2,
		"attrs":[{"name":"version","value":"1.0"}],
		"children":[{"name":"capability","line":3,"attrs":[
			{"ns":"urn:other","name":"x","value":"1"},
			{"ns":"https://mobilemcp.github.io/ns","name":"readOnly","value":"true"},
			{"ns":"http://schemas.android.com/apk/res/android","name":"label","value":"L"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range []*descriptor.Element{root, root.Children[0]} {
		for _, a := range e.Attrs {
			got = append(got, fmt.Sprintf("%d %s=%s", a.Line, a.FullKey(), a.Value))
		}
	}
	want := "2 xmlns:ns1=urn:other|2 xmlns:mcp=https://mobilemcp.github.io/ns|2 xmlns:android=http://schemas.android.com/apk/res/android|2 version=1.0|" +
		"3 ns1:x=1|3 mcp:readOnly=true|3 android:label=L"
	if strings.Join(got, "|") != want {
		t.Errorf("attributes\n %s\nwant\n %s", strings.Join(got, "|"), want)
	}
}

// What DecodeTree refuses, with why.
func TestDecodeTreeRefuses(t *testing.T) {
	large := `{"name":"r","line":1,"attrs":[{"name":"a","value":"` + strings.Repeat("x", descriptor.MaxTreeBytes) + `"}]}`
	deep := `{"name":"e","line":1}`
	for range descriptor.MaxDepth {
		deep = `{"name":"e","line":1,"children":[` + deep + `]}`
	}
	for _, tt := range []struct{ name, tree, want string }{
		{"not JSON", `<mobile-mcp-capabilities/>`, "the descriptor's tree is not the JSON of an element: invalid character '<' looking for beginning of value"},
		{"not an object", `[]`, "the descriptor's tree is not the JSON of an element: json: cannot unmarshal array into Go value of type descriptor.Element"},
		{"null", `null`, "the descriptor's tree has no root element"},
		{"a nameless element", `{"name":"r","line":1,"children":[{"line":2}]}`, "an element of the descriptor's tree at line 2 has no name"},
		{"a null child", `{"name":"r","line":1,"children":[null]}`, "<r> at line 1 of the descriptor's tree has a null child"},
		{"too deep", deep, "the descriptor's tree nests <e> deeper than 5 elements"},
		{"too large", large, fmt.Sprintf("the descriptor's tree is %d bytes, over the limit of %d", len(large), descriptor.MaxTreeBytes)},
	} {
		if _, err := descriptor.DecodeTree([]byte(tt.tree)); err == nil || err.Error() != tt.want {
			t.Errorf("%s: DecodeTree = %v; want %s", tt.name, err, tt.want)
		}
	}
}

// Check refuses a descriptor with errors, with the findings lint prints,
// and reads one with warnings only.
func TestCheck(t *testing.T) {
	root, err := descriptor.DecodeTree([]byte(`{"name":"mobile-mcp-capabilities","line":1,"attrs":[{"name":"version","value":"1.0"}],
		"children":[{"name":"capability","line":2,"attrs":[{"name":"id","value":"c"},{"name":"description","value":"d"},
		{"name":"version","value":"1.0"},{"ns":"https://mobilemcp.github.io/ns","name":"readOnly","value":"yes"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = descriptor.Check("res/xml/c.xml", root, nil)
	want := "its descriptor has errors:\n  res/xml/c.xml:2: error: capability \"c\" has mcp:readOnly=\"yes\"; write mcp:readOnly=\"true\" or mcp:readOnly=\"false\" [boolean-value]"
	if err == nil || err.Error() != want {
		t.Errorf("Check = %v\nwant %s", err, want)
	}
	root.Children[0].Attrs[3].Value = "true"
	file, err := descriptor.Check("res/xml/c.xml", root, nil)
	if err != nil || len(file.Specs) != 1 || !file.Specs[0].Annotations.ReadOnly || file.Specs[0].Line != 2 {
		t.Errorf("Check = %+v, %v", file, err)
	}
}
