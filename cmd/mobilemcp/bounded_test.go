package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// runWithin runs the command line and fails the test if it does not end
// within 10 seconds: a read of a FIFO or a device that never ends hangs.
func (c *cli) runWithin(stdin io.Reader, args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	go func() {
		var out, errOut bytes.Buffer
		e := &env{ctx: context.Background(), stdin: stdin, stdout: &out, stderr: &errOut, getenv: func(k string) string { return c.vars[k] }}
		code := run(e, args)
		done <- result{code, out.String(), errOut.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.errOut
	case <-time.After(10 * time.Second):
		c.t.Fatalf("%q did not end within 10 s", args)
		return
	}
}

// Every path the command line names is read within a bound: a FIFO is not
// waited on, a device that never ends is not read, and a file where a
// regular one is expected must be one.
func TestUserFilesAreReadWithinBounds(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.xml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	res := filepath.Join(dir, "res", "xml")
	os.MkdirAll(res, 0o700)
	if err := syscall.Mkfifo(filepath.Join(res, "other.xml"), 0o600); err != nil {
		t.Fatal(err)
	}
	notRegular := func(path, kind string) string { return path + " is not a regular file: it is " + kind }
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"lint", fifo}, "mobilemcp lint: " + notRegular(fifo, "a named pipe") + "\n"},
		{[]string{"lint", "/dev/zero"}, "mobilemcp lint: " + notRegular("/dev/zero", "a device") + "\n"},
		{[]string{"lint", filepath.Join(dir, "res")}, "mobilemcp lint: " + notRegular(filepath.Join(res, "other.xml"), "a named pipe") + "\n"},
		{[]string{"tools", fifo}, "mobilemcp tools: " + notRegular(fifo, "a named pipe") + "\n"},
		{[]string{"request", "--descriptor", "/dev/zero", "send_sms"}, "mobilemcp request: " + notRegular("/dev/zero", "a device") + "\n"},
		{[]string{"call", "--raw", fifo}, "mobilemcp call: " + notRegular(fifo, "a named pipe") + "\n"},
		{[]string{"call", "--raw", "/dev/zero"}, "mobilemcp call: " + notRegular("/dev/zero", "a device") + "\n"},
		{[]string{"call", "--sim-config", fifo, "get_sms_subscriptions"}, "mobilemcp call: " + notRegular(fifo, "a named pipe") + "\n"},
		{[]string{"call", "--sim-config", "/dev/zero", "get_sms_subscriptions"}, "mobilemcp call: " + notRegular("/dev/zero", "a device") + "\n"},
		{[]string{"gen", "--check", "-o", fifo, "--strings", ""}, "mobilemcp gen: " + notRegular(fifo, "a named pipe") + "\n"},
		{[]string{"gen", "-o", "/dev/full", "--strings", ""}, "mobilemcp gen: " + notRegular("/dev/full", "a device") + "; write to a file, or print with -o -\n"},
		{[]string{"gen", "-o", fifo, "--strings", ""}, "mobilemcp gen: " + notRegular(fifo, "a named pipe") + "; write to a file, or print with -o -\n"},
	}
	for _, tt := range tests {
		code, out, errOut := newCLI(t).runWithin(strings.NewReader(""), tt.args...)
		if code != exitFailure || errOut != tt.want {
			t.Errorf("%q: exit %d, stdout %.200q, stderr %.300q; want exit 1 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

// endless is a stdin that never ends, counting what is read of it.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.read += int64(len(p))
	return len(p), nil
}

func TestStdinIsReadWithinTheRequestLimit(t *testing.T) {
	in := &endless{}
	code, _, errOut := newCLI(t).runWithin(in, "call", "--raw", "-")
	if code != exitFailure || errOut != "mobilemcp call: the request on stdin is larger than 65536 bytes, the most the engine accepts\n" {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if in.read > 128<<10 {
		t.Errorf("read %d bytes of stdin for a limit of 64 KiB", in.read)
	}
}

// failingWriter fails every write after the first n bytes, counting the
// writes it is asked for.
type failingWriter struct {
	n      int
	writes int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.n <= 0 {
		return 0, errors.New("no space left on device")
	}
	w.n -= len(p)
	return len(p), nil
}

// A write that fails stops the output: nothing more is written, and the
// command fails saying why.
func TestOutputStopsAtItsFirstError(t *testing.T) {
	c := newCLI(t)
	for range 30 {
		if code, _, errOut := c.run("", "call", "send_sms", "to_phone_number=+33785880347", "sms_text=Hi", "subscription_id=14"); code != exitOK {
			t.Fatal(errOut)
		}
	}
	out := &failingWriter{n: 100}
	var errOut bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader(""), stdout: out, stderr: &errOut, getenv: func(k string) string { return c.vars[k] }}
	if code := run(e, []string{"outbox", "--json"}); code != exitFailure {
		t.Errorf("exit %d", code)
	}
	if out.writes > 2 {
		t.Errorf("%d writes after the output failed", out.writes-2)
	}
	if want := "mobilemcp outbox: writing the output: no space left on device\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q", errOut.String(), want)
	}
}

// The SIM configuration is one JSON object that names its subscriptions,
// each key once: trailing text, a key given twice, null and an empty file
// are errors that say so, not silently a phone without SIMs.
func TestSIMConfigMustBeOneObject(t *testing.T) {
	dir := t.TempDir()
	sub := `{"subscription_id":9,"sim_slot_index":0,"carrier_name":"Orange","display_name":"Perso"}`
	tests := []struct{ name, text, want string }{
		{"trailing text", `{"subscriptions":[` + sub + `]} {"subscriptions":[]}`, "has more after its JSON object, at byte 108; give one object"},
		{"a key twice", `{"subscriptions":[` + sub + `],"subscriptions":[]}`, "gives subscriptions twice; give each key once"},
		{"a key twice, deeper", `{"subscriptions":[{"subscription_id":9,"subscription_id":10,"sim_slot_index":0,"carrier_name":"O"}]}`, "gives subscriptions[0].subscription_id twice; give each key once"},
		{"null", `null`, `must be a JSON object such as {"subscriptions":[...]}; it is null`},
		{"an array", `[]`, `must be a JSON object such as {"subscriptions":[...]}; it is an array`},
		{"no subscriptions", `{"faults":[]}`, `has no "subscriptions"; write "subscriptions":[] for a phone without SIMs`},
		{"empty", ``, `is empty; it must be a JSON object such as {"subscriptions":[...]}`},
		{"blank", " \n", `is empty; it must be a JSON object such as {"subscriptions":[...]}`},
	}
	for _, tt := range tests {
		file := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".json")
		os.WriteFile(file, []byte(tt.text), 0o600)
		code, _, errOut := newCLI(t).run("", "call", "--sim-config", file, "get_sms_subscriptions")
		if want := "mobilemcp call: SIM config " + file + " " + tt.want + "\n"; code != exitFailure || errOut != want {
			t.Errorf("%s: exit %d, stderr %q\nwant %q", tt.name, code, errOut, want)
		}
	}
	// No SIM at all is a configuration, written as such.
	none := filepath.Join(dir, "none.json")
	os.WriteFile(none, []byte(`{"subscriptions":[]}`), 0o600)
	if code, out, errOut := newCLI(t).run("", "call", "--compact", "--sim-config", none, "get_sms_subscriptions"); code != exitOK || !strings.Contains(out, `"message":"{\"count\":0,\"subscriptions\":[]}"`) {
		t.Errorf("no SIMs: exit %d, %s %s", code, out, errOut)
	}
}

// A line of the outbox that is not a record (torn by a process that was
// killed while writing it, or edited) does not hide the others: every
// record is listed, and the bad lines are named.
func TestOutboxListsEveryRecordAndNamesBadLines(t *testing.T) {
	c := newCLI(t)
	send := func() {
		if code, _, errOut := c.run("", "call", "send_sms", "to_phone_number=+33785880347", "sms_text=Hi", "subscription_id=14"); code != exitOK {
			t.Fatal(errOut)
		}
	}
	send()
	outbox := filepath.Join(c.dataDir, "outbox.jsonl")
	f, _ := os.OpenFile(outbox, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{\"time\":\"not a time\"}\n")
	f.Close()
	send()
	f, _ = os.OpenFile(outbox, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"time":"2026-11-21T10:04:19Z","to":"+3378`) // torn
	f.Close()
	code, out, errOut := c.run("", "outbox", "--json")
	if code != exitOK || strings.Count(out, "\n") != 2 || strings.Count(out, `"to":"+33785880347"`) != 2 {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
	want := "mobilemcp outbox: " + outbox + `: skipped line 2: not a record: parsing time "not a time" as "2006-01-02T15:04:05Z07:00": cannot parse "not a time" as "2006"` + "\n" +
		"mobilemcp outbox: " + outbox + ": skipped line 4: torn, as a process that ended while writing it leaves a line; the next send cuts it off\n"
	if errOut != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", errOut, want)
	}
	// The next send cuts the torn line off, and the listing is whole again.
	send()
	if code, out, errOut := c.run("", "outbox", "--json"); code != exitOK || strings.Count(out, "\n") != 3 || strings.Contains(errOut, "torn") {
		t.Errorf("after a send: exit %d, %d records, stderr %s", code, strings.Count(out, "\n"), errOut)
	}
}

// The CLI starts on a reply store with a line longer than any record (17
// MiB: past the 16 MiB that once stopped it with "bufio.Scanner: token too
// long"), says which line it skipped, and sends. A store that holds more
// replies than it keeps stops the start with a message saying so.
func TestTheReplyStoreIsReadWithinBoundsAtStart(t *testing.T) {
	c := newCLI(t)
	store := filepath.Join(c.dataDir, "replies.jsonl")
	os.WriteFile(store, []byte(`{"key":"huge","value":"`+strings.Repeat("x", 17<<20)+"\"}\n"), 0o600)
	code, out, errOut := c.run("", "call", "send_sms", "to_phone_number=+33785880347", "sms_text=Hi", "subscription_id=14")
	want := `level=WARN msg="skipped a line of the reply store: it is longer than a record can be" file=` + store + " line=1 bytes=17825817 limit=1048576\n"
	if code != exitOK || !strings.Contains(out, "SMS sent") || errOut != want {
		t.Errorf("exit %d\nstdout: %s\nstderr: %s\nwant stderr: %s", code, out, errOut, want)
	}

	var full bytes.Buffer
	at := time.Now().UnixMilli()
	for i := range replystore.DefaultMaxEntries + 1 {
		fmt.Fprintf(&full, `{"key":"k%d","fingerprint":"fp","at":%d,"value":1}`+"\n", i, at)
	}
	os.WriteFile(store, full.Bytes(), 0o600)
	code, out, errOut = c.run("", "call", "send_sms", "to_phone_number=+33785880347", "sms_text=Hi", "subscription_id=14")
	want = "mobilemcp call: opening the reply store: " + store + " holds 100001 replies from the last 10m0s, more than the 100000 a store keeps; remove it, or let them expire\n"
	if code != exitFailure || out != "" || errOut != want {
		t.Errorf("a full store: exit %d\nstdout: %s\nstderr: %s\nwant stderr: %s", code, out, errOut, want)
	}
}
