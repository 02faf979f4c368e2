package mcpserver_test

import (
	"regexp"
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// A shared tool's call reaches its app under a request id derived from
// the client's own in _meta: the same for a retry, so that the app's reply
// store answers it; a fresh one from the app when the client gives none;
// and never the client's id itself, nor another client's for the same id.
func TestASharedToolsCallCarriesARequestIDDerivedFromTheClients(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	notes := &fakeApp{reply: func(id string) (string, error) {
		return replyJSON(id, "Saved note 7", `[{"name":"id","type":"integer","value":7}]`), nil
	}}
	if _, err := s.srv.Share(mcpserver.SharedApp{Package: notesPackage, Capabilities: notesCapabilities(t), Call: notes.call}); err != nil {
		t.Fatal(err)
	}
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"io_github_mobilemcp_notes-create_note","arguments":{"title":"Milk"},"_meta":{"io.github.mobilemcp/request_id":"r-1"}}}`
	for range 2 {
		if status, body := s.post(nil, call); status != 200 {
			t.Fatalf("HTTP %d %s", status, body)
		}
	}
	s.call("io_github_mobilemcp_notes-create_note", `{"title":"Eggs"}`)
	want := mcpserver.SharedRequestID("mcp:loopback", "r-1")
	if got := notes.requestIDs; !slices.Equal(got, []string{want, want, ""}) {
		t.Errorf("the app got the request ids %q; want %q twice, then none", got, want)
	}
	if !regexp.MustCompile(`^mcp-[0-9a-f]{64}$`).MatchString(want) {
		t.Errorf("RemoteRequestID = %q; want mcp- and 64 hex digits", want)
	}
	for _, other := range []string{mcpserver.SharedRequestID("mcp:token", "r-1"), mcpserver.SharedRequestID("mcp:loopback", "r-2"), mcpserver.SharedRequestID("mcp:loopback\x00r", "-1")} {
		if other == want {
			t.Errorf("another client's or another id's request id is %q too", want)
		}
	}
}
