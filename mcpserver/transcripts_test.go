package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// transcriptReplies are the replies of the reference transcripts to the
// requests in testdata/transcripts, as far as this server must match them: every member
// here must be in the reply with the same value, and every array must
// have the same elements, in any order (the SDK sorts tools by name).
// Deliberate differences: serverInfo names this server, and tools has no
// "listChanged":false, which the SDK cannot write (omitempty).
var transcriptReplies = map[string]string{
	"1-initialize.http": `{"id":0,"jsonrpc":"2.0","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},` +
		`"serverInfo":{"name":"mobilemcp","version":"` + mcpserver.Version() + `","title":"mobilemcp SMS"}}}`,
	// The first transcript's reply, verbatim.
	"2-tools-list.http": `{"id":1,"result":{"tools":[
		{"name":"send_sms","description":"Sends an SMS message to a specified phone number.","inputSchema":{"type":"object","required":["to_phone_number","sms_text"],"properties":{
			"to_phone_number":{"type":"string","description":"The phone number the SMS should be sent to in international format starting with a plus sign followed by the country code. For example +36201234567"},
			"sms_text":{"type":"string","description":"The text of the sms messages to be sent. The maximum length is 160 characters"},
			"subscription_id":{"type":"integer","description":"SMS subscription ID to use for sending. Required when sending is allowed on more than one active subscription."}}}},
		{"name":"get_sms_subscriptions","description":"Returns the list of active SMS subscriptions available on the device.","inputSchema":{"type":"object","required":[],"properties":{}}}]},"jsonrpc":"2.0"}`,
	"3-get-sms-subscriptions.http": `{"id":15,"result":{"content":[{"type":"text","text":` + quote(subscriptionsText) + `}]},"jsonrpc":"2.0"}`,
	// The second transcript's reply, verbatim.
	"4-send-sms.http": `{"id":16,"result":{"content":[{"type":"text","text":"SMS sent to +33785880347"}]},"jsonrpc":"2.0"}`,
}

// TestReferenceTransactions replays the requests of the Android SMS MCP
// server's reference transcripts and checks each reply against theirs.
func TestReferenceTransactions(t *testing.T) {
	s := startServer(t, mcpserver.Options{})
	files, err := filepath.Glob("testdata/transcripts/*.http")
	if err != nil || len(files) != 4 {
		t.Fatalf("transcript requests %v, %v; want 4", files, err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			status, header, body := s.replay(file)
			if status != http.StatusOK || header.Get("Content-Type") != "application/json" {
				t.Fatalf("HTTP %d %s: %s", status, header.Get("Content-Type"), body)
			}
			var got, want any
			if err := json.Unmarshal([]byte(body), &got); err != nil {
				t.Fatalf("reply %s: %v", body, err)
			}
			if err := json.Unmarshal([]byte(transcriptReplies[name]), &want); err != nil {
				t.Fatal(err)
			}
			if problem := contains(got, want, "reply"); problem != "" {
				t.Errorf("%s\nreply: %s", problem, body)
			}
		})
	}
	// The transcripts' property names are all there are: no extra ones.
	var list struct {
		Result struct {
			Tools []struct {
				Name        string
				InputSchema struct{ Properties map[string]any }
			}
		}
	}
	_, _, body := s.replay("testdata/transcripts/2-tools-list.http")
	json.Unmarshal([]byte(body), &list)
	props := map[string][]string{}
	for _, tool := range list.Result.Tools {
		props[tool.Name] = []string{}
		for name := range tool.InputSchema.Properties {
			props[tool.Name] = append(props[tool.Name], name)
		}
		slices.Sort(props[tool.Name])
	}
	want := map[string][]string{"send_sms": {"sms_text", "subscription_id", "to_phone_number"}, "get_sms_subscriptions": {}}
	if !reflect.DeepEqual(props, want) {
		t.Errorf("input properties %v, want %v", props, want)
	}
	if n := s.sends(); n != 1 {
		t.Errorf("the reference transactions sent %d SMS, want 1", n)
	}
}

// replay sends a raw transcript request with its own headers, except Host, which
// must be the server's: the SDK's DNS-rebinding guard rejects a foreign
// Host on a loopback connection.
func (s *testServer) replay(file string) (int, http.Header, string) {
	s.t.Helper()
	f, err := os.Open(file)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	// The files have no Content-Length, so http.ReadRequest would read no
	// body: read the request line and headers, then take the rest.
	r := bufio.NewReader(f)
	tp := textproto.NewReader(r)
	if _, err := tp.ReadLine(); err != nil {
		s.t.Fatalf("%s: %v", file, err)
	}
	header, err := tp.ReadMIMEHeader()
	if err != nil {
		s.t.Fatalf("%s: %v", file, err)
	}
	body, err := io.ReadAll(r)
	if err != nil {
		s.t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, s.url, bytes.NewReader(bytes.TrimSpace(body)))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header = http.Header(header)
	req.Header.Del("Host")
	req.Host = s.host
	return s.do(req)
}

// contains reports where got lacks something of want: a member, a value or
// an array element. Arrays must have the same length and the same
// elements, in any order.
func contains(got, want any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: got %v, want an object", path, got)
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s: no member %q", path, k)
			}
			if p := contains(gv, w[k], path+"."+k); p != "" {
				return p
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: got %v, want %d elements like %v", path, got, len(w), w)
		}
		used := make([]bool, len(g))
	next:
		for i, we := range w {
			for j, ge := range g {
				if !used[j] && contains(ge, we, "") == "" {
					used[j] = true
					continue next
				}
			}
			return fmt.Sprintf("%s: no element matches [%d] %v", path, i, we)
		}
		return ""
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("%s: got %v, want %v", path, got, want)
	}
	return ""
}
