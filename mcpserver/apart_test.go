package mcpserver

import (
	"context"
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// Two shared apps whose tool names collide: a shortened name of one equals
// one of the other, which takes a collision of 64 bits of SHA-256 and
// cannot be made here, so the first app's tool is put in place as such a
// collision would leave it. The second app is refused, naming the first,
// and the first keeps its tool: removing the second leaves it.
func TestASharedToolNameIsNeverTakenTwice(t *testing.T) {
	reg, err := capability.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(capability.NewEngine(reg, capability.Options{}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	first := capability.Capability{ID: "create_note", Version: "1"}
	call := func(context.Context, string, string, []byte) ([]byte, error) { return nil, nil }
	second := SharedApp{Package: "com.example.second", Capabilities: []*capability.Capability{&first}, Call: call}
	s.remotes["com.example.first"] = []string{"com_example_second-create_note"}

	names, err := s.Share(second)
	want := "mcpserver: com.example.second cannot be shared: its tool com_example_second-create_note has the name of a tool of com.example.first, which is shared already"
	if err == nil || err.Error() != want {
		t.Errorf("Share = %q, %v; want %s", names, err, want)
	}
	if err := second.Check([]SharedApp{{Package: "com.example.second", Capabilities: second.Capabilities, Call: call}}); err != nil {
		t.Errorf("Check against the app's own older version = %v", err)
	}
	s.Unshare("com.example.second")
	if got := s.remotes["com.example.first"]; !slices.Equal(got, []string{"com_example_second-create_note"}) {
		t.Errorf("removing the refused app changed the first's tools to %q", got)
	}
}
