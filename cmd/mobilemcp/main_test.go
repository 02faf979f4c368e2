package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb"
	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
)

// cli runs the command line in-process with a private data directory.
type cli struct {
	t       *testing.T
	dataDir string
	vars    map[string]string
	adb     adb.Runner
	// exe is the path config takes for the running mobilemcp, path the
	// mobilemcp it finds on PATH ("" for none), goos the system.
	exe, path, goos string
	// onPath, when set, is what PATH holds of programs other than
	// mobilemcp, by name; when nil, path stands for any of them.
	onPath map[string]string
}

func newCLI(t *testing.T) *cli {
	dir := t.TempDir()
	return &cli{t: t, dataDir: dir, vars: map[string]string{"MOBILEMCP_DATA_DIR": dir, "HOME": t.TempDir()},
		exe: "/opt/mobilemcp/bin/mobilemcp", goos: "linux"}
}

func (c *cli) run(stdin string, args ...string) (code int, stdout, stderr string) {
	c.t.Helper()
	var out, errOut bytes.Buffer
	e := &env{ctx: context.Background(), stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string { return c.vars[k] }, adb: c.adb,
		executable: func() (string, error) { return c.exe, nil }, goos: c.goos,
		lookPath: func(name string) (string, error) {
			if c.onPath != nil && name != "mobilemcp" {
				if p, ok := c.onPath[name]; ok {
					return p, nil
				}
				return "", exec.ErrNotFound
			}
			if c.path == "" {
				return "", exec.ErrNotFound
			}
			return c.path, nil
		}}
	code = run(e, args)
	return code, out.String(), errOut.String()
}

// compact re-encodes JSON output on one line, for exact comparison.
func compact(t *testing.T, s string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, s)
	}
	return buf.String()
}

var uuidPattern = regexp.MustCompile(`"id":"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"`)

func TestCallSeedExample(t *testing.T) {
	c := newCLI(t)
	code, out, errOut := c.run("", "call", "send_sms", "to_phone_number=+33785880347", "sms_text=Hello world", "subscription_id=14")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	got := uuidPattern.ReplaceAllString(compact(t, out), `"id":"UUID"`)
	want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":"UUID","capability":{"id":"send_sms","output":[{"name":"to_phone_number","type":"string","value":"+33785880347"},{"name":"subscription_id","type":"integer","value":14},{"name":"encoding","type":"string","value":"gsm7"},{"name":"segments","type":"integer","value":1}]},"status":"success","message":"SMS sent to +33785880347"}}}`
	if got != want {
		t.Errorf("reply\n got %s\nwant %s", got, want)
	}

	code, out, _ = c.run("", "outbox")
	if code != exitOK || !strings.Contains(out, `+33785880347`) || !strings.Contains(out, `"Hello world"`) ||
		!strings.Contains(out, "14 (slot 0, Vodafone UK)") || !strings.Contains(out, "1 send in "+filepath.Join(c.dataDir, "outbox.jsonl")) {
		t.Errorf("outbox (exit %d):\n%s", code, out)
	}
}

func TestCallWithoutSubscriptionFails(t *testing.T) {
	c := newCLI(t)
	code, out, _ := c.run("", "call", "--compact", "send_sms", "to_phone_number=+33785880347", "sms_text=Hello world")
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	want := `"status":"failure","message":"subscription_id is required because 2 SIMs are active: 14 (slot 0, Vodafone UK), 17 (slot 1, Yettel HU); call get_sms_subscriptions and pass the subscription_id of the SIM to send from","error_code":"invalid_arguments"`
	if !strings.Contains(out, want) {
		t.Errorf("reply %s lacks %s", out, want)
	}
	if _, out, _ := c.run("", "outbox", "--json"); out != "" {
		t.Errorf("a failed call reached the outbox: %s", out)
	}
}

func TestCallRawPrototypeFromStdin(t *testing.T) {
	c := newCLI(t)
	request := `{"id":"proto-7","capability":{"id":"send_sms","input":"{\"to_phone_number\":\"+33785880347\",\"sms_text\":\"Hi\",\"subscription_id\":17}"}}`
	code, out, _ := c.run(request, "call", "--raw", "-")
	want := `{"id":"proto-7","capability":{"id":"send_sms","output":[{"name":"to_phone_number","type":"string","value":"+33785880347"},{"name":"subscription_id","type":"integer","value":17},{"name":"encoding","type":"string","value":"gsm7"},{"name":"segments","type":"integer","value":1}]},"status":"success","message":"SMS sent to +33785880347"}`
	if code != exitOK || compact(t, out) != want {
		t.Errorf("exit %d, reply\n got %s\nwant %s", code, compact(t, out), want)
	}
}

func TestCallRawGarbageGetsAFailureReply(t *testing.T) {
	c := newCLI(t)
	file := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(file, []byte("not json"), 0o600)
	code, out, _ := c.run("", "call", "--raw", file)
	want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":null,"status":"failure","message":"request is not valid JSON: invalid character 'o' in literal null (expecting 'u') (at byte 2)","error_code":"invalid_request"}}}`
	if code != exitFailure || compact(t, out) != want {
		t.Errorf("exit %d, reply\n got %s\nwant %s", code, compact(t, out), want)
	}
}

func TestRequestPrintsASpecRequest(t *testing.T) {
	c := newCLI(t)
	code, out, _ := c.run("", "request", "send_sms", "to_phone_number=+33785880347", "sms_text=It's 5 €, \"ok\"?", "subscription_id:=14")
	got := uuidPattern.ReplaceAllString(compact(t, out), `"id":"UUID"`)
	want := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"UUID","capability":{"id":"send_sms","args":{"sms_text":"It's 5 €, \"ok\"?","subscription_id":14,"to_phone_number":"+33785880347"}}}}}`
	if code != exitOK || got != want {
		t.Errorf("exit %d\n got %s\nwant %s", code, got, want)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "Usage: mobilemcp COMMAND"},
		{[]string{"fly"}, `mobilemcp: unknown command "fly"`},
		{[]string{"call"}, "mobilemcp call: name the capability to call, such as send_sms"},
		{[]string{"call", "send_sms", "to"}, `mobilemcp call: argument "to" is not key=value or key:=json`},
		{[]string{"call", "send_sms", "a=1", "a=2"}, "mobilemcp call: argument a is given twice"},
		{[]string{"call", "send_sms", "n:={"}, "mobilemcp call: argument n:={: the value is not valid JSON"},

		{[]string{"call", "--raw", "-", "extra"}, `mobilemcp call: --raw takes the whole request; drop the extra arguments ["extra"]`},
		{[]string{"call", "--bogus"}, "mobilemcp call: unknown flag --bogus\n"},
		{[]string{"outbox", "extra"}, `mobilemcp outbox: unexpected arguments ["extra"]`},
		{[]string{"capabilities", "extra"}, `mobilemcp capabilities: unexpected arguments ["extra"]`},
		{[]string{"serve", "--rate-limit", "many"}, `mobilemcp serve: --rate-limit "many": rate "many": want CALLS/PERIOD, such as 10/min, or off`},
		{[]string{"serve", "--allow-origin", "example.com"}, `mobilemcp serve: mcpserver: allowed origin "example.com" must be scheme://host[:port], such as https://app.example.com`},
		{[]string{"serve", "--max-body", "0"}, "mobilemcp serve: --max-body must be positive, got 0"},
		{[]string{"serve", "extra"}, `mobilemcp serve: unexpected arguments ["extra"]`},
	}
	for _, tt := range tests {
		code, _, errOut := newCLI(t).run("", tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

func TestHelpWorksOnEveryCommand(t *testing.T) {
	for _, c := range commands {
		for _, flag := range []string{"--help", "-h"} {
			code, out, errOut := newCLI(t).run("", c.name, flag)
			if code != exitOK || !strings.HasPrefix(out, "Usage: mobilemcp "+c.name) || errOut != "" {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", c.name, flag, code, out, errOut)
			}
		}
	}
	code, out, _ := newCLI(t).run("", "--help")
	if code != exitOK || !strings.Contains(out, "call ") || !strings.Contains(out, "outbox ") {
		t.Errorf("--help: exit %d, %s", code, out)
	}
}

func TestBadSIMConfigIsReported(t *testing.T) {
	c := newCLI(t)
	file := filepath.Join(t.TempDir(), "sims.json")
	os.WriteFile(file, []byte(`{"subscriptions":[{"subscription_id":1,"sim_slot_index":0,"carrier_name":"A"}],"fautls":[]}`), 0o600)
	code, _, errOut := c.run("", "call", "--sim-config", file, "get_sms_subscriptions")
	if want := `json: unknown field "fautls"`; code != exitFailure || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q, want %q", code, errOut, want)
	}
}

func TestSIMConfigFromFile(t *testing.T) {
	c := newCLI(t)
	file := filepath.Join(t.TempDir(), "sims.json")
	os.WriteFile(file, []byte(`{"subscriptions":[{"subscription_id":5,"sim_slot_index":0,"carrier_name":"Telekom","display_name":"Work"}]}`), 0o600)
	code, out, _ := c.run("", "call", "--compact", "--sim-config", file, "get_sms_subscriptions")
	want := `"message":"{\"count\":1,\"subscriptions\":[{\"subscription_id\":5,\"sim_slot_index\":0,\"carrier_name\":\"Telekom\",\"display_name\":\"Work\"}]}"`
	if code != exitOK || !strings.Contains(out, want) {
		t.Errorf("exit %d, reply %s", code, out)
	}
}

func TestDataDirPrecedence(t *testing.T) {
	tests := []struct {
		flag string
		vars map[string]string
		want string
	}{
		{"/flag", map[string]string{"MOBILEMCP_DATA_DIR": "/env", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}, "/flag"},
		{"", map[string]string{"MOBILEMCP_DATA_DIR": "/env", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}, "/env"},
		{"", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/home/u"}, "/xdg/mobilemcp"},
		{"", map[string]string{"HOME": "/home/u"}, "/home/u/.local/share/mobilemcp"},
	}
	for _, tt := range tests {
		p := phoneFlags{dataDir: tt.flag}
		got, err := p.resolveDataDir(&env{getenv: func(k string) string { return tt.vars[k] }})
		if err != nil || got != tt.want {
			t.Errorf("flag %q, env %v: got %q, %v; want %q", tt.flag, tt.vars, got, err, tt.want)
		}
	}
}

func TestCapabilitiesListsTheBuiltInSet(t *testing.T) {
	code, out, _ := newCLI(t).run("", "capabilities")
	for _, want := range []string{"send_sms (version 1.0) [destructive, open-world]", "get_sms_subscriptions (version 1.0) [read-only, idempotent]", "subscription_id  integer  optional"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("capabilities lacks %q:\n%s", want, out)
		}
	}
}

func TestRawRetryIsAnsweredFromTheStore(t *testing.T) {
	c := newCLI(t)
	request := `{"mobile-mcp-request":{"version":"1.0","request":{"id":"retry-me","capability":{"id":"send_sms","args":{"to_phone_number":"+33785880347","sms_text":"Once","subscription_id":14}}}}}`
	_, first, _ := c.run(request, "call", "--raw", "-")
	code, second, errOut := c.run(request, "call", "--raw", "-")
	if code != exitOK || second != first || errOut != "mobilemcp call: request retry-me was answered before; this is the stored reply, and nothing ran again\n" {
		t.Errorf("exit %d, stderr %q\nfirst  %s\nsecond %s", code, errOut, first, second)
	}
	if _, out, _ := c.run("", "outbox", "--json"); strings.Count(out, "\n") != 1 {
		t.Errorf("outbox:\n%s", out)
	}
}

// TestHelpCitesTheSpecByName: help cites the Mobile-MCP spec as such,
// never by the name of a document in this project's sources.
func TestHelpCitesTheSpecByName(t *testing.T) {
	internalName := regexp.MustCompile(`(?i)seed \d`)
	outputs := map[string]string{}
	_, outputs["mobilemcp"], _ = newCLI(t).run("", "--help")
	for _, c := range commands {
		_, outputs[c.name], _ = newCLI(t).run("", c.name, "--help")
	}
	_, outputs["adb call"], _ = newCLI(t).run("", "adb", "call", "--help")
	_, outputs["adb discover"], _ = newCLI(t).run("", "adb", "discover", "--help")
	for name, out := range outputs {
		if m := internalName.FindString(out); m != "" {
			t.Errorf("%s --help cites %q:\n%s", name, m, out)
		}
	}
	if _, out, _ := newCLI(t).run("", "lint", "--help"); !strings.Contains(out, "the Mobile-MCP spec §1") {
		t.Errorf("lint --help does not cite the Mobile-MCP spec:\n%s", out)
	}
}

// TestAMissingFileIsAUsageError holds every command to one rule: a file or
// directory the command line names that does not exist is a usage error
// (exit 2), most likely a typo, which names the flag that gave it.
func TestAMissingFileIsAUsageError(t *testing.T) {
	tests := [][]string{
		{"request", "--descriptor", "/nonexistent/caps.xml", "send_sms"},
		{"adb", "connect", "--token-file", "/nonexistent/token"},
		{"call", "--raw", "/nonexistent/request.json"},
		{"call", "--sim-config", "/nonexistent/sims.json", "get_sms_subscriptions"},
		{"serve", "--sim-config", "/nonexistent/sims.json", "--addr", "127.0.0.1:0"},
		{"lint", "/nonexistent/caps.xml"},
		{"lint", "--res", "/nonexistent/res", "../../android/app/AndroidManifest.xml"},
		{"tools", "/nonexistent/caps.xml"},
	}
	for _, args := range tests {
		missing := args[len(args)-1]
		for i, a := range args {
			if strings.HasPrefix(a, "/nonexistent/") {
				missing = a
				if strings.HasPrefix(args[i-1], "--") {
					missing = args[i-1] + " " + a
				}
			}
		}
		name := args[0]
		if name == "adb" {
			name += " " + args[1]
		}
		c := newCLI(t)
		c.adb = &adbtest.Fake{} // nothing may reach it
		code, out, errOut := c.run("", args...)
		want := "mobilemcp " + name + ": " + missing + " does not exist\nRun 'mobilemcp " + name + " --help' for usage.\n"
		if code != exitUsage || out != "" || errOut != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, code, out, errOut, want)
		}
	}
}

// ... while one that exists but cannot be read, or makes no sense, is a
// failure (exit 1).
func TestAnUnreadableFileIsAFailure(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"call", "--raw", dir}, "mobilemcp call: " + dir + " is not a regular file: it is a directory\n"},
		{"", []string{"call", "--sim-config", dir, "get_sms_subscriptions"}, "mobilemcp call: " + dir + " is not a regular file: it is a directory\n"},
		{strings.Repeat(" ", 64<<10+1), []string{"call", "--raw", "-"}, "mobilemcp call: the request on stdin is larger than 65536 bytes, the most the engine accepts\n"},
	}
	for _, tt := range tests {
		code, out, errOut := newCLI(t).run(tt.stdin, tt.args...)
		if code != exitFailure || out != "" || errOut != tt.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 1 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

func TestATypoGetsASuggestion(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"serv"}, "mobilemcp: unknown command \"serv\"; did you mean serve?\n\nmobilemcp: Mobile-MCP capabilities"},
		{[]string{"Lint", "x.xml"}, "mobilemcp: unknown command \"Lint\"; did you mean lint?\n\nmobilemcp: Mobile-MCP capabilities"},
		{[]string{"adb", "discovr"}, "mobilemcp adb: unknown subcommand \"discovr\"; did you mean discover?\n"},
	}
	for _, tt := range tests {
		code, _, errOut := newCLI(t).run("", tt.args...)
		if code != exitUsage || !strings.HasPrefix(errOut, tt.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}

func TestHelpListsTheCommandsInTheOrderAUserNeedsThem(t *testing.T) {
	_, _, errOut := newCLI(t).run("")
	var names []string
	for _, line := range strings.Split(errOut, "\n") {
		if f := strings.Fields(line); len(line) > 2 && line[:2] == "  " && len(f) > 0 {
			names = append(names, f[0])
		}
	}
	want := "serve call adb config tools lint request outbox capabilities gen check-align version"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("help lists %s; want %s", got, want)
	}
}
