package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mobilemcp/mobilemcp/adb"
	"github.com/mobilemcp/mobilemcp/internal/suggest"
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
  discover                              list the Mobile-MCP services on the device
  call [--tool NAME] CAPABILITY [key=value | key:=json]...
                                        send a request to a tool with
                                        am start-foreground-service and print
                                        the reply the app logs for it
  check [--apk APK] [--send-sms-to NUMBER]
                                        install the SMS app and check, step by
                                        step, what only a device can show

A request sent this way has no callback, so the app logs its reply to logcat
under the tag ` + adb.LogTag + `. Apps honour such requests only in debuggable
builds or with their developer switch on.`

func runADB(e *env, args []string) int {
	fs := newFlags(e, "adb", "connect|disconnect|discover|call|check [flags] ...", adbUsage)
	if len(args) == 0 {
		return usageError(e, fs, "name a subcommand: connect, disconnect, discover, call or check")
	}
	switch args[0] {
	case "connect":
		return runADBConnect(e, args[1:])
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
	if hint := suggest.DidYouMean(args[0], []string{"connect", "disconnect", "discover", "call", "check"}); hint != "" {
		return usageError(e, fs, "unknown subcommand %q; %s", args[0], hint)
	}
	return usageError(e, fs, "unknown subcommand %q; use connect, disconnect, discover, call or check", args[0])
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

func runADBCall(e *env, args []string) int {
	fs := newFlags(e, "adb call", "[flags] CAPABILITY [key=value | key:=json]...",
		`Sends a Mobile-MCP request to a tool service on the device with
'adb shell am start-foreground-service', waits for the reply the app logs
for that request id, and prints it.

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
	timeout := fs.Duration("timeout", 60*time.Second, "how long to wait for the reply")
	compact := fs.Bool("compact", false, "print the reply on one line")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
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
	fmt.Fprintf(e.stderr, "Sending request %s to %s and waiting for its reply in logcat...\n", id, component)
	reply, err := d.Call(ctx, component, id, request)
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
