// Command mobilemcp is the developer tool for Mobile-MCP capabilities: it runs
// requests against a simulated phone, lists and lints capabilities, generates
// descriptors, serves MCP over HTTP and drives a real phone through adb.
//
// Exit codes: 0 success; 1 the command ran and failed (a failure reply, a
// failed check, a server that cannot start, a file that exists but cannot be
// read or makes no sense); 2 a usage error, which is a command line that is
// wrong as typed: an unknown command or flag, a missing, extra or malformed
// argument or flag value, or a file or directory it names that does not
// exist.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// Exit codes shared by every command.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// env is what a command may touch of the outside world. Tests fill it in.
type env struct {
	// ctx ends when a long-running command (serve) must stop; tests
	// cancel it, and serve adds SIGINT and SIGTERM.
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
	// executable is the path of the running mobilemcp, and lookPath finds
	// a command on PATH (os.Executable and exec.LookPath).
	executable func() (string, error)
	lookPath   func(string) (string, error)
	goos       string     // the operating system, runtime.GOOS
	adb        adb.Runner // nil means the adb on PATH
}

type command struct {
	name    string
	summary string
	run     func(e *env, args []string) int
}

// commands is filled in by each command's file; help lists them in helpOrder.
var commands []command

func register(c command) { commands = append(commands, c) }

func main() {
	e := &env{ctx: context.Background(), stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv,
		executable: os.Executable, lookPath: exec.LookPath, goos: runtime.GOOS}
	os.Exit(run(e, os.Args[1:]))
}

// run runs the command line and returns the exit code. Its output stops at
// the first write that fails (a full disk, a closed pipe): nothing more is
// written, and the command fails saying why, rather than writing on into
// the error.
func run(e *env, args []string) int {
	out := &stickyWriter{w: e.stdout}
	e.stdout = out
	code := dispatch(e, args)
	if out.err != nil {
		name := "mobilemcp"
		if len(args) > 0 {
			name += " " + args[0]
		}
		fmt.Fprintf(e.stderr, "%s: writing the output: %v\n", name, out.err)
		return exitFailure
	}
	return code
}

// stickyWriter writes to w until a write fails, and then fails every write
// with that error without trying again.
type stickyWriter struct {
	w   io.Writer
	err error
}

// clientOut is the stdout of a command that serves an MCP client on it: a
// write that fails there means the client went away, which ends the
// session but is no failure of the command.
func clientOut(w io.Writer) io.Writer {
	if s, ok := w.(*stickyWriter); ok {
		return s.w
	}
	return w
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

func dispatch(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(e.stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(e, args[1:])
		}
	}
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	problem := fmt.Sprintf("unknown command %q", args[0])
	if hint := text.DidYouMean(args[0], names); hint != "" {
		problem += "; " + hint
	}
	fmt.Fprintf(e.stderr, "mobilemcp: %s\n\n", problem)
	usage(e.stderr)
	return exitUsage
}

// helpOrder is the order help lists the commands in: what a user needs
// first (serve the tools, call one), then the phone and the clients'
// configurations, then the tool author's commands, then the rest. A
// command not named here comes last.
var helpOrder = []string{"serve", "call", "adb", "config", "tools", "lint", "request", "outbox", "capabilities", "gen", "check-align", "version"}

func usage(w io.Writer) {
	fmt.Fprintln(w, "mobilemcp: Mobile-MCP capabilities on a simulated phone, over MCP, and on a real phone.")
	fmt.Fprintln(w, "\nUsage: mobilemcp COMMAND [flags] [args]\n\nCommands:")
	ordered := slices.Clone(commands)
	rank := func(c command) int {
		if i := slices.Index(helpOrder, c.name); i >= 0 {
			return i
		}
		return len(helpOrder)
	}
	slices.SortStableFunc(ordered, func(a, b command) int { return rank(a) - rank(b) })
	for _, c := range ordered {
		fmt.Fprintf(w, "  %-13s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'mobilemcp COMMAND --help' for a command's flags.")
}

// newFlags returns a flag set whose usage text starts with synopsis and
// describe. Errors are returned, not printed by the flag package twice.
func newFlags(e *env, name, synopsis, describe string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: %s\n\n%s\n", strings.TrimSpace("mobilemcp "+name+" "+synopsis), strings.TrimSpace(describe))
		if hasFlags(fs) {
			fmt.Fprintln(out, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// parseFlags parses flags that may come before, between or after positional
// arguments, and returns the positionals. A "--" ends flag parsing. It
// returns done=true with the exit code when the command must stop: after
// --help (exit 0, usage on stdout) or on a flag error (exit 2).
func parseFlags(e *env, fs *flag.FlagSet, args []string) (positional []string, code int, done bool) {
	printUsage := fs.Usage
	fs.Usage = func() {}     // the flag package would print it on every error
	fs.SetOutput(io.Discard) // and the error too, in its own words
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(e.stdout)
				printUsage()
				return nil, exitOK, true
			}
			return nil, usageError(e, fs, "%s", flagProblem(fs, err)), true
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, 0, false
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), 0, false
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// The flag package's errors, which name the flag with one dash and say
// only "parse error" of a value that is not of its type.
var (
	badValue   = regexp.MustCompile(`(?s)^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-([^:]+): (.*)$`)
	unknownArg = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	needsValue = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
)

// flagProblem says what is wrong with a command line the flag package
// refused, naming the flag as --name and the value, and what the value
// should have been.
func flagProblem(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if m := unknownArg.FindStringSubmatch(msg); m != nil {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, "--"+f.Name) })
		problem := "unknown flag --" + m[1]
		if hint := text.DidYouMean("--"+m[1], names); hint != "" {
			problem += "; " + hint
		}
		return problem
	}
	if m := needsValue.FindStringSubmatch(msg); m != nil {
		return "--" + m[1] + " needs a value"
	}
	m := badValue.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	value, name, reason := m[1], m[2], m[3]
	if reason == "value out of range" {
		return fmt.Sprintf("--%s %s is out of range", name, value)
	}
	if reason != "parse error" {
		return fmt.Sprintf("--%s %s: %s", name, value, reason)
	}
	var want string
	if f := fs.Lookup(name); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			switch g.Get().(type) {
			case bool:
				want = "true or false"
			case int, int64, uint, uint64:
				want = "a whole number"
			case float64:
				want = "a number"
			case time.Duration:
				want = "a duration such as 30s, 2m or 1h"
			}
		}
	}
	if want == "" {
		return fmt.Sprintf("--%s %s is not valid", name, value)
	}
	return fmt.Sprintf("--%s %s is not %s", name, value, want)
}

// parseNoArgs is parseFlags for a command that takes flags only: a
// positional argument is a usage error.
func parseNoArgs(e *env, fs *flag.FlagSet, args []string) (code int, done bool) {
	positional, code, done := parseFlags(e, fs, args)
	if !done && len(positional) > 0 {
		return usageError(e, fs, "unexpected arguments %q", positional), true
	}
	return code, done
}

// checkExists returns a usage error when path, which the command line
// names (with flagName, such as "--raw", or "" for an argument), does not
// exist: most likely a typo. A file that exists but cannot be read is a
// failure, reported when the command reads it.
func checkExists(e *env, fs *flag.FlagSet, flagName, path string) (code int, ok bool) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		if flagName != "" {
			return usageError(e, fs, "%s %s does not exist", flagName, path), false
		}
		return usageError(e, fs, "%s does not exist", path), false
	}
	return exitOK, true
}

// usageError prints a usage problem and returns exitUsage.
func usageError(e *env, fs *flag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(e.stderr, "mobilemcp %s: %s\n", fs.Name(), fmt.Sprintf(format, args...))
	fmt.Fprintf(e.stderr, "Run 'mobilemcp %s --help' for usage.\n", fs.Name())
	return exitUsage
}
