package main

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
)

func TestADBDiscover(t *testing.T) {
	c := newCLI(t)
	fake := &adbtest.Fake{Outputs: map[string]string{
		"get-state":                        "device\n",
		"shell cmd package query-services": "io.github.mobilemcp.app/.ToolService\n",
	}}
	c.adb = fake
	code, out, errOut := c.run("", "adb", "discover")
	if code != exitOK || out != "io.github.mobilemcp.app/.ToolService\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestADBWithoutDevice(t *testing.T) {
	c := newCLI(t)
	c.adb = &adbtest.Fake{Errors: map[string]error{"": errors.New("adb get-state: exit status 1: error: no devices/emulators found")}}
	code, _, errOut := c.run("", "adb", "call", "get_sms_subscriptions")
	want := "mobilemcp adb call: no device is connected; plug in a phone with USB debugging on, or start an emulator, and check 'adb devices'\n"
	if code != exitFailure || errOut != want {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestADBCallPrintsTheMatchingReply(t *testing.T) {
	c := newCLI(t)
	idPattern := regexp.MustCompile(`"id":"([0-9a-f-]{36})"`)
	c.adb = &adbtest.Fake{
		Outputs: map[string]string{
			"-s emulator-5554 get-state":                        "device\n",
			"-s emulator-5554 shell date":                       "1763719200\n",
			"-s emulator-5554 shell cmd package query-services": "io.github.mobilemcp.app/.ToolService\nio.github.mobilemcp.notes/.NotesToolService\n",
		},
		Logcat: `{"mobile-mcp-response":{"version":"1.0","response":{"id":"someone-else","status":"success","message":"not yours"}}}` + "\n",
		// The app's reply echoes the fresh request id from the command line.
		Respond: func(am string) string {
			id := idPattern.FindStringSubmatch(am)[1]
			return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"` + id + `","capability":{"id":"get_sms_subscriptions"},"status":"failure","message":"no SIM","error_code":"platform_error"}}}`
		},
	}
	code, out, errOut := c.run("", "adb", "call", "--compact", "--serial", "emulator-5554", "--tool", "app", "get_sms_subscriptions")
	got := uuidPattern.ReplaceAllString(out, `"id":"UUID"`)
	want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":"UUID","capability":{"id":"get_sms_subscriptions"},"status":"failure","message":"no SIM","error_code":"platform_error"}}}` + "\n"
	if code != exitFailure || got != want {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if !strings.Contains(errOut, "io.github.mobilemcp.app has no shell-only provider (it is not built on the Tool SDK); sending request ") {
		t.Errorf("not sent to the SMS app with am: %q", errOut)
	}
}

// A tool on the Tool SDK takes adb's requests through its shell-only
// provider, the one way a capability that changes something runs for adb.
func TestADBCallUsesTheShellOnlyProvider(t *testing.T) {
	c := newCLI(t)
	var content string
	c.adb = &adbtest.Fake{
		Outputs: map[string]string{
			"get-state":                        "device\n",
			"shell cmd package query-services": "io.github.mobilemcp.notes/.NotesToolService\n",
		},
		Provider: func(command string) string {
			content = command
			id := regexp.MustCompile(`"id":"([0-9a-f-]{36})"`).FindStringSubmatch(command)[1]
			return `Result: Bundle[{mobile-mcp-response={"mobile-mcp-response":{"version":"1.0","response":{"id":"` + id +
				`","capability":{"id":"create_note","output":[{"name":"id","type":"integer","value":1}]},"status":"success","message":"Created note 1"}}}}]` + "\n"
		},
	}
	code, out, errOut := c.run("", "adb", "call", "--compact", "create_note", "title=Milk")
	if code != exitOK || !strings.Contains(out, `"message":"Created note 1"`) || errOut != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	want := regexp.MustCompile(`^content call --uri 'content://io\.github\.mobilemcp\.notes\.mobilemcp\.adb' --method invoke --arg '\{"mobile-mcp-request":\{"version":"1\.0","request":\{"id":"[0-9a-f-]{36}","capability":\{"id":"create_note","args":\{"title":"Milk"\}\}\}\}\}'$`)
	if !want.MatchString(content) {
		t.Errorf("the device command line: %s", content)
	}
}

// amDevice is a device with the given tool services whose tools answer
// list_notes sent with am, through logcat, with no notes; *amCommand gets
// the am command line.
func amDevice(services string, amCommand *string) *adbtest.Fake {
	return &adbtest.Fake{
		Outputs: map[string]string{
			"get-state":                        "device\n",
			"shell date":                       "1763719200\n",
			"shell cmd package query-services": services,
		},
		Respond: func(am string) string {
			*amCommand = am
			id := regexp.MustCompile(`"id":"([0-9a-f-]{36})"`).FindStringSubmatch(am)[1]
			return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"` + id + `","capability":{"id":"list_notes","output":[{"name":"count","type":"integer","value":0}]},"status":"success","message":"No notes"}}}`
		},
	}
}

func TestADBCallReachesAnyTool(t *testing.T) {
	c := newCLI(t)
	var amCommand string
	c.adb = amDevice("io.github.mobilemcp.app/.ToolService\nio.github.mobilemcp.notes/.NotesToolService\n", &amCommand)
	code, out, errOut := c.run("", "adb", "call", "--compact", "--tool", "notes", "list_notes")
	if code != exitOK || !strings.Contains(out, `"message":"No notes"`) || !strings.Contains(amCommand, "-n 'io.github.mobilemcp.notes/.NotesToolService' ") {
		t.Errorf("exit %d, stdout %q, stderr %q, am %q", code, out, errOut, amCommand)
	}
	// Without --tool, two tools are one too many.
	code, _, errOut = c.run("", "adb", "call", "list_notes")
	if want := "mobilemcp adb call: choose a tool with --tool, by package or short name: the Mobile-MCP tools on the device are io.github.mobilemcp.app/.ToolService, io.github.mobilemcp.notes/.NotesToolService\n"; code != exitFailure || errOut != want {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// --intent sends an Intent even to a tool with the shell-only provider, as
// an agent without a callback would: the device check's list_notes step.
func TestADBCallWithIntentUsesAmEvenWithAProvider(t *testing.T) {
	c := newCLI(t)
	var amCommand string
	device := amDevice("io.github.mobilemcp.notes/.NotesToolService\n", &amCommand)
	device.Provider = func(string) string { panic("--intent must not use the provider") }
	c.adb = device
	code, out, errOut := c.run("", "adb", "call", "--compact", "--intent", "list_notes")
	if code != exitOK || !strings.Contains(out, `"message":"No notes"`) || errOut != "" || !strings.HasPrefix(amCommand, "am start-foreground-service ") {
		t.Errorf("exit %d, stdout %q, stderr %q, am %q", code, out, errOut, amCommand)
	}
}

func TestADBCallTimesOutWithAnExplanation(t *testing.T) {
	c := newCLI(t)
	c.adb = &adbtest.Fake{Outputs: map[string]string{"get-state": "device\n", "shell date": "1763719200\n",
		"shell cmd package query-services": "io.github.mobilemcp.app/.ToolService\n"}}
	code, out, errOut := c.run("", "adb", "call", "--timeout", "100ms", "get_sms_subscriptions")
	if code != exitFailure || out != "" || !strings.Contains(errOut, "no reply to request ") || !strings.Contains(errOut, "timed out after 100ms. Is the app installed and is it a debuggable build?") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestADBUsage(t *testing.T) {
	for _, args := range [][]string{{"adb"}, {"adb", "fly"}, {"adb", "call"}, {"adb", "discover", "x"}} {
		if code, _, _ := newCLI(t).run("", args...); code != exitUsage {
			t.Errorf("%q: exit %d", args, code)
		}
	}
	for _, args := range [][]string{{"adb", "--help"}, {"adb", "call", "--help"}, {"adb", "discover", "-h"}} {
		if code, out, _ := newCLI(t).run("", args...); code != exitOK || !strings.HasPrefix(out, "Usage: mobilemcp adb") {
			t.Errorf("%q: exit %d, %q", args, code, out)
		}
	}
}
