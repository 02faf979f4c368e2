package intentbridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/sms/javaplatform"
)

// notesDescriptor is a hand-written descriptor of a tool implemented in
// Java, like the notes sample's.
const notesDescriptor = `<?xml version="1.0" encoding="utf-8"?>
<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
  <capability id="create_note" description="Creates a note." version="1.0" mcp:destructive="false" mcp:openWorld="false" mcp:timeout="2s">
    <input>
      <param name="title" type="string" required="true" description="The title." mcp:maxLength="20"/>
      <param name="pinned" type="boolean" required="false" description="Keep it on top."/>
    </input>
    <output>
      <param name="id" type="integer" description="The new note's id."/>
      <param name="title" type="string" description="The title as saved."/>
    </output>
  </capability>
  <capability id="list_notes" description="Lists the notes." version="1.0" mcp:readOnly="true">
    <output>
      <param name="count" type="integer" description="How many notes there are."/>
    </output>
  </capability>
</mobile-mcp-capabilities>
`

// javaStub stands in for a Java handler: it records each call and answers
// with result (or fails with err).
type javaStub struct {
	result string
	err    error
	block  chan struct{} // when set, Run waits for it to close

	mu    sync.Mutex
	calls []string // argsJSON|requestID|caller
	left  []int64
}

func (j *javaStub) Handle(argsJSON, requestID, callerPackage string, timeoutMillis int64) (string, error) {
	j.mu.Lock()
	j.calls = append(j.calls, argsJSON+"|"+requestID+"|"+callerPackage)
	j.left = append(j.left, timeoutMillis)
	j.mu.Unlock()
	if j.block != nil {
		<-j.block
	}
	return j.result, j.err
}

func notesTool(create, list Handler) *Tool {
	tool := NewTool("res/xml/notes.xml", compiled(notesDescriptor))
	tool.SetHandler("create_note", create)
	tool.SetHandler("list_notes", list)
	return tool
}

func notesRequest(id, args string) string {
	return `{"mobile-mcp-request":{"version":"1.0","request":{"id":"` + id + `","capability":{"id":"create_note","args":` + args + `}}}}`
}

func specReply(body string) string {
	return `{"mobile-mcp-response":{"version":"1.0","response":` + body + `}}`
}

func TestTheAppsDescriptorStartsTheSMSTool(t *testing.T) {
	data, err := os.ReadFile("../android/app/res/xml/mcp_capabilities.xml")
	if err != nil {
		t.Fatal(err)
	}
	tool := NewTool("res/xml/mcp_capabilities.xml", compiled(string(data)))
	tool.AddGo(javaplatform.Capabilities(&fakeJava{})...)
	b, _ := OpenBridge("")
	defer b.Close()
	if err := b.Start(tool); err != nil {
		t.Errorf("the checked-in descriptor does not start the SMS tool: %v", err)
	}
}

func TestStartRefusesABrokenTool(t *testing.T) {
	stub := &javaStub{}
	tests := []struct {
		name string
		tool *Tool
		want string
	}{
		{"lint errors", func() *Tool {
			tool := NewTool("res/xml/notes.xml", compiled(strings.Replace(notesDescriptor, `mcp:timeout="2s"`, `mcp:timeout="soon"`, 1)))
			tool.SetHandler("create_note", stub)
			return tool
		}(), "intentbridge: the tool cannot start: its descriptor has errors:\n  " +
			`res/xml/notes.xml:3: error: capability "create_note" has mcp:timeout="soon"; write a duration from 1ms to 10m, such as mcp:timeout="60s" or mcp:timeout="500ms" [extension-value]`},
		{"no tree", NewTool("res/xml/notes.xml", "{}"), "intentbridge: the tool cannot start: res/xml/notes.xml: the descriptor's tree has no root element"},
		{"not a tree", NewTool("res/xml/notes.xml", "<mobile-mcp-capabilities/>"), "intentbridge: the tool cannot start: res/xml/notes.xml: " +
			"the descriptor's tree is not the JSON of an element: invalid character '<' looking for beginning of value"},
		{"a missing handler and a misspelt one", func() *Tool {
			tool := NewTool("res/xml/notes.xml", compiled(notesDescriptor))
			tool.SetHandler("list_notes", stub)
			tool.SetHandler("crate_note", stub)
			return tool
		}(), "intentbridge: the tool cannot start:\n" +
			"  res/xml/notes.xml:3 declares create_note, but it has no handler\n" +
			`  there is a handler for "crate_note", which res/xml/notes.xml does not declare (it declares create_note, list_notes)`},
		{"a null handler", notesTool(nil, stub), "intentbridge: the tool cannot start:\n  the handler of create_note is null"},
		{"a Go capability the descriptor declares otherwise", func() *Tool {
			tool := NewTool("res/xml/mcp_capabilities.xml", compiled(strings.Replace(smsDescriptor, `mcp:maxLength="160"`, `mcp:maxLength="170"`, 1)))
			tool.AddGo(javaplatform.Capabilities(&fakeJava{})...)
			return tool
		}(), "intentbridge: the tool cannot start:\n  send_sms: res/xml/mcp_capabilities.xml declares inputs other than the engine's send_sms does; regenerate it with 'mobilemcp gen'"},
		{"a Go capability whose hints the descriptor gives otherwise", func() *Tool {
			tool := NewTool("res/xml/mcp_capabilities.xml", compiled(strings.Replace(smsDescriptor, `mcp:openWorld="true"`, `mcp:openWorld="false"`, 1)))
			tool.AddGo(javaplatform.Capabilities(&fakeJava{})...)
			return tool
		}(), "intentbridge: the tool cannot start:\n  send_sms: res/xml/mcp_capabilities.xml declares hints other than the engine's send_sms does; regenerate it with 'mobilemcp gen'"},
		{"a capability both in Java and in Go", func() *Tool {
			tool := smsTool(&fakeJava{})
			tool.SetHandler("send_sms", stub)
			return tool
		}(), "intentbridge: the tool cannot start:\n  send_sms has a handler and is also implemented in Go; keep one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := OpenBridge("")
			defer b.Close()
			err := b.Start(tt.tool)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Start:\n got %v\nwant %s", err, tt.want)
			}
			// A bridge that did not start answers every request, and says why.
			why := strings.TrimSpace(strings.TrimPrefix(tt.want, "intentbridge: the tool cannot start:"))
			if r := handle(b, notesRequest("n", `{}`), testAgent); r.Success() || r.ErrorCode() != "internal_error" ||
				!strings.Contains(r.SpecJSON(), `"message":"this tool cannot start, so it runs nothing; its developer must fix this: `+jsonText(why)+`"`) {
				t.Errorf("a request after the refusal: %s", r.SpecJSON())
			}
		})
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	data := bytes.TrimSpace(buf.Bytes())
	return string(data[1 : len(data)-1])
}

func TestARequestBeforeStart(t *testing.T) {
	b, _ := OpenBridge("")
	defer b.Close()
	want := specReply(`{"id":null,"status":"failure","message":"the tool has not started; its service answers once its descriptor and handlers are loaded","error_code":"internal_error"}`)
	if r := handle(b, notesRequest("n", `{}`), testAgent); r.SpecJSON() != want {
		t.Errorf("\n got %s\nwant %s", r.SpecJSON(), want)
	}
}

func TestStartFailedIsWhatEveryRequestHears(t *testing.T) {
	b, _ := OpenBridge("")
	defer b.Close()
	b.StartFailed("com.example.NotesService cannot start: the service has no mobile.mcp.tool.capabilities meta-data")
	want := specReply(`{"id":null,"status":"failure","message":"this tool cannot start, so it runs nothing; its developer must fix this: com.example.NotesService cannot start: the service has no mobile.mcp.tool.capabilities meta-data","error_code":"internal_error"}`)
	if r := handle(b, notesRequest("n", `{}`), testAgent); r.SpecJSON() != want {
		t.Errorf("\n got %s\nwant %s", r.SpecJSON(), want)
	}
}

func TestStartServesOneToolOnly(t *testing.T) {
	b := openSMS(t, notesTool(&javaStub{}, &javaStub{}), "")
	if err := b.Start(smsTool(&fakeJava{})); err == nil || err.Error() != "intentbridge: the bridge serves a tool already; open one bridge per tool" {
		t.Errorf("a second Start: %v", err)
	}
	if err := b.Start(nil); err == nil || err.Error() != "intentbridge: Start needs a Tool" {
		t.Errorf("Start(nil): %v", err)
	}
}

func TestJavaHandlersGetValidatedTypedArguments(t *testing.T) {
	create := &javaStub{result: `{"message":"Created note 7","output":{"title":"Milk","id":7}}`}
	b := openSMS(t, notesTool(create, &javaStub{}), "")
	b.AllowCaller(testAgent)

	// "true" is coerced to the declared boolean; the optional title is checked against mcp:maxLength.
	r := handle(b, notesRequest("c1", `{"title":"Milk","pinned":"true"}`), testAgent)
	want := specReply(`{"id":"c1","capability":{"id":"create_note","output":[{"name":"id","type":"integer","value":7},{"name":"title","type":"string","value":"Milk"}]},"status":"success","message":"Created note 7"}`)
	if r.SpecJSON() != want {
		t.Errorf("reply\n got %s\nwant %s", r.SpecJSON(), want)
	}
	if len(create.calls) != 1 || create.calls[0] != `{"pinned":true,"title":"Milk"}|c1|`+testAgent {
		t.Errorf("the handler got %q", create.calls)
	}
	if left := create.left[0]; left > 2000 || left < 1500 {
		t.Errorf("the handler was given %d ms of its 2 s deadline", left)
	}

	// Rejected against the descriptor: the handler never runs.
	for _, bad := range []struct{ args, want string }{
		{`{"title":5}`, "create_note: title must be a string, got number 5"},
		{`{"title":"x","color":"red"}`, `create_note: unknown argument "color"; known arguments: title, pinned`},
		{`{}`, "create_note: title is required (string: The title.)"},
		{`{"title":"` + strings.Repeat("é", 21) + `"}`, "create_note: title is 21 characters long; the limit is 20"},
	} {
		r := handle(b, notesRequest("bad", bad.args), testAgent)
		if want := specReply(`{"id":"bad","capability":{"id":"create_note"},"status":"failure","message":"` + strings.ReplaceAll(bad.want, `"`, `\"`) + `","error_code":"invalid_arguments"}`); r.SpecJSON() != want {
			t.Errorf("%s:\n got %s\nwant %s", bad.args, r.SpecJSON(), want)
		}
	}
	if len(create.calls) != 1 {
		t.Errorf("invalid requests reached the handler: %q", create.calls[1:])
	}
}

func TestJavaHandlerOutcomes(t *testing.T) {
	tests := []struct {
		name   string
		stub   *javaStub
		status string // the reply's status, message and error_code, as JSON members
	}{
		{"a failure with a code", &javaStub{result: `{"error_code":"invalid_arguments","message":"a note titled Milk exists"}`},
			`"status":"failure","message":"a note titled Milk exists","error_code":"invalid_arguments"`},
		{"platform_error", &javaStub{result: `{"error_code":"platform_error","message":"the disk is full"}`},
			`"status":"failure","message":"the disk is full","error_code":"platform_error"`},
		{"an exception", &javaStub{err: errors.New("java.lang.IllegalStateException: no database")},
			`"status":"failure","message":"create_note failed in Java: java.lang.IllegalStateException: no database","error_code":"internal_error"`},
		{"an undeclared output", &javaStub{result: `{"message":"ok","output":{"id":7,"title":"Milk","idd":8}}`},
			`"status":"failure","message":"create_note returned the output \"idd\", which its descriptor does not declare; it declares: id, title","error_code":"internal_error"`},
		{"a mistyped output", &javaStub{result: `{"message":"ok","output":{"id":"7","title":"Milk"}}`},
			`"status":"failure","message":"create_note returned the output \"id\" as string \"7\"; its descriptor declares an integer","error_code":"internal_error"`},
		{"a missing output", &javaStub{result: `{"message":"ok","output":{"id":7}}`},
			`"status":"failure","message":"create_note returned no \"title\" (string), which its descriptor declares; a successful call returns every declared output","error_code":"internal_error"`},
		{"an unknown error code", &javaStub{result: `{"error_code":"oops","message":"m"}`},
			`"status":"failure","message":"create_note's handler returned \"{\\\"error_code\\\":\\\"oops\\\",\\\"message\\\":\\\"m\\\"}\", which is not a result: its error_code \"oops\" is not one of the wire format's codes","error_code":"internal_error"`},
		{"not a result", &javaStub{result: `{"msg":"ok"}`},
			`"status":"failure","message":"create_note's handler returned \"{\\\"msg\\\":\\\"ok\\\"}\", which is not a result: it has the member \"msg\", which is none of message, output, error_code and retry_after_ms","error_code":"internal_error"`},
		{"neither message nor code", &javaStub{result: `{"output":{"id":7,"title":"x"}}`},
			`"status":"failure","message":"create_note's handler returned \"{\\\"output\\\":{\\\"id\\\":7,\\\"title\\\":\\\"x\\\"}}\", which is not a result: it has neither a message nor an error_code","error_code":"internal_error"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := openSMS(t, notesTool(tt.stub, &javaStub{}), "")
			b.AllowCaller(testAgent)
			r := handle(b, notesRequest("o1", `{"title":"Milk"}`), testAgent)
			if want := specReply(`{"id":"o1","capability":{"id":"create_note"},` + tt.status + `}`); r.SpecJSON() != want {
				t.Errorf("\n got %s\nwant %s", r.SpecJSON(), want)
			}
		})
	}
}

func TestARetriedJavaCallRunsOnce(t *testing.T) {
	create := &javaStub{result: `{"message":"Created note 7","output":{"id":7,"title":"Milk"}}`}
	b := openSMS(t, notesTool(create, &javaStub{}), t.TempDir())
	b.AllowCaller(testAgent)
	first := handle(b, notesRequest("once", `{"title":"Milk"}`), testAgent)
	again := handle(b, notesRequest("once", `{"title":"Milk"}`), testAgent)
	if len(create.calls) != 1 || again.SpecJSON() != first.SpecJSON() {
		t.Errorf("%d calls; retry %s, first %s", len(create.calls), again.SpecJSON(), first.SpecJSON())
	}
}

func TestConsentGatesWhatChangesState(t *testing.T) {
	list := &javaStub{result: `{"message":"2 notes","output":{"count":2}}`}
	create := &javaStub{result: `{"message":"ok","output":{"id":1,"title":"x"}}`}
	b := openSMS(t, notesTool(create, list), "")
	listRequest := `{"id":"l1","capability":{"id":"list_notes","input":"{}"}}` // the prototype agent's shape
	if r := handle(b, listRequest, "com.example.stranger"); !r.Success() || !r.Prototype() {
		t.Errorf("read-only list_notes for an app without consent: %s", r.SpecJSON())
	}
	want := specReply(`{"id":"c","capability":{"id":"create_note"},"status":"failure","message":"the user has not yet allowed com.example.stranger to use create_note; a notification on the phone asks them, so retry once they allow it","error_code":"consent_required"}`)
	if r := handle(b, notesRequest("c", `{"title":"x"}`), "com.example.stranger"); r.SpecJSON() != want {
		t.Errorf("create_note without consent:\n got %s\nwant %s", r.SpecJSON(), want)
	}
	if len(create.calls) != 0 {
		t.Errorf("create_note ran without consent")
	}
}

func TestAnOverrunningJavaHandlerIsAnsweredAtItsDeadline(t *testing.T) {
	create := &javaStub{result: `{"message":"late","output":{"id":1,"title":"x"}}`, block: make(chan struct{})}
	tool := notesTool(create, &javaStub{})
	tool.SetTimeoutMillis(100)
	b := openSMS(t, tool, "")
	b.AllowCaller(testAgent)

	to := &replies{}
	returned := make(chan struct{})
	go func() {
		b.Handle(notesRequest("slow", `{"title":"x"}`), testAgent, to)
		close(returned)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for len(to.all()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	want := specReply(`{"id":"slow","capability":{"id":"create_note"},"status":"failure","message":"create_note did not finish within 100ms; it may still complete, so check before retrying with a new request id","error_code":"timeout"}`)
	if got := to.all(); len(got) != 1 || got[0].SpecJSON() != want {
		t.Fatalf("while the handler still runs: %d replies %v\nwant %s", len(got), got, want)
	}
	select {
	case <-returned:
		t.Fatal("Handle returned before its handler did")
	default:
	}
	close(create.block)
	<-returned
	if got := to.all(); len(got) != 1 {
		t.Errorf("the late outcome was delivered too: %d replies", len(got))
	}
}

// checkStub stands in for a Java argument check: it records each check and
// answers with problem (or fails with err).
type checkStub struct {
	problem string
	err     error
	mu      sync.Mutex
	checks  []string
}

func (v *checkStub) Check(argsJSON string) (string, error) {
	v.mu.Lock()
	v.checks = append(v.checks, argsJSON)
	v.mu.Unlock()
	return v.problem, v.err
}

// A Java argument check is the capability's own check: it runs after the
// descriptor's checks and before consent, the reply store and the rate
// limit, so an invalid call is rejected without asking the user or using
// budget.
func TestAJavaArgumentCheckRunsBeforeConsentAndTheRateLimit(t *testing.T) {
	create := &javaStub{result: `{"message":"Created note 7","output":{"id":7,"title":"Milk"}}`}
	check := &checkStub{problem: "title is blank"}
	tool := notesTool(create, &javaStub{})
	tool.SetArgumentCheck("create_note", check)
	b := openSMS(t, tool, t.TempDir())
	if err := b.SetSendRateLimit("1/hour"); err != nil {
		t.Fatal(err)
	}
	invalid := specReply(`{"id":"v","capability":{"id":"create_note"},"status":"failure","message":"title is blank","error_code":"invalid_arguments"}`)
	for _, caller := range []string{"com.example.stranger", testAgent, testAgent} {
		if caller == testAgent {
			b.AllowCaller(testAgent)
		}
		if r := handle(b, notesRequest("v", `{"title":" ","pinned":"true"}`), caller); r.SpecJSON() != invalid {
			t.Errorf("from %s:\n got %s\nwant %s", caller, r.SpecJSON(), invalid)
		}
	}
	if want := []string{`{"pinned":true,"title":" "}`, `{"pinned":true,"title":" "}`, `{"pinned":true,"title":" "}`}; !slices.Equal(check.checks, want) {
		t.Errorf("the argument check got %q, want the typed arguments %q", check.checks, want)
	}
	// The descriptor's own checks come first: the argument check never sees a mistyped call.
	handle(b, notesRequest("t", `{"title":5}`), testAgent)
	if len(check.checks) != 3 {
		t.Errorf("the argument check saw a call the descriptor rejects")
	}
	// Valid now, and the one call of the budget is still there.
	check.problem = ""
	if r := handle(b, notesRequest("v", `{"title":"Milk"}`), testAgent); !r.Success() || len(create.calls) != 1 {
		t.Errorf("a valid call after the invalid ones: %s", r.SpecJSON())
	}
	// An exception in the argument check is the tool's bug, not the caller's.
	check.err = errors.New("java.lang.NullPointerException")
	want := specReply(`{"id":"x","capability":{"id":"create_note"},"status":"failure","message":"create_note's argument check failed in Java: java.lang.NullPointerException","error_code":"internal_error"}`)
	if r := handle(b, notesRequest("x", `{"title":"Milk"}`), testAgent); r.SpecJSON() != want {
		t.Errorf("a throwing argument check:\n got %s\nwant %s", r.SpecJSON(), want)
	}
}

func TestStartRefusesAMisplacedArgumentCheck(t *testing.T) {
	tests := []struct {
		name string
		tool func() *Tool
		want string
	}{
		{"for an undeclared capability", func() *Tool {
			tool := notesTool(&javaStub{}, &javaStub{})
			tool.SetArgumentCheck("crate_note", &checkStub{})
			return tool
		}, `intentbridge: the tool cannot start:` + "\n  " + `there is an argument check for "crate_note", which res/xml/notes.xml does not declare (it declares create_note, list_notes)`},
		{"null", func() *Tool {
			tool := notesTool(&javaStub{}, &javaStub{})
			tool.SetArgumentCheck("create_note", nil)
			return tool
		}, "intentbridge: the tool cannot start:\n  the argument check of create_note is null"},
		{"for a capability implemented in Go", func() *Tool {
			tool := smsTool(&fakeJava{})
			tool.SetArgumentCheck("send_sms", &checkStub{})
			return tool
		}, "intentbridge: the tool cannot start:\n  send_sms is implemented in Go, which checks its arguments itself; remove its argument check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := OpenBridge("")
			defer b.Close()
			if err := b.Start(tt.tool()); err == nil || err.Error() != tt.want {
				t.Errorf("Start:\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}

// A handler is told of the caller Android vouches for, and of no other: a
// bound Message's sender and adb's shell, but not an Intent's callback
// creator, which any app handed that PendingIntent can claim to be.
func TestAHandlerIsToldOnlyOfACallerAndroidVouchesFor(t *testing.T) {
	list := &javaStub{result: `{"message":"0 notes","output":{"count":0}}`}
	b := openSMS(t, notesTool(&javaStub{}, list), "")
	request := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"l","capability":{"id":"list_notes"}}}}`
	var bound, inIntent, shell replies
	b.Handle(request, testAgent, &bound)
	handleIntent(b, request, testAgent, &inIntent)
	handleShell(b, request, &shell)
	for _, to := range []*replies{&bound, &inIntent, &shell} {
		if sent := to.all(); len(sent) != 1 || sent[0].code != "" {
			t.Fatalf("replies: %d, the first %+v", len(sent), *sent[0])
		}
	}
	want := []string{"{}|l|" + testAgent, "{}|l|", "{}|l|(adb shell)"}
	if !slices.Equal(list.calls, want) {
		t.Errorf("the handler was told of\n%q\nwant\n%q", list.calls, want)
	}
}

// A tool whose descriptor mobilemcp lint refuses does not start, and says
// what lint says. The descriptors are the examples of the lint rules
// (docs/reference/lint-rules.md) that break one, each handed to the engine
// as a phone hands it: the tree of the compiled resource. (A file that is
// not well-formed XML, xml-syntax, never compiles; a manifest is not a
// descriptor.)
func TestStartRefusesWhatLintRefuses(t *testing.T) {
	files, err := filepath.Glob("../engine/descriptor/xmlfile/testdata/lint-rules/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no lint rule examples: %v", err)
	}
	example := regexp.MustCompile("(?s)```xml\n(.*?)```")
	refused := 0
	for _, file := range files {
		rule := strings.TrimSuffix(filepath.Base(file), ".txt")
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m := example.FindSubmatch(text)
		if m == nil || rule == "xml-syntax" || strings.HasPrefix(rule, "manifest-") {
			continue
		}
		const name = "res/xml/mcp_capabilities.xml"
		var errs []string
		for _, f := range xmlfile.Lint(name, m[1], nil) {
			if f.Severity == descriptor.Error {
				errs = append(errs, f.String())
			}
		}
		b, _ := OpenBridge("")
		err = b.Start(NewTool(name, compiled(string(m[1]))))
		b.Close()
		if len(errs) == 0 {
			if err != nil && strings.Contains(err.Error(), "descriptor has errors") {
				t.Errorf("%s: lint finds no error, but the engine refuses the descriptor: %v", rule, err)
			}
			continue
		}
		refused++
		want := "intentbridge: the tool cannot start: its descriptor has errors:\n  " + strings.Join(errs, "\n  ")
		if err == nil || err.Error() != want {
			t.Errorf("%s: Start:\n got %v\nwant %s", rule, err, want)
		}
	}
	if refused < 10 {
		t.Errorf("only %d examples broke an error rule", refused)
	}
}
