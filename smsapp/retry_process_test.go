package smsapp

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/intentbridge"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

// The test binary plays the processes of a phone when started with
// processEnv set: "gateway" is the SMS app serving the notes app's tools
// over MCP (its URL on the first line of its output, then it serves until
// it is killed), and "notes" is the notes app's tool process answering one
// Mobile-MCP request from its stdin. Each keeps its data in its own
// directory, as each app does on a phone.
const (
	processEnv  = "SMSAPP_TEST_PROCESS"
	gatewayDir  = "SMSAPP_TEST_GATEWAY_DIR"
	notesDir    = "SMSAPP_TEST_NOTES_DIR"
	notesDelay  = "SMSAPP_TEST_NOTES_DELAY" // a file: while it exists, create_note waits
	notesOutbox = "notes.txt"               // one line per note created
	// gatewayApp is the package the notes app knows the gateway by.
	gatewayApp = "io.github.mobilemcp.app"
)

func TestMain(m *testing.M) {
	switch os.Getenv(processEnv) {
	case "gateway":
		runGateway()
		return
	case "notes":
		runNotes()
		return
	}
	os.Exit(m.Run())
}

// runGateway is the SMS app's process: its MCP server shares the notes
// app's tools, each call a separate notes process (processCaller).
func runGateway() {
	fail := func(err error) { fmt.Fprintln(os.Stderr, "gateway:", err); os.Exit(1) }
	b, err := intentbridge.OpenBridge(os.Getenv(gatewayDir))
	if err != nil {
		fail(err)
	}
	b.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := b.Start(smsTool(&fakeJava{Subs: seedSubs})); err != nil {
		fail(err)
	}
	s := ServerFor(b)
	s.SetRemoteCaller(processCaller{dir: os.Getenv(notesDir)})
	xml, err := os.ReadFile("../android/notes/res/xml/mcp_capabilities.xml")
	if err != nil {
		fail(err)
	}
	if err := s.SetRemoteTool(notesPackage, compiled(string(xml)), true); err != nil {
		fail(err)
	}
	if err := s.StartHTTP("127.0.0.1:0", ""); err != nil {
		fail(err)
	}
	fmt.Println(s.ServingURL())
	select {} // until killed
}

// processCaller is the SMS app's RemoteCaller: what the client library
// does on a phone, a Mobile-MCP request to the notes app, which Android
// hands to the notes app's process.
type processCaller struct{ dir string }

func (c processCaller) Call(pkg, capabilityID, requestID, argsJSON string, timeoutMillis int64) (string, error) {
	id := cmp.Or(requestID, newRequestID())
	request := `{"mobile-mcp-request":{"version":"1.0","request":{"id":` + quote(id) + `,"capability":{"id":` + quote(capabilityID) + `,"args":` + argsJSON + `}}}}`
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), processEnv+"=notes", notesDir+"="+c.dir)
	cmd.Stdin = strings.NewReader(request)
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("the notes process: %v", err)
	}
	return string(out), nil
}

// newRequestID is a fresh request id, as the client library makes one.
func newRequestID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// runNotes is one run of the notes app's tool process: the engine every
// tool app ships, on the notes app's data directory, answering the request
// on stdin as the gateway app's, which the user allowed.
func runNotes() {
	fail := func(err error) { fmt.Fprintln(os.Stderr, "notes:", err); os.Exit(1) }
	dir := os.Getenv(notesDir)
	xml, err := os.ReadFile("../android/notes/res/xml/mcp_capabilities.xml")
	if err != nil {
		fail(err)
	}
	tool := intentbridge.NewTool("mcp_capabilities.xml", compiled(string(xml)))
	tool.SetHandler("create_note", notesHandler{dir})
	tool.SetHandler("list_notes", notesHandler{dir})
	tool.SetHandler("delete_note", notesHandler{dir})
	b, err := intentbridge.OpenBridge(dir)
	if err != nil {
		fail(err)
	}
	b.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := b.Start(tool); err != nil {
		fail(err)
	}
	if err := b.AllowCaller(gatewayApp); err != nil {
		fail(err)
	}
	request, err := io.ReadAll(io.LimitReader(os.Stdin, 1<<20))
	if err != nil {
		fail(err)
	}
	reply := handle(b, string(request), gatewayApp)
	b.Close()
	fmt.Print(reply.spec)
}

// notesHandler creates a note as a line of the notes file, after waiting
// while the test's delay file exists.
type notesHandler struct{ dir string }

func (h notesHandler) Handle(argsJSON, requestID, callerPackage string, timeoutMillis int64) (string, error) {
	if delay := os.Getenv(notesDelay); delay != "" {
		if _, err := os.Stat(delay); err == nil {
			os.WriteFile(delay+".running", nil, 0o600)
		}
		for ; ; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(delay); err != nil {
				break
			}
		}
	}
	f, err := os.OpenFile(filepath.Join(h.dir, notesOutbox), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.WriteString(argsJSON + "\n"); err != nil {
		return "", err
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		return "", err
	}
	n := bytes.Count(data, []byte("\n"))
	return fmt.Sprintf(`{"message":"Saved note %d","output":{"id":%d}}`, n, n), nil
}

// phone runs the gateway and the notes app as separate processes.
type phone struct {
	t                 *testing.T
	gatewayDir, notes string
	delay             string
	mu                sync.Mutex
	gateway           *exec.Cmd
	url               string
}

func newPhone(t *testing.T) *phone {
	return &phone{t: t, gatewayDir: t.TempDir(), notes: t.TempDir(), delay: filepath.Join(t.TempDir(), "delay")}
}

// start starts a gateway process, as Android does after it killed the last.
func (p *phone) start() {
	p.t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), processEnv+"=gateway", gatewayDir+"="+p.gatewayDir, notesDir+"="+p.notes, notesDelay+"="+p.delay)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		p.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		p.t.Fatalf("the gateway did not start: %v", err)
	}
	p.mu.Lock()
	p.gateway, p.url = cmd, strings.TrimSpace(line)
	p.mu.Unlock()
}

// kill ends the gateway process at once, as Android kills an app.
func (p *phone) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gateway.Process.Kill()
	p.gateway.Wait()
}

// createNote calls the shared create_note with the MCP request id, and
// returns the tool result, or the error of a connection the gateway's
// end cut.
func (p *phone) createNote(requestID, title string) (string, error) {
	p.mu.Lock()
	url := p.url
	p.mu.Unlock()
	_, body, err := testkit.PostMCP(url, "", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"io_github_mobilemcp_notes-create_note",`+
		`"arguments":{"title":`+quote(title)+`},"_meta":{"io.github.mobilemcp/request_id":`+quote(requestID)+`}}}`)
	if err != nil {
		return "", err
	}
	var reply struct {
		Result json.RawMessage
		Error  json.RawMessage
	}
	if err := json.Unmarshal([]byte(body), &reply); err != nil || reply.Result == nil {
		return "", fmt.Errorf("not a tool result: %s", body)
	}
	return string(reply.Result), nil
}

// created counts the notes created with each title.
func (p *phone) created() map[string]int {
	p.t.Helper()
	data, _ := os.ReadFile(filepath.Join(p.notes, notesOutbox))
	n := map[string]int{}
	for line := range strings.Lines(string(data)) {
		var args struct{ Title string }
		if err := json.Unmarshal([]byte(line), &args); err != nil {
			p.t.Fatalf("notes file line %q: %v", line, err)
		}
		n[args.Title]++
	}
	return n
}

// A desktop agent that retries a shared tool's call under the same MCP
// request id gets the first run's reply, and the note is created once:
// retried on the same gateway, after the gateway process was killed and
// started again, and after it was killed while the notes app was still
// creating the note. The gateway and every run of the notes app are
// processes of their own, as on a phone.
func TestARetriedSharedToolCallRunsOnceAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	p := newPhone(t)
	p.start()
	first, err := p.createNote("r-1", "Milk")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"content":[{"type":"text","text":"Saved note 1"}],"structuredContent":{"id":1}}`; first != want {
		t.Fatalf("create_note: %s\nwant %s", first, want)
	}
	retried, err := p.createNote("r-1", "Milk")
	if err != nil || retried != first {
		t.Errorf("a retry on the same gateway: %s, %v\nwant the first reply %s", retried, err, first)
	}
	p.kill()
	p.start()
	if retried, err := p.createNote("r-1", "Milk"); err != nil || retried != first {
		t.Errorf("a retry after the gateway restarted: %s, %v\nwant the first reply %s", retried, err, first)
	}

	// Killed while the notes app creates the note: the agent's call gets
	// nothing, and its retry on the next gateway gets the note's reply.
	if err := os.WriteFile(p.delay, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	lost := make(chan error, 1)
	go func() { _, err := p.createNote("r-2", "Eggs"); lost <- err }()
	waitForFile(t, p.delay+".running")
	p.kill()
	if err := <-lost; err == nil {
		t.Fatal("the call through the killed gateway got a reply")
	}
	p.start()
	retry := make(chan string, 1)
	go func() {
		r, err := p.createNote("r-2", "Eggs")
		if err != nil {
			r = err.Error()
		}
		retry <- r
	}()
	time.Sleep(200 * time.Millisecond) // the retry reaches the notes app while the first run still creates the note
	os.Remove(p.delay)
	if got, want := <-retry, `{"content":[{"type":"text","text":"Saved note 2"}],"structuredContent":{"id":2}}`; got != want {
		t.Errorf("a retry after the gateway was killed mid-call: %s\nwant %s", got, want)
	}
	if got := p.created(); got["Milk"] != 1 || got["Eggs"] != 1 || len(got) != 2 {
		t.Errorf("notes created by title: %v; want Milk and Eggs once each", got)
	}
}

// waitForFile waits until path exists.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Fatalf("%s did not appear within 30 s", path)
}
