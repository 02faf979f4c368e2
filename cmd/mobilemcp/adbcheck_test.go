package main

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

const checkAPKPath = "/data/app/~~Zq/io.github.mobilemcp.app-Xy/base.apk"

// phone is a fake adb playing a phone with the SMS app installed from apk:
// every step of 'adb check' has its answer, and the app answers each
// request the way answer says.
func phone(apk []byte, errorLog string, answer func(am, id string) string) *adbtest.Fake {
	id := regexp.MustCompile(`"id":"([0-9a-f-]{36})"`)
	return &adbtest.Fake{
		Outputs: map[string]string{
			"get-state":                                         "device\n",
			"install -r build/app-debug.apk":                    "Performing Streamed Install\nSuccess\n",
			"shell getprop ro.product.cpu.abi":                  "arm64-v8a\n",
			"shell pm path 'io.github.mobilemcp.app'":           "package:" + checkAPKPath + "\n",
			"exec-out cat '" + checkAPKPath + "'":               string(apk),
			"shell cmd package query-services":                  "io.github.mobilemcp.app/.ToolService\nio.github.mobilemcp.notes/.NotesToolService\n",
			"shell date":                                        "1763719200\n",
			"logcat -d -v raw -T 1763719200.000 -s MobileMCP:E": "--------- beginning of main\n" + errorLog,
			"shell getprop ro.build.version.sdk":                "35\n",
			"shell dumpsys package 'io.github.mobilemcp.app'":   dumpsysPackage,
		},
		Respond: func(am string) string { return answer(am, id.FindStringSubmatch(am)[1]) },
		// The SDK's shell-only provider answers as the app's engine does.
		Provider: func(content string) string {
			return "Result: Bundle[{mobile-mcp-response=" + answer(content, id.FindStringSubmatch(content)[1]) + "}]\n"
		},
	}
}

func subscriptionsReply(am, id string) string {
	if !strings.Contains(am, `"get_sms_subscriptions"`) {
		return checkSentReply(am, id)
	}
	return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"` + id + `","capability":{"id":"get_sms_subscriptions","output":[` +
		`{"name":"count","type":"integer","value":2},{"name":"subscriptions","type":"array","value":[` +
		`{"subscription_id":14,"sim_slot_index":0,"carrier_name":"Vodafone UK","display_name":"Vodafone UK"},` +
		`{"subscription_id":17,"sim_slot_index":1,"carrier_name":"Yettel HU","display_name":"Yettel"}]}]},"status":"success","message":"2 active SIM(s)"}}}`
}

func checkSentReply(_, id string) string {
	return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"` + id + `","capability":{"id":"send_sms","output":[` +
		`{"name":"to_phone_number","type":"string","value":"+36201234567"}]},"status":"success","message":"SMS sent to +36201234567"}}}`
}

// dumpsysPackage is the part of 'dumpsys package' that lists permissions.
const dumpsysPackage = `Packages:
  Package [io.github.mobilemcp.app] (4f1c2e0):
    versionName=0.1
    requested permissions:
      android.permission.SEND_SMS
      android.permission.FOREGROUND_SERVICE
      android.permission.FOREGROUND_SERVICE_SPECIAL_USE
    install permissions:
      android.permission.FOREGROUND_SERVICE: granted=true
      android.permission.FOREGROUND_SERVICE_SPECIAL_USE: granted=true
      android.permission.INTERNET: granted=true
    User 0: ceDataInode=1 installed=true
      runtime permissions:
        android.permission.SEND_SMS: granted=true, flags=[ USER_SET ]
        android.permission.READ_PHONE_STATE: granted=false, flags=[ USER_SET ]
`

var goodAPK = testkit.APK("lib/arm64-v8a/libmobilemcp.so", testkit.ELF(0x4000, 0x4000), 16384)

func TestADBCheckPassesEveryStep_andSendsNothingUnasked(t *testing.T) {
	c := newCLI(t)
	fake := phone(goodAPK, "", subscriptionsReply)
	c.adb = fake
	code, out, errOut := c.run("", "adb", "check", "--apk", "build/app-debug.apk")
	want := `PASS device     connected
PASS install    build/app-debug.apk
PASS 16k-pages  lib/arm64-v8a/libmobilemcp.so: LOAD segments aligned to 16 KB
PASS discover   io.github.mobilemcp.app/.ToolService
PASS call       get_sms_subscriptions: 2 active SIM(s)
PASS foreground the tool service started in the foreground (API 35: android.permission.FOREGROUND_SERVICE, android.permission.FOREGROUND_SERVICE_SPECIAL_USE granted; no startForeground refusal in the log)
SKIP send-sms   no SMS sent: pass --send-sms-to NUMBER to send one
`
	if code != exitOK || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s\nstderr %q", code, out, want, errOut)
	}
	for _, call := range fake.Calls() {
		if strings.Contains(call, "send_sms") {
			t.Errorf("sent an SMS without --send-sms-to: %s", call)
		}
	}
}

func TestADBCheckSendsOneSMS_toTheGivenNumber(t *testing.T) {
	c := newCLI(t)
	fake := phone(goodAPK, "", subscriptionsReply)
	c.adb = fake
	code, out, errOut := c.run("", "adb", "check", "--apk", "", "--send-sms-to", "+36 20 123 4567")
	if code != exitOK || !strings.HasPrefix(out, "PASS device     connected\nSKIP install    --apk is empty: checking the app that is installed\n") ||
		!strings.HasSuffix(out, "PASS send-sms   sent to +36 20 123 4567 from SIM 14\n") {
		t.Errorf("exit %d, stdout:\n%s\nstderr %q", code, out, errOut)
	}
	var sends []string
	for _, call := range fake.Calls() {
		if strings.Contains(call, `"send_sms"`) {
			sends = append(sends, call)
		}
	}
	if len(sends) != 1 || !strings.Contains(sends[0], `"to_phone_number":"+36 20 123 4567"`) || !strings.Contains(sends[0], `"subscription_id":14`) {
		t.Errorf("want one send to the given number from SIM 14, got %q", sends)
	}
}

func TestADBCheckFailures_sayWhat(t *testing.T) {
	c := newCLI(t)
	badAPK := testkit.APK("lib/arm64-v8a/libmobilemcp.so", testkit.ELF(0x1000), 16384)
	refusal := "io.github.mobilemcp.app.ToolService: startForeground failed; it runs without a foreground notification, and Android may stop or freeze it once the app is in the background\n"
	c.adb = phone(badAPK, refusal, func(am, id string) string {
		return `{"mobile-mcp-response":{"version":"1.0","response":{"id":"` + id + `","capability":{"id":"send_sms"},"status":"failure","message":"the user has not yet allowed shell to use send_sms","error_code":"consent_required"}}}`
	})
	code, out, _ := c.run("", "adb", "check", "--apk", "build/app-debug.apk", "--send-sms-to", "+36201234567", "--subscription-id", "17")
	want := `PASS device     connected
PASS install    build/app-debug.apk
FAIL 16k-pages  lib/arm64-v8a/libmobilemcp.so has a LOAD segment aligned to 0x1000, below the 16 KB (0x4000) that devices with 16 KB pages need; build it with NDK r28 or newer, or with the linker flag -z max-page-size=16384 (make aar passes it)
PASS discover   io.github.mobilemcp.app/.ToolService
FAIL call       get_sms_subscriptions answered consent_required: the user has not yet allowed shell to use send_sms
SKIP foreground needs a started tool service: the call failed
SKIP send-sms   the call failed, so a send would too
`
	if code != exitFailure || out != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", code, out, want)
	}

	// The call works, but the service did not get into the foreground.
	c = newCLI(t)
	c.adb = phone(goodAPK, refusal, subscriptionsReply)
	code, out, _ = c.run("", "adb", "check", "--apk", "")
	if code != exitFailure || !strings.Contains(out, "\nFAIL foreground the tool service did not become a foreground service: "+strings.TrimSpace(refusal)+"\n") {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
}

func TestADBCheckForeground_needsTheTypesPermissionOn34(t *testing.T) {
	c := newCLI(t)
	fake := phone(goodAPK, "", subscriptionsReply)
	fake.Outputs["shell dumpsys package 'io.github.mobilemcp.app'"] = strings.ReplaceAll(dumpsysPackage,
		"android.permission.FOREGROUND_SERVICE_SPECIAL_USE: granted=true", "")
	c.adb = fake
	code, out, _ := c.run("", "adb", "check", "--apk", "")
	want := "\nFAIL foreground dumpsys package does not list android.permission.FOREGROUND_SERVICE_SPECIAL_USE as granted to io.github.mobilemcp.app (API 35); the tool service cannot start in the foreground\n"
	if code != exitFailure || !strings.Contains(out, want) {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}

	// Below 34 there is no such type, and its permission is not needed.
	fake.Outputs["shell getprop ro.build.version.sdk"] = "33\n"
	code, out, _ = c.run("", "adb", "check", "--apk", "")
	if code != exitOK || !strings.Contains(out, "\nPASS foreground the tool service started in the foreground (API 33: android.permission.FOREGROUND_SERVICE granted; ") {
		t.Errorf("exit %d, stdout:\n%s", code, out)
	}
}

func TestADBCheckWithoutDevice_stopsAtTheFirstStep(t *testing.T) {
	c := newCLI(t)
	fake := &adbtest.Fake{Errors: map[string]error{"": errors.New("adb get-state: exit status 1: error: no devices/emulators found")}}
	c.adb = fake
	code, out, _ := c.run("", "adb", "check")
	want := "FAIL device     no device is connected; plug in a phone with USB debugging on, or start an emulator, and check 'adb devices'\n"
	if code != exitFailure || out != want || len(fake.Calls()) != 1 {
		t.Errorf("exit %d, stdout %q, calls %q", code, out, fake.Calls())
	}
}

func TestADBCheckRefusesABadNumber_beforeTouchingTheDevice(t *testing.T) {
	c := newCLI(t)
	fake := &adbtest.Fake{}
	c.adb = fake
	code, _, errOut := c.run("", "adb", "check", "--send-sms-to", "0612")
	if code != exitUsage || !strings.Contains(errOut, `--send-sms-to "0612": `) || len(fake.Calls()) != 0 {
		t.Errorf("exit %d, stderr %q, calls %q", code, errOut, fake.Calls())
	}
}
