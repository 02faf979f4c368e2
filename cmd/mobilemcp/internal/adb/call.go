package adb

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// ShellQuote quotes s for the device's sh. adb shell joins its arguments
// into one command line, so any quote, space, $ or backtick in a request
// would otherwise be interpreted by the shell. Inside single quotes nothing
// is special except the single quote itself, which is closed, escaped and
// reopened.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// StartCommand is the device command line that starts component as a
// foreground service with request in the mobile-mcp-request extra.
func StartCommand(component string, request []byte) string {
	return "am start-foreground-service -n " + ShellQuote(component) +
		" --es " + RequestExtra + " " + ShellQuote(string(request))
}

// ShellProviderAuthority is the authority of the Tool SDK's shell-only
// provider in the app pkg: adb's way to run a capability that changes
// something, which a request without a callback never runs.
func ShellProviderAuthority(pkg string) string {
	return pkg + ".mobilemcp.adb"
}

// InvokeCommand is the device command line that runs request through the
// shell-only provider of the app pkg: 'content call' runs as the shell's
// uid, which holds the permission the provider requires.
func InvokeCommand(pkg string, request []byte) string {
	return "content call --uri " + ShellQuote("content://"+ShellProviderAuthority(pkg)) +
		" --method invoke --arg " + ShellQuote(string(request))
}

// ErrNoShellProvider is Invoke's error for an app without the Tool SDK's
// shell-only provider (a tool not built on the SDK, or an older one).
var ErrNoShellProvider = errors.New("the app has no shell-only provider")

// Invoke sends request to the tool of the app pkg through its shell-only
// provider and returns the reply from the provider's result, which
// 'content call' prints as Result: Bundle[{mobile-mcp-response=REPLY}].
func (d *Device) Invoke(ctx context.Context, pkg string, request []byte) (*capability.Reply, error) {
	out, err := d.Runner.Output(ctx, d.args("shell", InvokeCommand(pkg, request))...)
	if err != nil {
		return nil, err
	}
	printed := strings.TrimSpace(string(out))
	const prefix = "Result: Bundle[{" + ResponseExtra + "="
	i := strings.Index(printed, prefix)
	switch {
	case i < 0 && strings.Contains(printed, "Could not find provider"):
		return nil, ErrNoShellProvider
	case i < 0:
		first, _, _ := strings.Cut(printed, "\n")
		return nil, fmt.Errorf("content call to %s: %s", ShellProviderAuthority(pkg), text.Excerpt(first))
	}
	body, ok := strings.CutSuffix(printed[i+len(prefix):], "}]")
	if !ok {
		return nil, fmt.Errorf("content call to %s printed a result that is not one reply: %s", ShellProviderAuthority(pkg), text.Excerpt(printed))
	}
	reply, err := capability.DecodeReply([]byte(body))
	if err != nil {
		return nil, fmt.Errorf("the reply of %s cannot be read: %v", pkg, err)
	}
	return reply, nil
}

// Call sends request (whose id is requestID) to component and returns the
// reply the app logs for it. It waits until ctx is done.
func (d *Device) Call(ctx context.Context, component, requestID string, request []byte) (*capability.Reply, error) {
	// Read logcat from a moment before the request, so a fast reply is not
	// missed while logcat starts; older lines are told apart by their id.
	since, err := d.Clock(ctx)
	if err != nil {
		return nil, err
	}
	logcat, err := d.Runner.Stream(ctx, d.args("logcat", "-v", "raw", "-T", strconv.FormatInt(since-1, 10)+".000", "-s", LogTag+":I")...)
	if err != nil {
		return nil, err
	}
	defer logcat.Close()

	out, err := d.Runner.Output(ctx, d.args("shell", StartCommand(component, request))...)
	if err != nil {
		return nil, err
	}
	// am reports problems on stdout and still exits 0.
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "Error") {
			return nil, fmt.Errorf("starting %s: %s", component, strings.TrimSpace(line))
		}
	}

	lines := bufio.NewScanner(logcat)
	lines.Buffer(make([]byte, 64<<10), 4<<20)
	for lines.Scan() {
		line := strings.TrimSpace(lines.Text())
		if !strings.HasPrefix(line, "{") {
			continue
		}
		reply, err := capability.DecodeReply([]byte(line))
		if err == nil && reply.ID == requestID {
			return reply, nil
		}
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("no reply to request %s in logcat: %w. Is the app installed and is it a debuggable build? Requests without a callback are refused otherwise; see 'adb logcat -s %s'", requestID, context.Cause(ctx), LogTag)
	}
	if err := lines.Err(); err != nil {
		return nil, fmt.Errorf("reading logcat: %w", err)
	}
	return nil, errors.New("logcat ended before the reply arrived")
}

// Clock returns the device's time in seconds since the epoch.
func (d *Device) Clock(ctx context.Context) (int64, error) {
	now, err := d.Runner.Output(ctx, d.args("shell", "date +%s")...)
	if err != nil {
		return 0, err
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(string(now)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("reading the device clock: unexpected %q", strings.TrimSpace(string(now)))
	}
	return secs, nil
}

// Errors returns what Mobile-MCP apps logged at ERROR under LogTag since
// the device time since (Clock), one message a line.
func (d *Device) Errors(ctx context.Context, since int64) ([]string, error) {
	out, err := d.Runner.Output(ctx, d.args("logcat", "-d", "-v", "raw", "-T", strconv.FormatInt(since, 10)+".000", "-s", LogTag+":E")...)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, line := range strings.Split(string(out), "\n") {
		// logcat opens with "--------- beginning of main" and the like.
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "--------- ") {
			lines = append(lines, line)
		}
	}
	return lines, nil
}
