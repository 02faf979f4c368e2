package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// serve --stdio writes JSON-RPC and nothing else on stdout, whatever the
// lines it reads, and ends at the end of stdin with the send in the outbox.
func TestServeStdioWritesOnlyJSONRPCOnStdout(t *testing.T) {
	c := newCLI(t)
	stdin := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{oops`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}`,
	}, "\n") + "\n"
	code, out, errOut := c.run(stdin, "serve", "--stdio")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	ids := map[string]bool{}
	for _, line := range lines {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.JSONRPC != "2.0" {
			t.Errorf("stdout has a line that is not JSON-RPC: %q", line)
		}
		ids[string(m.ID)] = true
	}
	if len(lines) != 3 || !ids["1"] || !ids["2"] || !ids["null"] {
		t.Errorf("stdout: want the answers to 1, 2 and the bad line:\n%s", out)
	}
	if !strings.HasPrefix(errOut, "mobilemcp serve: serving MCP on stdin and stdout (tools: send_sms, get_sms_subscriptions); simulated sends go to ") ||
		!strings.Contains(errOut, "msg=tools/call client=stdio tool=send_sms outcome=ok") {
		t.Errorf("stderr: %s", errOut)
	}
	records, err := simphone.ReadOutbox(c.dataDir + "/" + simphone.OutboxFile)
	if err != nil || len(records) != 1 {
		t.Errorf("the outbox: %d records, %v", len(records), err)
	}
}

func TestServeStdioRefusesTheHTTPFlags(t *testing.T) {
	code, out, errOut := newCLI(t).run("", "serve", "--stdio", "--addr", "0.0.0.0:1", "--token", "x")
	want := "mobilemcp serve: --addr, --token: --stdio serves the program that started it on stdin and stdout, with no address, token or origin\n"
	if code != exitUsage || out != "" || !strings.HasPrefix(errOut, want) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// The program on stdio is a client of its own: the rate limit's message
// says the budget is its alone.
func TestServeStdioRateLimitIsThisClients(t *testing.T) {
	send := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":14}}}`, id)
	}
	stdin := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		send(2), send(3),
	}, "\n") + "\n"
	code, out, errOut := newCLI(t).run(stdin, "serve", "--stdio", "--rate-limit", "1/hour")
	want := `"text":"rate_limited: send_sms is limited to 1/hour for this client; retry in 3600 seconds"`
	if code != exitOK || strings.Count(out, "SMS sent to") != 1 || !strings.Contains(out, want) {
		t.Errorf("exit %d; want one send and %s:\n%s\n%s", code, want, out, errOut)
	}
}

// A batch after initialize has agreed on 2025-03-26, which allows batches,
// is answered on one line, and serve goes on to the next request.
func TestServeStdioAnswersABatchAndGoesOn(t *testing.T) {
	stdin := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
	}, "\n") + "\n"
	code, out, errOut := newCLI(t).run(stdin, "serve", "--stdio")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	// Written all at once, the lines are answered in any order.
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	slices.Sort(lines)
	if len(lines) != 3 || !strings.HasPrefix(lines[0], `[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":3,"result":{"ttlMs":0,"cacheScope":"public","tools":[`) ||
		!strings.HasPrefix(lines[1], `{"jsonrpc":"2.0","id":1,"result":{"capabilities":{"tools":{}},"protocolVersion":"2025-03-26"`) ||
		lines[2] != `{"jsonrpc":"2.0","id":4,"result":{}}` {
		t.Errorf("stdout: want the answers to 1, the batch and 4:\n%s", out)
	}
}
