package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/engine/mcptool"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

const notesPackage = "io.github.mobilemcp.notes"

// notesCapabilities are the notes sample's, read from its descriptor.
func notesCapabilities(t *testing.T) []*capability.Capability {
	t.Helper()
	data, err := os.ReadFile("../android/notes/res/xml/mcp_capabilities.xml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := xmlfile.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return f.Capabilities()
}

// fakeApp answers remote calls as a tool app would, and records them.
type fakeApp struct {
	mu         sync.Mutex
	calls      []string // "capability args"
	requestIDs []string
	reply      func(capabilityID string) (string, error)
}

func (a *fakeApp) call(ctx context.Context, capabilityID, requestID string, args []byte) ([]byte, error) {
	a.mu.Lock()
	a.calls = append(a.calls, capabilityID+" "+string(args))
	a.requestIDs = append(a.requestIDs, requestID)
	a.mu.Unlock()
	reply, err := a.reply(capabilityID)
	return []byte(reply), err
}

func (a *fakeApp) recorded() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.calls...)
}

// replyJSON is a success reply in the spec's layout with outputs.
func replyJSON(capabilityID, message, outputs string) string {
	return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"r1","capability":{"id":"` + capabilityID +
		`","output":` + outputs + `},"status":"success","message":"` + message + `"}}}`
}

func TestSharedToolName(t *testing.T) {
	long := "com." + strings.Repeat("a", 130)
	for _, tt := range []struct {
		pkg, capability, want string
	}{
		{notesPackage, "create_note", "io_github_mobilemcp_notes-create_note"},
		// The first "-" ends the package, so these two cannot meet.
		{"a.b", "c-d", "a_b-c-d"},
		{"a.b.c", "d", "a_b_c-d"},
		{"a.b", "c.d", "a_b-c_d"},
		// A "_" of the package's own: its start, "_0x" and 16 hex digits of its hash.
		{"a.b_c", "d", "a_b_c_0x5b8f934a5943517b-d"},
		// Too long: the same.
		{long, "create_note", strings.ReplaceAll(long, ".", "_")[:64-len("-create_note")-19] + "_0x6f75212e20ba50cd-create_note"},
	} {
		got, err := mcpserver.SharedToolName(tt.pkg, tt.capability)
		if err != nil || got != tt.want {
			t.Errorf("sharedToolName(%q, %q) = %q, %v; want %q", tt.pkg, tt.capability, got, err, tt.want)
		}
		if !providerName.MatchString(got) {
			t.Errorf("sharedToolName(%q, %q) = %q is not a name model providers accept", tt.pkg, tt.capability, got)
		}
	}
	// Two long packages that share their start still differ.
	a, _ := mcpserver.SharedToolName(long+"x", "create_note")
	b, _ := mcpserver.SharedToolName(long+"y", "create_note")
	if a == b {
		t.Errorf("two long packages share the name %q", a)
	}
	for _, tt := range []struct{ pkg, capability, want string }{
		{"notes", "create_note", `"notes" is not an Android package name`},
		{"a.b-c", "x", `"a.b-c" is not an Android package name`},
		{"a..b", "x", `"a..b" is not an Android package name`},
		{"a.1b", "x", `"a.1b" is not an Android package name`},
		{"a.b", "x y", `capability id "x y" of a.b is not a valid MCP tool name`},
		{long, strings.Repeat("c", 44), "is 44 characters long; a shared tool's name needs it to be at most 43"},
	} {
		if _, err := mcpserver.SharedToolName(tt.pkg, tt.capability); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("sharedToolName(%q, %q) = %v; want an error with %q", tt.pkg, tt.capability, err, tt.want)
		}
	}
}

func TestRemoteToolsAreListedNextToOwnOnes(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	notes := &fakeApp{}
	names, err := s.srv.Share(mcpserver.SharedApp{Package: notesPackage, Capabilities: notesCapabilities(t), Call: notes.call})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"io_github_mobilemcp_notes-create_note", "io_github_mobilemcp_notes-list_notes", "io_github_mobilemcp_notes-delete_note"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("Share = %q; want %q", names, want)
	}
	tools := s.listTools()
	if len(tools) != 5 || tools["send_sms"] == "" || tools["get_sms_subscriptions"] == "" {
		t.Errorf("tools/list has %d tools; want the 2 own and the 3 shared: %v", len(tools), tools)
	}
	// The one conversion: what 'mobilemcp tools' prints for the descriptor,
	// plus the output schema and the title in the annotations, as for the
	// server's own tools; the title names the app.
	wantTool := `{"annotations":{"destructiveHint":false,"idempotentHint":false,"openWorldHint":false,"readOnlyHint":false,"title":"io.github.mobilemcp.notes: Create note"},` +
		`"description":"Saves a new note and returns its id.",` +
		`"inputSchema":{"type":"object","properties":{` +
		`"title":{"type":"string","description":"A short title.","maxLength":100},` +
		`"body":{"type":"string","description":"The text of the note.","maxLength":5000}},"required":["title"],"additionalProperties":false},` +
		`"name":"io_github_mobilemcp_notes-create_note",` +
		`"outputSchema":{"type":"object","properties":{"id":{"type":"integer","description":"The new note's id."}},"required":["id"],"additionalProperties":false},` +
		`"title":"io.github.mobilemcp.notes: Create note"}`
	if got := tools["io_github_mobilemcp_notes-create_note"]; got != wantTool {
		t.Errorf("create_note is listed as\n%s\nwant\n%s", got, wantTool)
	}
	input, _ := json.Marshal(mcptool.NewTool(notesCapabilities(t)[0]).InputSchema)
	if !strings.Contains(wantTool, `"inputSchema":`+string(input)) {
		t.Errorf("the input schema is not mcptool.NewTool's %s", input)
	}

	s.srv.Unshare(notesPackage)
	if tools := s.listTools(); len(tools) != 2 {
		t.Errorf("after Unshare tools/list has %d tools; want the 2 own: %v", len(tools), tools)
	}
	if _, rpcErr := s.call("io_github_mobilemcp_notes-create_note", `{"title":"x"}`); !strings.Contains(rpcErr, `"code":-32602`) {
		t.Errorf("a removed tool's call = %s; want the unknown-tool error", rpcErr)
	}
	if calls := notes.recorded(); len(calls) != 0 {
		t.Errorf("the app was called: %q", calls)
	}
}

func TestRemoteCallsReachTheirOwnApp(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	caps := notesCapabilities(t)
	ours := &fakeApp{reply: func(id string) (string, error) {
		return replyJSON(id, "Saved note 7", `[{"name":"id","type":"integer","value":7}]`), nil
	}}
	theirs := &fakeApp{reply: func(id string) (string, error) {
		return replyJSON(id, "Saved note 9", `[{"name":"id","type":"integer","value":9}]`), nil
	}}
	for pkg, app := range map[string]*fakeApp{notesPackage: ours, "org.example.notes": theirs} {
		if _, err := s.srv.Share(mcpserver.SharedApp{Package: pkg, Capabilities: caps, Call: app.call}); err != nil {
			t.Fatal(err)
		}
	}
	result, rpcErr := s.call("io_github_mobilemcp_notes-create_note", `{"title":"Milk","body":"2 l"}`)
	if want := `{"content":[{"type":"text","text":"Saved note 7"}],"structuredContent":{"id":7}}`; result != want || rpcErr != "" {
		t.Errorf("create_note = %s %s; want %s", result, rpcErr, want)
	}
	result, _ = s.call("org_example_notes-create_note", `{"title":"Eggs"}`)
	if want := `{"content":[{"type":"text","text":"Saved note 9"}],"structuredContent":{"id":9}}`; result != want {
		t.Errorf("the other app's create_note = %s; want %s", result, want)
	}
	if got, want := ours.recorded(), []string{`create_note {"title":"Milk","body":"2 l"}`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("our app got %q; want %q", got, want)
	}
	if got, want := theirs.recorded(), []string{`create_note {"title":"Eggs"}`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the other app got %q; want %q", got, want)
	}
	// A call without arguments sends an empty object.
	s.call("io_github_mobilemcp_notes-list_notes", `null`)
	if got := ours.recorded(); got[len(got)-1] != "list_notes {}" {
		t.Errorf("list_notes without arguments sent %q; want {}", got[len(got)-1])
	}
}

func TestRemoteFailuresAreToolErrorsNamingTheTool(t *testing.T) {
	const tool = "io_github_mobilemcp_notes-create_note"
	for _, tt := range []struct {
		name    string
		args    string
		timeout time.Duration
		reply   func(ctx context.Context) (string, error)
		want    string
	}{
		{name: "unreachable", reply: func(context.Context) (string, error) {
			return "", errors.New("no service answers mobile.mcp.SERVICE in io.github.mobilemcp.notes")
		}, want: "platform_error: " + tool + " could not be reached: no service answers mobile.mcp.SERVICE in io.github.mobilemcp.notes"},
		{name: "times out", timeout: 50 * time.Millisecond, reply: func(ctx context.Context) (string, error) {
			<-ctx.Done()
			return "", ctx.Err()
		}, want: "timeout: " + tool + " did not finish within 50ms; it may still complete, so check before retrying with a new request id"},
		{name: "answers late without an error", timeout: 50 * time.Millisecond, reply: func(ctx context.Context) (string, error) {
			<-ctx.Done()
			return replyJSON("create_note", "Saved", `[{"name":"id","type":"integer","value":1}]`), nil
		}, want: "timeout: " + tool + " did not finish within 50ms; it may still complete, so check before retrying with a new request id"},
		{name: "garbage", reply: func(context.Context) (string, error) { return "<html>", nil },
			want: "platform_error: " + tool + " answered with something that is not a Mobile-MCP reply: reply is not valid JSON: invalid character '<' looking for beginning of value"},
		{name: "no status", reply: func(context.Context) (string, error) { return `{"mobile-mcp-response":{"response":{}}}`, nil },
			want: "platform_error: " + tool + ` answered with something that is not a Mobile-MCP reply: reply has status ""; want "success" or "failure"`},
		{name: "undeclared output", reply: func(context.Context) (string, error) {
			return replyJSON("create_note", "Saved", `[{"name":"id","type":"integer","value":1},{"name":"secret","type":"string","value":"x"}]`), nil
		}, want: "internal_error: " + tool + ` returned the output "secret", which its descriptor does not declare; it declares: id`},
		{name: "missing output", reply: func(context.Context) (string, error) { return replyJSON("create_note", "Saved", `[]`), nil },
			want: "internal_error: " + tool + ` returned no "id" (integer), which its descriptor declares; a successful call returns every declared output`},
		{name: "output of another type", reply: func(context.Context) (string, error) {
			return replyJSON("create_note", "Saved", `[{"name":"id","type":"string","value":"1"}]`), nil
		}, want: "internal_error: " + tool + ` returned the output "id" as string "1"; its descriptor declares an integer`},
		{name: "a reply of another capability", reply: func(context.Context) (string, error) {
			return replyJSON("list_notes", "1 note", `[{"name":"count","type":"integer","value":1}]`), nil
		}, want: "platform_error: " + tool + " answered with a reply of list_notes, not create_note; nothing of it is passed on"},
		{name: "a reply without a request id", reply: func(context.Context) (string, error) {
			return strings.Replace(replyJSON("create_note", "Saved", `[{"name":"id","type":"integer","value":1}]`), `"id":"r1",`, "", 1), nil
		}, want: "platform_error: " + tool + " answered with a reply that names no request, so it is not the reply to this call; nothing of it is passed on"},
		{name: "the app's own failure", reply: func(context.Context) (string, error) {
			return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"r1","status":"failure","error_code":"consent_required","message":"Asked the user whether io.github.mobilemcp.app may call create_note"}}}`, nil
		}, want: "consent_required: Asked the user whether io.github.mobilemcp.app may call create_note"},
		{name: "panics", reply: func(context.Context) (string, error) { panic("boom") },
			want: "internal_error: " + tool + " failed with an internal error: boom"},
		{name: "arguments not an object", args: `[1]`, reply: func(context.Context) (string, error) { panic("must not be called") },
			want: "invalid_request: arguments[0] must be an object, got number 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := startServer(t, mcpserver.Options{})
			call := func(ctx context.Context, _, _ string, _ []byte) ([]byte, error) {
				reply, err := tt.reply(ctx)
				return []byte(reply), err
			}
			if _, err := s.srv.Share(mcpserver.SharedApp{Package: notesPackage, Capabilities: notesCapabilities(t), Call: call, Timeout: tt.timeout}); err != nil {
				t.Fatal(err)
			}
			args := tt.args
			if args == "" {
				args = `{"title":"Milk"}`
			}
			result, rpcErr := s.call(tool, args)
			var r struct {
				IsError bool
				Content []struct{ Text string }
			}
			json.Unmarshal([]byte(result), &r)
			if rpcErr != "" || !r.IsError || len(r.Content) != 1 || r.Content[0].Text != tt.want {
				t.Errorf("call = %s %s; want isError with %q", result, rpcErr, tt.want)
			}
		})
	}
}

func TestSetRemoteRefuses(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	call := (&fakeApp{}).call
	for _, tt := range []struct {
		name string
		r    mcpserver.SharedApp
		want string
	}{
		{"no call", mcpserver.SharedApp{Package: notesPackage}, "mcpserver: remote io.github.mobilemcp.notes has no Call"},
		{"not a package", mcpserver.SharedApp{Package: "notes", Capabilities: notesCapabilities(t), Call: call}, `mcpserver: "notes" is not an Android package name`},
	} {
		if _, err := s.srv.Share(tt.r); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: Share = %v; want %q", tt.name, err, tt.want)
		}
	}
	if tools := s.listTools(); len(tools) != 2 {
		t.Errorf("refused remotes left tools: %v", tools)
	}
}

func TestSetRemoteAgainReplacesTheAppsTools(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	caps := notesCapabilities(t)
	call := (&fakeApp{}).call
	if _, err := s.srv.Share(mcpserver.SharedApp{Package: notesPackage, Capabilities: caps, Call: call}); err != nil {
		t.Fatal(err)
	}
	// An update that drops list_notes and delete_note.
	if _, err := s.srv.Share(mcpserver.SharedApp{Package: notesPackage, Capabilities: caps[:1], Call: call}); err != nil {
		t.Fatal(err)
	}
	tools := s.listTools()
	if len(tools) != 3 || tools["io_github_mobilemcp_notes-create_note"] == "" {
		t.Errorf("after an update tools/list has %v; want send_sms, get_sms_subscriptions and create_note", tools)
	}
}

// A remote tool's outputs pass the engine's own check, which takes a whole
// number where the descriptor says number, as JSON does: a tool that
// answers a price of 3 for a number output is not an error.
func TestARemoteNumberOutputMayBeAWholeNumber(t *testing.T) {
	f, err := xmlfile.Parse([]byte(`<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
  <capability id="quote" description="Quotes a price." version="1.0" mcp:readOnly="true">
    <output><param name="price" type="number" description="The price."/></output>
  </capability>
</mobile-mcp-capabilities>`))
	if err != nil {
		t.Fatal(err)
	}
	s := startServer(t, mcpserver.Options{})
	call := func(context.Context, string, string, []byte) ([]byte, error) {
		return []byte(replyJSON("quote", "3 euros", `[{"name":"price","type":"integer","value":3}]`)), nil
	}
	if _, err := s.srv.Share(mcpserver.SharedApp{Package: "com.example.shop", Capabilities: f.Capabilities(), Call: call}); err != nil {
		t.Fatal(err)
	}
	result, rpcErr := s.call("com_example_shop-quote", "{}")
	want := `{"content":[{"type":"text","text":"3 euros"}],"structuredContent":{"price":3}}`
	if rpcErr != "" || result != want {
		t.Errorf("call = %s %s; want %s", result, rpcErr, want)
	}
}
