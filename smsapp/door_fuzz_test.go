package smsapp

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/intentbridge"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// everyFieldHidden is a notes app's descriptor with hidden in every
// field: ids, titles, descriptions, versions, param names and patterns.
// The gateway refuses a tool whose names or patterns hold a character
// that is not shown; the free text it takes.
const everyFieldHidden = `<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
  <capability id="create_note%[2]s" description="Saves a note.%[1]s" version="1.0%[1]s" mcp:title="Create%[1]s note" mcp:readOnly="false">
    <input><param name="title%[2]s" type="string" required="true" description="A title.%[1]s" mcp:pattern="^.*%[2]s$"/></input>
    <output><param name="id%[2]s" type="integer" description="Its id.%[1]s"/></output>
  </capability>
  <capability id="list_notes" description="Lists notes.%[1]s" version="1.0" mcp:title="List%[1]s notes" mcp:readOnly="true">
    <input><param name="filter" type="string" required="false" description="Words.%[1]s"/></input>
    <output>
      <param name="count" type="integer" description="How many.%[1]s"/>
      <param name="notes" type="array" description="The notes.%[1]s" mcp:items="object"/>
    </output>
  </capability>
</mobile-mcp-capabilities>`

// hostileReplies are the replies a shared app's Java caller hands the
// gateway, with hidden (JSON-quoted) in every field a reply has: its
// request id, capability id, status, message, error_code, and its
// outputs' names, types and values; and a refusal of the client library.
var hostileReplies = []func(hidden string) (string, error){
	func(h string) (string, error) {
		return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"r1` + h + `","capability":{"id":"list_notes","output":[` +
			`{"name":"count","type":"integer","value":1},{"name":"notes","type":"array","value":[{"id":1,"title":"Milk` + h + `","body` + h + `":"` + h + `"}]}]},` +
			`"status":"success","message":"1 note` + h + `"}}}`, nil
	},
	func(h string) (string, error) {
		return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"r1","capability":{"id":"list_notes` + h + `","output":[]},"status":"success","message":"x"}}}`, nil
	},
	func(h string) (string, error) {
		return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"r1","status":"success` + h + `","message":"x"}}}`, nil
	},
	func(h string) (string, error) {
		return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"r1","status":"failure","error_code":"invalid_arguments` + h + `","message":"No` + h + `"}}}`, nil
	},
	func(h string) (string, error) {
		return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"r1","capability":{"id":"list_notes","output":[` +
			`{"name":"count","type":"integer","value":1},{"name":"notes","type":"array","value":[]},{"name":"more` + h + `","type":"string` + h + `","value":"` + h + `"}]},"status":"success","message":"x"}}}`, nil
	},
	func(h string) (string, error) {
		return "", errors.New("the reply names request r1" + h + " and capability list_notes" + h + ", not the call's")
	},
}

// FuzzASharedAppHidesNothingFromTheClient shares, through the gateway as
// the SMS app runs it, an app whose descriptor and replies carry the
// fuzzed text in every field, and checks that no character a person does
// not see reaches the MCP client: in tools/list, in any tools/call result
// or error. Each input makes two dozen HTTP requests, so:
// scripts/fuzz.sh gives it at most 5000 inputs.
func FuzzASharedAppHidesNothingFromTheClient(f *testing.F) {
	for _, seed := range []string{
		"\U000E0049\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065", // tag characters
		"\uFE04\uFE09\uFE06\uFE07\U000E0100",                           // variation selectors
		"\u115F\u1160\u3164\uFFA0\u034F\u2800",                         // fillers, the blank Braille pattern
		"\u2000\u2003\u200A\u205F\u3000",                               // blank spaces of other widths
		"\u200B\u200C\u200D\u2060\uFEFF\u00AD",                         // zero-width characters
		"\u202E\u2066\u2069\u061C",                                     // bidirectional controls
		"\uE000\U000F0000",                                             // private use
		"\r\x00\x1b\u0085\u2028",                                       // controls and line ends
		"plain words",
	} {
		f.Add(seed)
	}
	b, err := intentbridge.OpenBridge(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { b.Close() })
	b.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err := b.Start(smsTool(&fakeJava{Subs: seedSubs})); err != nil {
		f.Fatal(err)
	}
	s := ServerFor(b)
	var mu sync.Mutex
	var reply func() (string, error)
	s.SetRemoteCaller(&javaCaller{reply: func(string, string) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		return reply()
	}})
	if err := s.StartHTTP("127.0.0.1:0", ""); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.StopHTTP() })
	url := s.ServingURL()
	// One connection kept open: each input makes two dozen requests.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}}
	f.Cleanup(client.CloseIdleConnections)
	f.Fuzz(func(t *testing.T, hidden string) {
		quoted, _ := json.Marshal(hidden)
		inJSON := string(quoted[1 : len(quoted)-1])
		// In free text only, and everywhere: the first is shared, the
		// second refused when it holds what is not shown.
		for i, pkg := range []string{"com.example.words", "com.example.names"} {
			names := ""
			if i == 1 {
				names = hidden
			}
			if tree, err := xmlfile.TreeJSON([]byte(fmt.Sprintf(everyFieldHidden, xmlText(hidden), xmlText(names)))); err == nil {
				s.SetRemoteTool(pkg, string(tree), true)
			}
		}
		requests := []string{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`}
		for _, tool := range []string{"com_example_words-list_notes", "com_example_names-list_notes", "com_example_words-create_note"} {
			requests = append(requests, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"`+tool+`","arguments":{}}}`)
		}
		for _, answer := range hostileReplies {
			mu.Lock()
			reply = func() (string, error) { return answer(inJSON) }
			mu.Unlock()
			for _, request := range requests {
				body := post(t, client, url, request)
				if unseen := unseenIn(body); unseen != "" {
					t.Fatalf("%s reached the client in the answer to %s:\n%s", unseen, request, body)
				}
			}
		}
	})
}

// post sends an MCP request and returns the answer's body.
func post(t *testing.T, client *http.Client, url, request string) string {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(request))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// xmlText is s escaped for an XML attribute, without the characters XML
// cannot carry at all.
func xmlText(s string) string {
	var buf bytes.Buffer
	xml.EscapeText(&buf, []byte(strings.Map(func(r rune) rune {
		if r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF {
			return r
		}
		return -1
	}, s)))
	return buf.String()
}

// unseenIn names the first character a person does not see (an invisible
// one, or a blank space of another width) in a string of body, a
// JSON-RPC answer, member names included, but for the client's own id; ""
// when there is none.
func unseenIn(body string) string {
	var v any
	if json.Unmarshal([]byte(body), &v) != nil {
		v = body
	} else if m, ok := v.(map[string]any); ok {
		delete(m, "id")
	}
	var walk func(v any) string
	walk = func(v any) string {
		switch v := v.(type) {
		case string:
			if at := strings.IndexFunc(v, func(r rune) bool { return text.IsInvisible(r) || text.IsBlank(r) }); at >= 0 {
				return fmt.Sprintf("%+q", v[at:])
			}
		case []any:
			for _, e := range v {
				if found := walk(e); found != "" {
					return found
				}
			}
		case map[string]any:
			for k, e := range v {
				if found := walk(k); found != "" {
					return found
				}
				if found := walk(e); found != "" {
					return found
				}
			}
		}
		return ""
	}
	return walk(v)
}
