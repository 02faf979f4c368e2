package adb_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb"
	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
)

// TestStartCommandSurvivesTheShell runs the generated command line through
// sh -c, as adb shell does on the device, with a stand-in am that writes the
// request extra it receives to a file. The JSON must arrive byte for byte.
func TestStartCommandSurvivesTheShell(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "received")
	am := "#!/bin/sh\nwhile [ $# -gt 0 ]; do\n  if [ \"$1\" = --es ] && [ \"$2\" = " + adb.RequestExtra + " ]; then printf '%s' \"$3\" > \"$OUT\"; fi\n  shift\ndone\n"
	if err := os.WriteFile(filepath.Join(dir, "am"), []byte(am), 0o755); err != nil {
		t.Fatal(err)
	}
	requests := []string{
		`{"mobile-mcp-request":{"version":"1.0","request":{"id":"q1","capability":{"id":"send_sms","args":{"to_phone_number":"+33785880347","sms_text":"It's \"quoted\", costs $5 & more; ` + "`date`" + ` $(reboot) 😀 ünïcödé \\ back\\slash"}}}}}`,
		`'`, `''`, `'\''`, "new\nline\ttab", "$HOME ${PATH} $$ !! * ? [a] ~ # %",
	}
	for _, request := range requests {
		os.Remove(got)
		cmd := exec.Command("sh", "-c", adb.StartCommand("io.github.mobilemcp.app/.ToolService", []byte(request)))
		cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "OUT="+got)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sh -c failed: %v: %s", err, out)
		}
		arrived, err := os.ReadFile(got)
		if err != nil {
			t.Fatalf("the stand-in am received no request for %q: %v", request, err)
		}
		if string(arrived) != request {
			t.Errorf("request changed on the way:\n sent %q\n  got %q", request, arrived)
		}
	}
}

func TestStartCommandLine(t *testing.T) {
	got := adb.StartCommand("pkg/.Svc", []byte(`{"a":"it's"}`))
	want := `am start-foreground-service -n 'pkg/.Svc' --es mobile-mcp-request '{"a":"it'\''s"}'`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

const matchingReply = `{"mobile-mcp-response":{"version":"1.0","response":{"id":"want-me","capability":{"id":"get_sms_subscriptions","output":[{"name":"count","type":"integer","value":1}]},"status":"success","message":"ok"}}}`

func TestCallReturnsTheReplyWithTheRequestID(t *testing.T) {
	f := &adbtest.Fake{
		Outputs: map[string]string{"-s SER shell date": "1763719200\n", "-s SER shell am": "Starting service: Intent { cmp=io.github.mobilemcp.app/.ToolService (has extras) }\n"},
		Logcat: "--------- beginning of main\n" +
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"older","status":"success","message":"stale"}}}` + "\n" +
			"not json at all\n" + matchingReply + "\n",
	}
	d := &adb.Device{Runner: f, Serial: "SER"}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	reply, err := d.Call(ctx, "io.github.mobilemcp.app/.ToolService", "want-me", []byte(`{"x":"it's"}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(reply.JSON()) != matchingReply {
		t.Errorf("reply %s", reply.JSON())
	}
	wantCalls := []string{
		"-s SER shell date +%s",
		"-s SER logcat -v raw -T 1763719199.000 -s MobileMCP:I",
		`-s SER shell am start-foreground-service -n 'io.github.mobilemcp.app/.ToolService' --es mobile-mcp-request '{"x":"it'\''s"}'`,
	}
	if strings.Join(f.Calls(), "\n") != strings.Join(wantCalls, "\n") {
		t.Errorf("adb calls:\n%s\nwant:\n%s", strings.Join(f.Calls(), "\n"), strings.Join(wantCalls, "\n"))
	}
}

func TestCallReportsAMErrorsAndTimeouts(t *testing.T) {
	f := &adbtest.Fake{Outputs: map[string]string{"shell date": "100\n", "shell am": "Error: Not found; no service started.\n"}}
	d := &adb.Device{Runner: f}
	_, err := d.Call(context.Background(), "a/.B", "id", []byte("{}"))
	if err == nil || err.Error() != "starting a/.B: Error: Not found; no service started." {
		t.Errorf("got %v", err)
	}

	f = &adbtest.Fake{Outputs: map[string]string{"shell date": "100\n"}, Logcat: matchingReply + "\n"}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = (&adb.Device{Runner: f}).Call(ctx, "a/.B", "other-id", []byte("{}"))
	if err == nil || !strings.HasPrefix(err.Error(), "no reply to request other-id in logcat: context deadline exceeded. Is the app installed") {
		t.Errorf("got %v", err)
	}
}

func TestCheckConnectedExplainsTheProblem(t *testing.T) {
	tests := []struct {
		err    error
		out    string
		serial string
		want   string
	}{
		{adb.ErrNoADB, "", "", adb.ErrNoADB.Error()},
		{errors.New("adb get-state: exit status 1: error: no devices/emulators found"), "", "", "no device is connected; plug in a phone with USB debugging on, or start an emulator, and check 'adb devices'"},
		{errors.New("adb -s X get-state: exit status 1: error: device 'X' not found"), "", "X", `no device "X" is connected; see 'adb devices'`},
		{errors.New("adb get-state: exit status 1: error: more than one device/emulator"), "", "", "more than one device is connected; choose one with --serial (see 'adb devices')"},
		{errors.New("adb get-state: exit status 1: error: device unauthorized."), "", "", "the device has not authorised this computer; accept the USB debugging prompt on the phone"},
		{nil, "offline\n", "", `the device is "offline", not ready; wait for it to boot or reconnect it`},
		{nil, "device\n", "", ""},
	}
	for _, tt := range tests {
		f := &adbtest.Fake{Outputs: map[string]string{}, Errors: map[string]error{}}
		if tt.err != nil {
			f.Errors[""] = tt.err
		} else {
			f.Outputs[""] = tt.out
		}
		err := (&adb.Device{Runner: f, Serial: tt.serial}).CheckConnected(context.Background())
		if got := errString(err); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestServicesParsesQueryServices(t *testing.T) {
	f := &adbtest.Fake{Outputs: map[string]string{"shell cmd package query-services": "io.github.mobilemcp.app/.ToolService\ncom.example.tool/com.example.tool.McpService\n"}}
	got, err := (&adb.Device{Runner: f}).Services(context.Background())
	if err != nil || strings.Join(got, ",") != "io.github.mobilemcp.app/.ToolService,com.example.tool/com.example.tool.McpService" {
		t.Errorf("got %q, %v", got, err)
	}
	f = &adbtest.Fake{Outputs: map[string]string{"shell": "No services found.\n"}}
	if got, err := (&adb.Device{Runner: f}).Services(context.Background()); err != nil || len(got) != 0 {
		t.Errorf("got %q, %v", got, err)
	}
}

func TestExecWithoutADB(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	// Nor an Android SDK where Find looks (a hosted runner has one).
	for _, v := range []string{"ANDROID_HOME", "ANDROID_SDK_ROOT", "LOCALAPPDATA"} {
		t.Setenv(v, "")
	}
	t.Setenv("HOME", t.TempDir())
	if path, err := adb.Find(); err == nil {
		t.Skipf("this machine has an adb where any user's would be found: %s", path)
	}
	if _, err := (adb.Exec{}).Output(context.Background(), "devices"); !errors.Is(err, adb.ErrNoADB) {
		t.Errorf("got %v", err)
	}
	if _, err := (adb.Exec{}).Stream(context.Background(), "logcat"); !errors.Is(err, adb.ErrNoADB) {
		t.Errorf("got %v", err)
	}
}

func TestResolveTool(t *testing.T) {
	sms, notes := "io.github.mobilemcp.app/.ToolService", "io.github.mobilemcp.notes/io.github.mobilemcp.notes.NotesToolService"
	both := []string{sms, notes}
	tests := []struct {
		services []string
		want     string
		got      string // the component, or the error
	}{
		{[]string{notes}, "", notes},
		{both, "notes", notes},
		{both, "NOTES", notes},
		{both, "NotesToolService", notes},
		{both, "io.github.mobilemcp.app", sms},
		{both, "io.github.mobilemcp.app/io.github.mobilemcp.app.ToolService", sms},
		{both, sms, sms},
		{both, "app", sms},
		{both, "", "choose a tool with --tool, by package or short name: the Mobile-MCP tools on the device are " + sms + ", " + notes},
		{both, "calendar", `no Mobile-MCP tool on the device is "calendar"; the Mobile-MCP tools on the device are ` + sms + ", " + notes},
		{both, "io.github.mobilemcp", `no Mobile-MCP tool on the device is "io.github.mobilemcp"; the Mobile-MCP tools on the device are ` + sms + ", " + notes},
		{[]string{sms, "com.example.app/.Svc"}, "app", `"app" names several tools (` + sms + `, com.example.app/.Svc); name one by its package or component`},
		{nil, "notes", "no Mobile-MCP tool is installed on the device ('adb discover' lists them)"},
	}
	for _, tt := range tests {
		got, err := adb.ResolveTool(tt.services, tt.want)
		if err != nil {
			got = err.Error()
		}
		if got != tt.got {
			t.Errorf("ResolveTool(%q, %q)\n got %s\nwant %s", tt.services, tt.want, got, tt.got)
		}
	}
}
