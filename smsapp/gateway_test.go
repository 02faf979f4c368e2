package smsapp

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

const notesPackage = "io.github.mobilemcp.notes"

// javaCaller stands in for the app's RemoteCaller.
type javaCaller struct {
	mu       sync.Mutex
	calls    []string
	timeouts []int64
	reply    func(pkg, capability string) (string, error)
}

func (c *javaCaller) Call(pkg, capability, _, argsJSON string, timeoutMillis int64) (string, error) {
	c.mu.Lock()
	c.calls = append(c.calls, pkg+" "+capability+" "+argsJSON)
	c.timeouts = append(c.timeouts, timeoutMillis)
	c.mu.Unlock()
	return c.reply(pkg, capability)
}

func notesTree(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../android/notes/res/xml/mcp_capabilities.xml")
	if err != nil {
		t.Fatal(err)
	}
	return compiled(string(data))
}

// toolNames lists the MCP server's tools by name, sorted.
func toolNames(t *testing.T, url string) []string {
	t.Helper()
	_, body, err := testkit.PostMCP(url, "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if err != nil {
		t.Fatal(err)
	}
	var reply struct {
		Result struct{ Tools []struct{ Name string } }
	}
	if err := json.Unmarshal([]byte(body), &reply); err != nil {
		t.Fatalf("%v in %s", err, body)
	}
	var names []string
	for _, tool := range reply.Result.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

func callTool(t *testing.T, url, name, args string) string {
	t.Helper()
	_, body, err := testkit.PostMCP(url, "", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+name+`","arguments":`+args+`}}`)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func TestSharedToolsAreServedAndCalledThroughJava(t *testing.T) {
	_, s := newServer(t, &fakeJava{Subs: seedSubs})
	java := &javaCaller{reply: func(pkg, capability string) (string, error) {
		return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"a1","capability":{"id":"create_note","output":[{"name":"id","type":"integer","value":3}]},"status":"success","message":"Saved note 3"}}}`, nil
	}}
	s.SetRemoteCaller(java)
	// Shared before the server starts, and one the user does not share.
	if err := s.SetRemoteTool(notesPackage, notesTree(t), true); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRemoteTool("org.example.notes", notesTree(t), false); err != nil {
		t.Fatal(err)
	}
	if err := s.StartHTTP("127.0.0.1:0", ""); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.StopHTTP() })
	url := s.ServingURL()
	want := []string{"get_sms_subscriptions", "io_github_mobilemcp_notes-create_note", "io_github_mobilemcp_notes-delete_note", "io_github_mobilemcp_notes-list_notes", "send_sms"}
	if got := toolNames(t, url); !slices.Equal(got, want) {
		t.Errorf("tools %q; want %q", got, want)
	}
	got := callTool(t, url, "io_github_mobilemcp_notes-create_note", `{"title":"Milk"}`)
	if want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Saved note 3"}],"structuredContent":{"id":3}}}`; got != want {
		t.Errorf("create_note: %s\nwant %s", got, want)
	}
	if want := []string{`io.github.mobilemcp.notes create_note {"title":"Milk"}`}; !slices.Equal(java.calls, want) {
		t.Errorf("Java was asked %q; want %q", java.calls, want)
	}
	// create_note's 30 s, 5 s for the trip back, and Java waits a second
	// longer, so that the engine's timeout is the one reported.
	if got := java.timeouts[0]; got <= 35000 || got > 36000 {
		t.Errorf("Java was given %d ms; want 35 s and up to 1 s more", got)
	}

	// Shared while the server runs, then uninstalled.
	if err := s.SetRemoteTool("org.example.notes", notesTree(t), true); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, url); len(got) != 8 {
		t.Errorf("after sharing a second app: %q", got)
	}
	s.RemoveRemoteTool(notesPackage)
	s.SetRemoteTool("org.example.notes", "", false)
	if got, want := toolNames(t, url), []string{"get_sms_subscriptions", "send_sms"}; !slices.Equal(got, want) {
		t.Errorf("after removing both: %q; want %q", got, want)
	}

	// A restart serves what is shared at that time.
	s.SetRemoteTool(notesPackage, notesTree(t), true)
	s.StopHTTP()
	if err := s.StartHTTP("127.0.0.1:0", ""); err != nil {
		t.Fatal(err)
	}
	if got := toolNames(t, s.ServingURL()); len(got) != 5 {
		t.Errorf("after a restart: %q", got)
	}
}

func TestSharedToolFailuresFromJava(t *testing.T) {
	for _, tt := range []struct {
		name  string
		reply func() (string, error)
		want  string
	}{
		{"not reachable", func() (string, error) {
			return "", errors.New("io.github.mobilemcp.notes has no service for mobile.mcp.SERVICE")
		}, "platform_error: io_github_mobilemcp_notes-create_note could not be reached: io.github.mobilemcp.notes has no service for mobile.mcp.SERVICE"},
		{"no answer in time", func() (string, error) { time.Sleep(time.Second); return "", nil },
			"timeout: io_github_mobilemcp_notes-create_note did not finish within 100ms; it may still complete, so check before retrying with a new request id"},
		{"garbage", func() (string, error) { return "{}", nil },
			`platform_error: io_github_mobilemcp_notes-create_note answered with something that is not a Mobile-MCP reply: reply has status \"\"; want \"success\" or \"failure\"`},
		{"a panic", func() (string, error) { panic("Java exception") },
			"platform_error: io_github_mobilemcp_notes-create_note could not be reached: the call failed with an internal error: Java exception"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, s := newServer(t, &fakeJava{Subs: seedSubs})
			s.SetRemoteCaller(&javaCaller{reply: func(string, string) (string, error) { return tt.reply() }})
			s.SetRemoteTimeoutMillis(100)
			if err := s.SetRemoteTool(notesPackage, notesTree(t), true); err != nil {
				t.Fatal(err)
			}
			if err := s.StartHTTP("127.0.0.1:0", ""); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.StopHTTP() })
			got := callTool(t, s.ServingURL(), "io_github_mobilemcp_notes-create_note", `{"title":"Milk"}`)
			if !strings.Contains(got, `"isError":true`) || !strings.Contains(got, `"text":"`+tt.want+`"`) {
				t.Errorf("got %s\nwant isError with %s", got, tt.want)
			}
		})
	}
}

func TestSetRemoteToolRefuses(t *testing.T) {
	_, s := newServer(t, &fakeJava{Subs: seedSubs})
	err := s.SetRemoteTool(notesPackage, notesTree(t), true)
	if want := "smsapp: SetRemoteTool needs a RemoteCaller; call SetRemoteCaller first"; err == nil || err.Error() != want {
		t.Errorf("without a caller: %v; want %q", err, want)
	}
	s.SetRemoteCaller(&javaCaller{})
	err = s.SetRemoteTool(notesPackage, compiled(`<mobile-mcp-capabilities version="1.0"><capability id="x y" description="d"/></mobile-mcp-capabilities>`), true)
	if want := "smsapp: io.github.mobilemcp.notes cannot be shared: its descriptor has errors:\n  io.github.mobilemcp.notes:1:"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a broken descriptor: %v; want %q...", err, want)
	}
	err = s.SetRemoteTool("notes", notesTree(t), true)
	if want := `mcpserver: "notes" is not an Android package name`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("not a package: %v; want %q...", err, want)
	}
	if len(s.remotes) != 0 {
		t.Errorf("refused tools were recorded: %v", s.remotes)
	}
}
