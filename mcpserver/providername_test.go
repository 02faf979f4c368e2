package mcpserver_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// providerName is the tool names OpenAI's and Anthropic's function calling
// accept, which agent frameworks hand MCP names to unchanged.
var providerName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// Every shared tool's name is one a model provider accepts, and no two
// packages share one: not packages that differ only in a "." and a "_",
// which both become "_", nor long packages that share their start.
func TestSharedToolNamesSuitModelProvidersAndNeverMeet(t *testing.T) {
	long := "com.example." + strings.Repeat("a", 80)
	packages := []string{
		"io.github.mobilemcp.notes",
		"io.github.mobilemcp_notes", "io.github_mobilemcp.notes", "io_github.mobilemcp.notes",
		"com.example.a_b.c", "com.example.a.b_c", "com.example.a.b.c", "com.example.a_b_c",
		"com.example.a.b0x1", "com.example.a_b0x1",
		long, long + "b", long + "c", long + ".b", long + "_b",
	}
	seen := map[string]string{}
	for _, pkg := range packages {
		for _, id := range []string{"create_note", "x", "list-notes", "notes.list"} {
			name, err := mcpserver.SharedToolName(pkg, id)
			if err != nil {
				t.Fatalf("sharedToolName(%q, %q): %v", pkg, id, err)
			}
			if !providerName.MatchString(name) {
				t.Errorf("sharedToolName(%q, %q) = %q; want a name matching %s", pkg, id, name, providerName)
			}
			if other, taken := seen[name]; taken {
				t.Errorf("%s and %s are both named %q", other, pkg+" "+id, name)
			}
			seen[name] = pkg + " " + id
		}
	}
	if name, _ := mcpserver.SharedToolName("io.github.mobilemcp.notes", "create_note"); name != "io_github_mobilemcp_notes-create_note" {
		t.Errorf("the notes app's create_note is named %q; want io_github_mobilemcp_notes-create_note", name)
	}
}
