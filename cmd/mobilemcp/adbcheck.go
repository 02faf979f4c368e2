package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb"
	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/nativelib"
	"github.com/mobilemcp/mobilemcp/sms"
)

const adbCheckUsage = `Checks the SMS app on a connected phone, step by step, for what only a
device can show (docs/internals/pipeline.md, "The device check"). It prints
PASS, FAIL or SKIP and a reason for each step:

  device      adb sees exactly one ready device (or the --serial one)
  install     adb install -r the APK (--apk; --apk "" keeps what is installed)
  16k-pages   the installed APK's libmobilemcp.so for the device's ABI loads with
              16 KB pages: every ELF LOAD segment aligned to 16 KB, and the
              entry 16 KB-aligned in the APK when stored uncompressed
  discover    'mobilemcp adb discover' finds the app's tool service
  call        get_sms_subscriptions through am start-foreground-service, as
              'mobilemcp adb call' sends it, gets a success reply
  foreground  that start made the tool service a foreground service:
              dumpsys package lists FOREGROUND_SERVICE (and on API 34+
              FOREGROUND_SERVICE_SPECIAL_USE) as granted, and the app's log
              has no startForeground refusal (Android checks the type the
              manifest declares)
  send-sms    only with --send-sms-to NUMBER: one SMS to that number, from
              --subscription-id or the first SIM

The app answers read-only requests without a callback, as am sends them,
only in a debuggable build (make apk builds one) or with its developer switch
on; grant its permissions in the app first. The send goes through the app's
shell-only provider (adb shell content call), which only adb's shell can
use: it needs no per-app consent, but counts against the app's rate limits.

Exit status: 0 when no step failed, 1 otherwise, 2 on a usage error.`

// The SMS app's package and tool service, as 'adb discover' lists them.
const (
	smsAppPackage = "io.github.mobilemcp.app"
	smsAppTool    = smsAppPackage + "/.ToolService"
	nativeLib     = "libmobilemcp.so"
)

func runADBCheck(e *env, args []string) int {
	fs := newFlags(e, "adb check", "[flags]", adbCheckUsage)
	serial := fs.String("serial", "", "the device's `serial` (see 'adb devices'); needed when several are connected")
	apk := fs.String("apk", "android/app/build/outputs/apk/debug/app-debug.apk", "the APK `file` to install (make apk builds it); \"\" installs nothing")
	sendTo := fs.String("send-sms-to", "", "send one SMS to this `number` (E.164, such as +36201234567); without it nothing is sent")
	subscription := fs.Int("subscription-id", 0, "the SIM to send from, by its subscription `id` (get_sms_subscriptions lists them; default: the first)")
	timeout := fs.Duration("timeout", 60*time.Second, "how long to wait for each reply, a `duration` such as 30s or 2m")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if len(positional) > 0 {
		return usageError(e, fs, "unexpected arguments %q", positional)
	}
	if *timeout <= 0 {
		return usageError(e, fs, "--timeout must be positive, got %s", *timeout)
	}
	if *sendTo != "" {
		if _, err := sms.NormalizeNumber(*sendTo); err != nil {
			return usageError(e, fs, "--send-sms-to %q: %v", *sendTo, err)
		}
	}

	c := &deviceCheck{e: e, d: e.device(*serial), timeout: *timeout}
	if !c.step("device", func(ctx context.Context) (string, error) {
		return "connected", c.d.CheckConnected(ctx)
	}) {
		return c.finish()
	}
	if *apk == "" {
		c.skip("install", "--apk is empty: checking the app that is installed")
	} else {
		c.step("install", func(ctx context.Context) (string, error) {
			return *apk, c.d.Install(ctx, *apk)
		})
	}
	c.step("16k-pages", c.checkPages)
	c.step("discover", func(ctx context.Context) (string, error) {
		services, err := c.d.Services(ctx)
		if err != nil {
			return "", err
		}
		for _, s := range services {
			if s == smsAppTool {
				return smsAppTool, nil
			}
		}
		return "", fmt.Errorf("%s is not among the Mobile-MCP services on the device (%s)", smsAppTool, strings.Join(services, ", "))
	})
	var firstSIM int64
	called := c.step("call", func(ctx context.Context) (string, error) {
		reply, err := c.call(ctx, "get_sms_subscriptions", nil)
		if err != nil {
			return "", err
		}
		var out struct {
			Count         int `json:"count"`
			Subscriptions []struct {
				ID int64 `json:"subscription_id"`
			} `json:"subscriptions"`
		}
		if err := json.Unmarshal(reply, &out); err != nil {
			return "", fmt.Errorf("the reply's outputs cannot be read: %v", err)
		}
		if len(out.Subscriptions) > 0 {
			firstSIM = out.Subscriptions[0].ID
		}
		return fmt.Sprintf("get_sms_subscriptions: %d active SIM(s)", out.Count), nil
	})
	if called {
		c.step("foreground", c.checkForeground)
	} else {
		c.skip("foreground", "needs a started tool service: the call failed")
	}
	switch {
	case *sendTo == "":
		c.skip("send-sms", "no SMS sent: pass --send-sms-to NUMBER to send one")
	case !called:
		c.skip("send-sms", "the call failed, so a send would too")
	default:
		sim := int64(*subscription)
		if sim == 0 {
			sim = firstSIM
		}
		c.step("send-sms", func(ctx context.Context) (string, error) {
			args := map[string]any{"to_phone_number": *sendTo, "sms_text": "mobilemcp device check", "subscription_id": sim}
			if _, err := c.call(ctx, "send_sms", args); err != nil {
				return "", err
			}
			return fmt.Sprintf("sent to %s from SIM %d", *sendTo, sim), nil
		})
	}
	return c.finish()
}

// deviceCheck runs the steps of 'adb check' and prints a line for each.
type deviceCheck struct {
	e       *env
	d       *adb.Device
	timeout time.Duration
	failed  bool
	// since is the device time before the first call, in seconds: the log
	// is read from there.
	since int64
}

// step runs fn with the step's deadline and prints its line; it reports
// whether the step passed.
func (c *deviceCheck) step(name string, fn func(ctx context.Context) (string, error)) bool {
	ctx, cancel := context.WithTimeoutCause(context.Background(), c.timeout, errors.New("timed out after "+c.timeout.String()))
	defer cancel()
	detail, err := fn(ctx)
	if err != nil {
		c.failed = true
		fmt.Fprintf(c.e.stdout, "FAIL %-10s %v\n", name, err)
		return false
	}
	fmt.Fprintf(c.e.stdout, "PASS %-10s %s\n", name, detail)
	return true
}

func (c *deviceCheck) skip(name, why string) {
	fmt.Fprintf(c.e.stdout, "SKIP %-10s %s\n", name, why)
}

func (c *deviceCheck) finish() int {
	if c.failed {
		return exitFailure
	}
	return exitOK
}

// checkPages reads the installed APK from the device and checks its native
// library for the device's ABI.
func (c *deviceCheck) checkPages(ctx context.Context) (string, error) {
	abi, err := c.d.ABI(ctx)
	if err != nil {
		return "", err
	}
	path, err := c.d.PackagePath(ctx, smsAppPackage)
	if err != nil {
		return "", err
	}
	apk, err := c.d.ReadFile(ctx, path)
	if err != nil {
		return "", err
	}
	if err := nativelib.CheckAPK(apk, abi, nativeLib); err != nil {
		return "", err
	}
	return "lib/" + abi + "/" + nativeLib + ": LOAD segments aligned to 16 KB", nil
}

// call sends capability with args to the SMS app as 'adb call' does and
// returns the reply's outputs as a JSON object; a failure reply is an error
// with its code and message.
func (c *deviceCheck) call(ctx context.Context, capabilityID string, args map[string]any) ([]byte, error) {
	var positional []string
	positional = append(positional, capabilityID)
	for k, v := range args {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		positional = append(positional, k+":="+string(raw))
	}
	request, id, err := buildRequest(positional)
	if err != nil {
		return nil, err
	}
	if c.since == 0 {
		if c.since, err = c.d.Clock(ctx); err != nil {
			return nil, err
		}
	}
	// A read-only call starts the tool service the way an agent's Intent does, which the
	// foreground step checks; a call that changes something takes adb's shell-only provider,
	// the one way such a call runs without a caller Android names.
	var reply *capability.Reply
	if capabilityID == "send_sms" {
		reply, err = c.d.Invoke(ctx, smsAppPackage, request)
	} else {
		reply, err = c.d.Call(ctx, smsAppTool, id, request)
	}
	if err != nil {
		return nil, err
	}
	if reply.Failed() {
		return nil, fmt.Errorf("%s answered %s: %s", capabilityID, reply.ErrorCode, reply.Message)
	}
	outputs := make(map[string]any, len(reply.Output))
	for _, o := range reply.Output {
		outputs[o.Name] = o.Value
	}
	return json.Marshal(outputs)
}

// checkForeground reads the app's errors since the first call: the SDK logs
// every refusal of startForeground there (Foreground.start), such as a
// foreground service type the device did not resolve.
func (c *deviceCheck) checkForeground(ctx context.Context) (string, error) {
	// What the foreground start needs of the package (dumpsys package): the
	// FOREGROUND_SERVICE permission, and on 34+ the specialUse type's own.
	level, err := c.d.SDK(ctx)
	if err != nil {
		return "", err
	}
	granted, err := c.d.GrantedPermissions(ctx, smsAppPackage)
	if err != nil {
		return "", err
	}
	need := []string{"android.permission.FOREGROUND_SERVICE"}
	if level >= 34 {
		need = append(need, "android.permission.FOREGROUND_SERVICE_SPECIAL_USE")
	}
	for _, p := range need {
		if !granted[p] {
			return "", fmt.Errorf("dumpsys package does not list %s as granted to %s (API %d); the tool service cannot start in the foreground", p, smsAppPackage, level)
		}
	}
	errs, err := c.d.Errors(ctx, c.since)
	if err != nil {
		return "", err
	}
	for _, line := range errs {
		if strings.Contains(line, "startForeground") {
			return "", fmt.Errorf("the tool service did not become a foreground service: %s", line)
		}
	}
	return fmt.Sprintf("the tool service started in the foreground (API %d: %s granted; no startForeground refusal in the log)", level, strings.Join(need, ", ")), nil
}
