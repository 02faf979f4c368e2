package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// adbStdioProcess is 'mobilemcp adb stdio' as a separate process, whose
// adb is a shim of the phone's fake adb.
type adbStdioProcess struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *testkit.Buffer
}

func startADBStdioProcess(t *testing.T, phone *gatewayPhone) *adbStdioProcess {
	t.Helper()
	srv := adbtest.Serve(phone.adb)
	t.Cleanup(srv.Close)
	bin := t.TempDir()
	if err := os.Symlink(os.Args[0], filepath.Join(bin, "adb")); err != nil {
		t.Fatal(err)
	}
	p := &adbStdioProcess{cmd: exec.Command(os.Args[0], "adb", "stdio", "--poll", "100ms"), stderr: &testkit.Buffer{}}
	p.cmd.Env = append(os.Environ(), asCLI+"=1", adbtest.ShimEnv+"="+srv.URL, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+t.TempDir(), "MOBILEMCP_DATA_DIR="+t.TempDir())
	p.cmd.Stderr = p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if p.stdout, err = p.cmd.StdoutPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

// wait returns the process's exit code once it exits by itself.
func (p *adbStdioProcess) wait(t *testing.T) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(30 * time.Second):
		t.Fatalf("adb stdio did not exit; stderr:\n%s", p.stderr)
		return 0
	}
}

// Two clients, each with its own adb stdio, on one phone: adb picks a free
// local port for each, so neither takes the other's, and each removes its
// own forward when its client exits.
func TestADBStdioProcessesDoNotFightOverAPort(t *testing.T) {
	phone := newGatewayPhone(t, simphone.DefaultConfig())
	var procs []*adbStdioProcess
	var sessions []*mcp.ClientSession
	for range 2 {
		p := startADBStdioProcess(t, phone)
		client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: p.stdout, Writer: p.stdin}, nil)
		if err != nil {
			t.Fatal(err)
		}
		procs, sessions = append(procs, p), append(sessions, cs)
	}
	for i, cs := range sessions {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_sms_subscriptions", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("client %d: %v %v; stderr:\n%s", i, res, err, procs[i].stderr)
		}
	}
	ports := phone.adb.Forwards()
	t.Logf("forwards while both run: %v", ports)
	if len(ports) != 2 {
		t.Errorf("forwards while both run: %v; want two ports", ports)
	}
	for i, cs := range sessions {
		cs.Close()
		if code := procs[i].wait(t); code != exitOK {
			t.Errorf("process %d: exit %d; stderr:\n%s", i, code, procs[i].stderr)
		}
		t.Logf("process %d:\n%s", i, procs[i].stderr)
	}
	if got := phone.adb.Forwards(); len(got) != 0 {
		t.Errorf("forwards left behind: %v", got)
	}
}

// The client dies while a send waits for the radio: the send still
// finishes, once, on the phone, and the forward is removed before the
// command exits.
func TestADBStdioClientDyingMidCallLeavesNoForwardAndNoHalfDoneSend(t *testing.T) {
	cfg := simphone.DefaultConfig()
	// A fault on a part the one-part message does not have: every part is
	// sent, 1.5 s late, as on a slow network.
	cfg.Faults = []simphone.Fault{{To: "+33785880347", Result: "generic_failure", Part: 9, DelayMS: 1500}}
	phone := newGatewayPhone(t, cfg)
	p := startADBStdioProcess(t, phone)
	out := bufio.NewReader(p.stdout)
	send := func(line string) {
		if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"dying","version":"1"}}}`)
	if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, `"id":1,"result"`) {
		t.Fatalf("initialize: %q %v; stderr:\n%s", line, err, p.stderr)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// The tools must be mirrored before the call: wait for them.
	for deadline := time.Now().Add(10 * time.Second); ; {
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		line, _ := out.ReadString('\n')
		if strings.Contains(line, `"send_sms"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no send_sms in tools/list: %s", line)
		}
		time.Sleep(100 * time.Millisecond)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"last words","subscription_id":14}}}`)
	time.Sleep(300 * time.Millisecond) // the send waits for the radio now
	if len(phone.adb.Forwards()) != 1 {
		t.Fatalf("forwards before the client dies: %v", phone.adb.Forwards())
	}
	// The client dies: its ends of the pipes close.
	p.stdin.Close()
	p.stdout.Close()
	code := p.wait(t)
	t.Logf("adb stdio after its client died mid-call:\n%s", p.stderr)
	if code != exitOK {
		t.Errorf("exit %d", code)
	}
	if got := phone.adb.Forwards(); len(got) != 0 {
		t.Errorf("forwards left behind: %v", got)
	}
	records, err := simphone.ReadOutbox(phone.outbox)
	if err != nil || len(records) != 1 || !slices.Equal(records[0].Results, []string{"sent"}) || records[0].Text != "last words" {
		t.Errorf("the outbox: %+v %v; want the one send, whole", records, err)
	}
}
