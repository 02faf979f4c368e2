package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
	"github.com/mobilemcp/mobilemcp/engine/replystore"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// asCLI makes the test binary the mobilemcp command when it is started
// with this variable set, so that tests can run the CLI as real separate
// processes without building it.
const asCLI = "MOBILEMCP_TEST_RUN_AS_CLI"

func TestMain(m *testing.M) {
	if url := os.Getenv(adbtest.ShimEnv); url != "" && strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe") == "adb" {
		adbtest.RunShim(url) // a CLI process runs "adb": the fake device of the test that started it
	}
	if os.Getenv(asCLI) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// procs starts the CLI as separate processes on one data directory.
type procs struct {
	t       *testing.T
	dataDir string
	slots   chan struct{} // bounds the processes alive at once
}

func newProcs(t *testing.T) *procs {
	return &procs{t: t, dataDir: t.TempDir(), slots: make(chan struct{}, 16)}
}

func (p *procs) command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), asCLI+"=1", "MOBILEMCP_DATA_DIR="+p.dataDir, "HOME="+p.t.TempDir())
	return cmd
}

// result is what one process printed.
type result struct {
	stdout, stderr string
	err            error
}

// run runs the CLI to its end and returns what it printed.
func (p *procs) run(args ...string) result {
	p.slots <- struct{}{}
	defer func() { <-p.slots }()
	var out, errOut bytes.Buffer
	cmd := p.command(args...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	return result{strings.TrimSpace(out.String()), errOut.String(), err}
}

// request writes a send_sms request with id to a file and returns its path.
func (p *procs) request(id, to string) string {
	path := filepath.Join(p.t.TempDir(), "request.json")
	body := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"` + id + `","capability":{"id":"send_sms","args":{"to_phone_number":"` + to + `","sms_text":"` + id + `","subscription_id":14}}}}}`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		p.t.Fatal(err)
	}
	return path
}

// sent counts the outbox's records per request id.
func (p *procs) sent() map[string]int {
	p.t.Helper()
	records, err := simphone.ReadOutbox(filepath.Join(p.dataDir, simphone.OutboxFile))
	if err != nil {
		p.t.Fatalf("reading the outbox: %v", err)
	}
	n := map[string]int{}
	for _, r := range records {
		n[r.RequestID]++
	}
	return n
}

// recorded returns the keys of the replies in replies.jsonl.
func (p *procs) recorded() map[string]bool {
	p.t.Helper()
	data, err := os.ReadFile(filepath.Join(p.dataDir, replystore.FileName))
	if err != nil {
		p.t.Fatal(err)
	}
	keys := map[string]bool{}
	for line := range strings.SplitSeq(string(data), "\n") {
		var r struct {
			Key   string          `json:"key"`
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal([]byte(line), &r) == nil && r.Value != nil {
			keys[r.Key] = true
		}
	}
	return keys
}

// waitForClaims waits until each of ids is claimed in the reply store.
func (p *procs) waitForClaims(ids []string) {
	p.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		data, _ := os.ReadFile(filepath.Join(p.dataDir, replystore.FileName))
		claimed := 0
		for _, id := range ids {
			if bytes.Contains(data, []byte(`{"key":"cli\u0000`+id+`","fingerprint":`)) {
				claimed++
			}
		}
		if claimed == len(ids) {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%d of %d sends claimed their ids within a minute", claimed, len(ids))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func sentReply(id string) string {
	return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"` + id + `","capability":{"id":"send_sms","output":[{"name":"to_phone_number","type":"string","value":"+33785880347"},{"name":"subscription_id","type":"integer","value":14},{"name":"encoding","type":"string","value":"gsm7"},{"name":"segments","type":"integer","value":1}]},"status":"success","message":"SMS sent to +33785880347"}}}`
}

// TestProcessesSharingADataDir runs the CLI, and the server, as real
// separate processes on one data directory, as 'make demo' does while
// 'make serve' runs: nothing is lost and nothing is sent twice, whatever
// the mix, through a kill -9 and a restart.
func TestProcessesSharingADataDir(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a few hundred processes")
	}
	p := newProcs(t)
	var ids []string

	// Two processes at once with the same id: one sends, the other gets
	// its reply; and many processes at once with ids of their own.
	const pairs, singles = 25, 60
	var wg sync.WaitGroup
	var mu sync.Mutex
	outputs := map[string][]result{}
	for i := range pairs + singles {
		id := fmt.Sprintf("id-%03d", i)
		ids = append(ids, id)
		file := p.request(id, "+33785880347")
		copies := 1
		if i < pairs {
			copies = 2
		}
		for range copies {
			wg.Go(func() {
				r := p.run("call", "--compact", "--raw", file)
				mu.Lock()
				outputs[id] = append(outputs[id], r)
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	sent, recorded := p.sent(), p.recorded()
	for _, id := range ids {
		for _, r := range outputs[id] {
			if r.err != nil || r.stdout != sentReply(id) {
				t.Errorf("%s: %v %s %s", id, r.err, r.stdout, r.stderr)
			}
		}
		if sent[id] != 1 {
			t.Errorf("%s was sent %d times", id, sent[id])
		}
		if !recorded["cli\x00"+id] {
			t.Errorf("%s has no reply in %s", id, replystore.FileName)
		}
	}

	// The server runs while CLI processes start, send and end around it.
	serve := p.command("serve", "--addr", "127.0.0.1:0", "--rate-limit", "off")
	stdout, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	lines.Scan()
	url := regexp.MustCompile(`http://\S+/mcp`).FindString(lines.Text())
	go io.Copy(io.Discard, stdout)
	stopServe := func() {
		serve.Process.Signal(syscall.SIGTERM)
		serve.Wait()
	}
	defer stopServe()
	post := func(id string) string {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_sms","_meta":{"io.github.mobilemcp/request_id":"` + id + `"},"arguments":{"to_phone_number":"+33785880347","sms_text":"` + id + `","subscription_id":14}}}`
		resp, err := http.Post(url, "application/json", strings.NewReader(body))
		if err != nil {
			return err.Error()
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return string(data)
	}
	var mcpIDs []string
	for i := range 30 {
		id := fmt.Sprintf("mcp-%03d", i)
		mcpIDs = append(mcpIDs, id)
		wg.Go(func() {
			if got := post(id); !strings.Contains(got, `"text":"SMS sent to +33785880347"`) {
				t.Errorf("%s over MCP: %s", id, got)
			}
		})
		if i%2 == 0 {
			cliID := fmt.Sprintf("cli-%03d", i)
			ids = append(ids, cliID)
			file := p.request(cliID, "+33785880347")
			wg.Go(func() {
				if r := p.run("call", "--compact", "--raw", file); r.err != nil || r.stdout != sentReply(cliID) {
					t.Errorf("%s: %v %s %s", cliID, r.err, r.stdout, r.stderr)
				}
			})
		}
	}
	wg.Wait()
	stopServe()
	sent, recorded = p.sent(), p.recorded()
	for _, id := range mcpIDs {
		if sent[id] != 1 || !recorded["mcp:loopback\x00"+id] {
			t.Errorf("%s: sent %d times, reply recorded: %v", id, sent[id], recorded["mcp:loopback\x00"+id])
		}
	}

	// kill -9 while sends wait for the radio: their ids were claimed and
	// the outcome never recorded. A retry must not send again.
	sims := filepath.Join(t.TempDir(), "sims.json")
	os.WriteFile(sims, []byte(`{"subscriptions":[{"subscription_id":14,"sim_slot_index":0,"carrier_name":"Vodafone UK","display_name":"Vodafone UK"}],"faults":[{"to":"+15555550199","result":"no_result","delay_ms":8000}]}`), 0o600)
	var killed []string
	var running []*exec.Cmd
	for i := range 8 {
		id := fmt.Sprintf("killed-%d", i)
		killed = append(killed, id)
		cmd := p.command("call", "--sim-config", sims, "--raw", p.request(id, "+15555550199"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		running = append(running, cmd)
	}
	p.waitForClaims(killed) // each is now waiting for the radio's 8 s
	for _, cmd := range running {
		cmd.Process.Kill()
		cmd.Wait()
	}
	for _, id := range killed {
		r := p.run("call", "--compact", "--raw", p.request(id, "+15555550199"))
		want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":"` + id + `","capability":{"id":"send_sms"},"status":"failure","message":"an earlier request with id \"` + id + `\" stopped before its outcome was recorded (its process ended); send_sms may have completed, so check before retrying with a new request id","error_code":"timeout"}}}`
		if r.stdout != want {
			t.Errorf("%s retried after its process was killed:\n got %s\nwant %s", id, r.stdout, want)
		}
	}

	// kill -9 at any moment of a burst of sends: whatever was under way,
	// a retry never sends a second time.
	running = running[:0]
	for i := range 16 {
		id := fmt.Sprintf("burst-%02d", i)
		cmd := p.command("call", "--raw", p.request(id, "+33785880347"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		running = append(running, cmd)
		time.Sleep(time.Duration(i%8) * 5 * time.Millisecond)
		if i%2 == 1 {
			running[i-1].Process.Kill()
			cmd.Process.Kill()
		}
	}
	for i, cmd := range running {
		cmd.Wait()
		id := fmt.Sprintf("burst-%02d", i)
		if r := p.run("call", "--compact", "--raw", p.request(id, "+33785880347")); r.stdout != sentReply(id) && !strings.Contains(r.stdout, "may have completed") {
			t.Errorf("%s retried after a kill: %s %s", id, r.stdout, r.stderr)
		}
	}

	// A restart: every id is answered from the store, nothing is sent again.
	before := p.sent()
	for _, id := range ids {
		wg.Go(func() {
			if r := p.run("call", "--compact", "--raw", p.request(id, "+33785880347")); r.stdout != sentReply(id) || !strings.Contains(r.stderr, "was answered before") {
				t.Errorf("%s after a restart: %s %s", id, r.stdout, r.stderr)
			}
		})
	}
	wg.Wait()
	after := p.sent()
	for id, n := range after {
		if n != before[id] || n > 1 {
			t.Errorf("%s: sent %d times, %d before the restart", id, n, before[id])
		}
	}
}
