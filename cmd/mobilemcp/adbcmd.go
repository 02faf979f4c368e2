package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb"
	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

func init() {
	register(command{name: "adb", summary: "find and call Mobile-MCP tools on a phone through adb", run: runADB})
}

const adbUsage = `Drives Mobile-MCP tools on a connected phone or emulator through adb.

Subcommands:
  connect [--serial S] [--port N] [--token-file FILE]
                                        reach the app's MCP server over USB
                                        (adb forward), check it answers and
                                        print MCP client configurations
  disconnect [--port N]                 remove that forward
  stdio [--serial S]                    serve the phone's MCP tools to the MCP
                                        client that runs it, on stdin and
                                        stdout, with no token to copy
  discover                              list the Mobile-MCP services on the device
  call [--tool NAME] CAPABILITY [key=value | key:=json]...
                                        send a request to a tool and print
                                        its reply (below: how it gets there)
  check [--apk APK] [--send-sms-to NUMBER]
                                        install the SMS app and check, step by
                                        step, what only a device can show

A tool on the Tool SDK takes such requests through its shell-only provider
('adb shell content call'), which only adb's shell can use. Any other tool
gets them with am start-foreground-service and no callback, logs its reply
to logcat under the tag ` + adb.LogTag + `, and runs only what reads, in a
debuggable build or with its developer switch on.`

func runADB(e *env, args []string) int {
	fs := newFlags(e, "adb", "connect|disconnect|stdio|discover|call|check [flags] ...", adbUsage)
	if len(args) == 0 {
		return usageError(e, fs, "name a subcommand: connect, disconnect, stdio, discover, call or check")
	}
	switch args[0] {
	case "connect":
		return runADBConnect(e, args[1:])
	case "stdio":
		return runADBStdio(e, args[1:])
	case "disconnect":
		return runADBDisconnect(e, args[1:])
	case "discover":
		return runADBDiscover(e, args[1:])
	case "call":
		return runADBCall(e, args[1:])
	case "check":
		return runADBCheck(e, args[1:])
	case "-h", "-help", "--help":
		fs.SetOutput(e.stdout)
		fs.Usage()
		return exitOK
	}
	if hint := text.DidYouMean(args[0], []string{"connect", "disconnect", "stdio", "discover", "call", "check"}); hint != "" {
		return usageError(e, fs, "unknown subcommand %q; %s", args[0], hint)
	}
	return usageError(e, fs, "unknown subcommand %q; use connect, disconnect, stdio, discover, call or check", args[0])
}

func (e *env) device(serial string) *adb.Device {
	runner := e.adb
	if runner == nil {
		runner = adb.Exec{}
	}
	return &adb.Device{Runner: runner, Serial: serial}
}

func runADBDiscover(e *env, args []string) int {
	fs := newFlags(e, "adb discover", "[--serial S]", "Lists the services on the device that declare the "+adb.ServiceAction+" intent filter.")
	serial := fs.String("serial", "", "the device's `serial` (see 'adb devices'); needed when several are connected")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if len(positional) > 0 {
		return usageError(e, fs, "unexpected arguments %q", positional)
	}
	ctx := context.Background()
	d := e.device(*serial)
	if err := d.CheckConnected(ctx); err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp adb discover: %v\n", err)
		return exitFailure
	}
	services, err := d.Services(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp adb discover: %v\n", err)
		return exitFailure
	}
	if len(services) == 0 {
		fmt.Fprintln(e.stdout, "No Mobile-MCP services on the device.")
		return exitOK
	}
	for _, s := range services {
		fmt.Fprintln(e.stdout, s)
	}
	return exitOK
}

// sendToTool sends request (whose id is id) to component: through its app's
// shell-only provider, or, for an app without one, with am and logcat.
func sendToTool(ctx context.Context, e *env, d *adb.Device, component, id string, request []byte) (*capability.Reply, error) {
	pkg, _, _ := strings.Cut(component, "/")
	reply, err := d.Invoke(ctx, pkg, request)
	if !errors.Is(err, adb.ErrNoShellProvider) {
		return reply, err
	}
	fmt.Fprintf(e.stderr, "%s has no shell-only provider (it is not built on the Tool SDK); sending request %s with am start-foreground-service and waiting for its reply in logcat...\n", pkg, id)
	return d.Call(ctx, component, id, request)
}

func runADBCall(e *env, args []string) int {
	fs := newFlags(e, "adb call", "[flags] CAPABILITY [key=value | key:=json]...",
		`Sends a Mobile-MCP request to a tool on the device and prints its reply.
A tool on the Tool SDK gets it through its shell-only provider ('adb shell
content call'), which only adb's shell can use, so every capability runs,
those that change something too, without the user's consent (whoever holds
adb controls the phone) and rate limited. A tool without that provider gets
it with 'adb shell am start-foreground-service', and its reply is read from
logcat: only read-only capabilities run that way, in a debuggable build or
with its developer switch on. --intent sends it that way to any tool, as an
agent's Intent without a callback would arrive.

Any Mobile-MCP tool works. --tool picks it among those 'adb discover'
lists: by package (io.github.mobilemcp.notes), by short name (notes, the
last part of the package or the service class's name) or by component
(io.github.mobilemcp.notes/.NotesToolService). Without --tool, the only
tool on the device is used.
`+argSyntax+`

Exit status: 0 on a success reply, 1 on a failure reply or when no reply
arrives, 2 on a usage error.`)
	serial := fs.String("serial", "", "the device's `serial` (see 'adb devices'); needed when several are connected")
	tool := fs.String("tool", "", "the tool to call: a `package`, short name or component (default: the only one)")
	timeout := fs.Duration("timeout", 60*time.Second, "how long to wait for the reply, a `duration` such as 30s or 2m")
	compact := fs.Bool("compact", false, "print the reply on one line")
	intent := fs.Bool("intent", false, "send it with am start-foreground-service and read the reply from logcat, even to a tool with a shell-only provider")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	if *timeout <= 0 {
		return usageError(e, fs, "--timeout must be positive, got %s", *timeout)
	}
	request, id, err := buildRequest(positional)
	if err != nil {
		return usageError(e, fs, "%v", err)
	}

	ctx, cancel := context.WithTimeoutCause(context.Background(), *timeout, errors.New("timed out after "+timeout.String()))
	defer cancel()
	d := e.device(*serial)
	if err := d.CheckConnected(ctx); err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp adb call: %v\n", err)
		return exitFailure
	}
	services, err := d.Services(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp adb call: %v\n", err)
		return exitFailure
	}
	component, err := adb.ResolveTool(services, *tool)
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp adb call: %v\n", err)
		return exitFailure
	}
	var reply *capability.Reply
	if *intent {
		reply, err = d.Call(ctx, component, id, request)
	} else {
		reply, err = sendToTool(ctx, e, d, component, id, request)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp adb call: %v\n", err)
		return exitFailure
	}
	printJSON(e.stdout, reply.JSON(), *compact)
	if reply.Failed() {
		return exitFailure
	}
	return exitOK
}
