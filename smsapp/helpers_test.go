package smsapp

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/intentbridge"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/javaplatform/javaplatformtest"
)

// fakeJava stands in for the SMS app's Java platform.
type fakeJava = javaplatformtest.Fake

const seedSubs = javaplatformtest.Subscriptions

// testAgent is the calling app the tests allow.
const testAgent = "com.example.agent"

// smsDescriptor is the SMS app's descriptor, as 'mobilemcp gen' writes it.
var smsDescriptor = string(xmlfile.Render(func() []*capability.Capability {
	reg, err := capability.NewRegistry(sms.Capabilities(nil)...)
	if err != nil {
		panic(err)
	}
	return reg.All()
}()))

// compiled is what the app hands the engine for the descriptor xml: the
// JSON tree of its compiled resource.
func compiled(xml string) string {
	tree, err := xmlfile.TreeJSON([]byte(xml))
	if err != nil {
		panic(err)
	}
	return string(tree)
}

// smsTool is the SMS app's tool over f, as the app makes it.
func smsTool(f *fakeJava) *intentbridge.Tool {
	tool := intentbridge.NewTool("mcp_capabilities.xml", compiled(smsDescriptor))
	AddSMS(tool, f)
	return tool
}

// newServer opens a bridge serving the SMS tool over f, with testAgent
// allowed, and returns it with its Server; both close when the test ends.
func newServer(t *testing.T, f *fakeJava) (*intentbridge.Bridge, *Server) {
	t.Helper()
	b := openTool(t, smsTool(f), t.TempDir())
	if err := b.AllowCaller(testAgent); err != nil {
		t.Fatal(err)
	}
	return b, ServerFor(b)
}

// openTool opens a bridge on dir serving tool, quiet, closed when the test ends.
func openTool(t *testing.T, tool *intentbridge.Tool, dir string) *intentbridge.Bridge {
	t.Helper()
	b, err := intentbridge.OpenBridge(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	b.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := b.Start(tool); err != nil {
		t.Fatal(err)
	}
	return b
}

// sent is one reply as a ReplyTarget gets it.
type sent struct{ spec, flat, id, code string }

func (s *sent) SpecJSON() string  { return s.spec }
func (s *sent) ErrorCode() string { return s.code }
func (s *sent) Success() bool     { return s.code == "" }

// replies is a ReplyTarget that keeps what it is sent.
type replies struct {
	mu   sync.Mutex
	sent []*sent
}

func (r *replies) Send(specJSON, flatJSON, requestID, errorCode string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, &sent{specJSON, flatJSON, requestID, errorCode})
	return nil
}

// handle runs one request through b as caller (binding mode) and returns its one reply.
func handle(b *intentbridge.Bridge, request, caller string) *sent {
	var to replies
	b.Handle(request, caller, &to)
	if len(to.sent) != 1 {
		panic(fmt.Sprintf("Handle delivered %d replies to %.80s", len(to.sent), request))
	}
	return to.sent[0]
}

func sendRequest(id string) string {
	return `{"mobile-mcp-request":{"version":"1.0","request":{"id":"` + id + `","capability":{"id":"send_sms","args":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":"14"}}}}}`
}
