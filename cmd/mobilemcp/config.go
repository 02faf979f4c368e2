package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

func init() {
	register(command{name: "config", summary: "print an MCP client's configuration for the phone (adb stdio) or the simulated phone", run: runConfig})
}

// latestCLI is what 'go run' and 'go install' take to build the CLI.
const latestCLI = modulePath + "/cmd/mobilemcp@latest"

// A desktopClient is an MCP client that starts a stdio server from a
// command line, and how its configuration names one.
type desktopClient struct {
	name  string // as 'mobilemcp config' takes it
	title string
	// where is the file the configuration goes in, for each operating
	// system (GOOS); nil for a client configured by a command, "" for an
	// operating system it does not run on.
	where map[string]string
	write func(w io.Writer, s stdioServer)
}

// whereOn says where the configuration goes on the operating system goos:
// "run" for a command, "in FILE" for a file.
func (c desktopClient) whereOn(goos string) string {
	if c.where == nil {
		return "run"
	}
	if file := c.where[goos]; file != "" {
		return "in " + file
	}
	for _, other := range []string{"darwin", "windows", "linux"} {
		if file := c.where[other]; file != "" {
			return "which has no build for " + goos + ", in " + file[strings.LastIndexAny(file, `/\`)+1:]
		}
	}
	return "in its configuration"
}

// stdioServer is the server a configuration starts.
type stdioServer struct {
	name    string
	command string
	args    []string
}

// desktopClients are the clients 'config' knows, in the order it prints
// them. Each writes the form its own documentation gives, in the file its
// documentation names for each operating system.
var desktopClients = []desktopClient{
	{"claude-code", "Claude Code", nil, func(w io.Writer, s stdioServer) {
		fmt.Fprintf(w, "claude mcp add %s -- %s\n", s.name, shellWords(append([]string{s.command}, s.args...)))
	}},
	{"claude-desktop", "Claude Desktop", map[string]string{
		"darwin":  "~/Library/Application Support/Claude/claude_desktop_config.json",
		"windows": `%APPDATA%\Claude\claude_desktop_config.json`,
		"linux":   "", // Claude Desktop has no Linux build
	}, writeMCPServers},
	{"cursor", "Cursor", map[string]string{
		"darwin":  "~/.cursor/mcp.json",
		"linux":   "~/.cursor/mcp.json",
		"windows": `%USERPROFILE%\.cursor\mcp.json`,
	}, writeMCPServers},
	{"vscode", "VS Code", map[string]string{
		"darwin":  "~/Library/Application Support/Code/User/mcp.json",
		"linux":   "~/.config/Code/User/mcp.json",
		"windows": `%APPDATA%\Code\User\mcp.json`,
	}, func(w io.Writer, s stdioServer) {
		writeServerJSON(w, "servers", s, `"type": "stdio", `)
	}},
	{"codex", "Codex", map[string]string{
		"darwin":  "~/.codex/config.toml",
		"linux":   "~/.codex/config.toml",
		"windows": `%USERPROFILE%\.codex\config.toml`,
	}, writeCodex},
	{"gemini", "Gemini CLI", map[string]string{
		"darwin":  "~/.gemini/settings.json",
		"linux":   "~/.gemini/settings.json",
		"windows": `%USERPROFILE%\.gemini\settings.json`,
	}, writeMCPServers},
}

// writeMCPServers writes the "mcpServers" object that Claude Desktop,
// Cursor and Gemini CLI share.
func writeMCPServers(w io.Writer, s stdioServer) { writeServerJSON(w, "mcpServers", s, "") }

// writeServerJSON writes {"<key>": {"<name>": {<fields>"command": …, "args": […]}}},
// one server to a line, as the clients' documentation shows them.
func writeServerJSON(w io.Writer, key string, s stdioServer, fields string) {
	args := make([]string, len(s.args))
	for i, a := range s.args {
		args[i] = jsonString(a)
	}
	fmt.Fprintf(w, "{\n  %s: {\n    %s: { %s\"command\": %s, \"args\": [%s] }\n  }\n}\n",
		jsonString(key), jsonString(s.name), fields, jsonString(s.command), strings.Join(args, ", "))
}

// jsonString is s as a JSON string, with &, < and > as they are: a
// configuration is read by people, not embedded in HTML.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// writeCodex writes Codex's [mcp_servers.NAME] table. The name needs no
// quoting (serverName allows only a bare key's characters); the values
// are encoded by a TOML encoder, which escapes what TOML requires.
func writeCodex(w io.Writer, s stdioServer) {
	fmt.Fprintf(w, "[mcp_servers.%s]\n", s.name)
	_ = toml.NewEncoder(w).Encode(struct {
		Command string   `toml:"command"`
		Args    []string `toml:"args"`
	}{s.command, s.args})
}

// shellWords joins words for a POSIX shell, quoting those that need it.
// Claude Code runs its commands in a POSIX shell on every system (Git
// Bash on Windows).
func shellWords(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		if w == "" || strings.ContainsFunc(w, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@=+,", r))
		}) {
			w = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
		quoted[i] = w
	}
	return strings.Join(quoted, " ")
}

// serverName is what Claude Code and Codex accept as a server's name, and
// what model providers accept in the tool names agents build from it.
var serverName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// runners are the ways --via names to start mobilemcp: the words that
// come before mobilemcp's own arguments.
var runners = []struct {
	name  string
	words []string
}{
	{"npx", npxWords},
	{"uvx", []string{"uvx", "mobilemcp"}},
	{"pipx", []string{"pipx", "run", "mobilemcp"}},
	{"go", []string{"go", "run", latestCLI}},
	{"path", []string{"mobilemcp"}},
}

// npxWords start 'npx -y mobilemcp' from the root directory, through the
// system's own shell. npx runs a node_modules/.bin/mobilemcp of the working
// directory or any directory above it before the registry's, even with a
// pinned --package when a planted node_modules/mobilemcp has its version;
// and whatever it runs, it runs with every such node_modules/.bin ahead of
// PATH, so a planted 'sh' or 'node' runs in place of the shell npx starts
// or the interpreter of the package's launcher. A coding client starts its
// servers in the project it opened, so the project must not be npx's
// working directory. In the root directory the only such folder is the
// administrator's /node_modules/.bin. The shell is named by its absolute
// path, and mobilemcp's arguments reach npx as "$@".
var npxWords = []string{"/bin/sh", "-c", `cd / && exec npx -y mobilemcp "$@"`, "mobilemcp"}

// npxWindowsWords are npxWords on Windows, where npx is a batch file that
// only cmd runs. cmd is named by its absolute path, since a command named
// alone is looked for in the working directory first; it changes to the
// Windows directory before it runs npx, as npxWords change to the root.
var npxWindowsWords = []string{`C:\Windows\System32\cmd.exe`, "/d", "/c", "cd", "/d", "%SystemRoot%", "&&", "npx", "-y", "mobilemcp"}

func runnerNames() string {
	names := make([]string, len(runners))
	for i, r := range runners {
		names[i] = r.name
	}
	return strings.Join(names, "|")
}

// runnerWords are the words that start mobilemcp with the runner name on
// the operating system goos, or nil for no such runner.
func runnerWords(name, goos string) []string {
	for _, r := range runners {
		if r.name == name {
			if name == "npx" && goos == "windows" {
				return npxWindowsWords
			}
			return r.words
		}
	}
	return nil
}

// uvArchive matches a command in an environment of uv's cache, wherever
// the cache is (UV_CACHE_DIR).
var uvArchive = regexp.MustCompile(`/archive-v[0-9]+/[^/]+/(bin|Scripts)/[^/]+$`)

// pipxCache matches a command in an environment of pipx run's cache:
// PIPX_HOME/.cache/HASH (PIPX_HOME set, or pipx before 1.3), or pipx's
// user cache directory, ~/.cache/pipx/HASH on Linux, ~/Library/Caches/pipx
// on macOS, %LOCALAPPDATA%\pipx\pipx\Cache on Windows.
var pipxCache = regexp.MustCompile(`/(pipx/\.cache|\.cache/pipx|Caches/pipx|pipx/pipx/Cache)/[^/]+/(bin|Scripts)/[^/]+$`)

// cachedBy names the package runner whose cache holds the executable at
// path, or "" when none does. A copy in a runner's cache may be removed by
// the runner at any time, so a client is given the runner instead.
func cachedBy(path string) string {
	p := filepath.ToSlash(path)
	switch {
	case strings.Contains(p, "/_npx/"): // npm's cache of npx's installs
		return "npx"
	case uvArchive.MatchString(p): // an environment in uv's cache, where uvx installs
		return "uvx"
	case pipxCache.MatchString(p):
		return "pipx"
	}
	return ""
}

// uvWords are the words that start mobilemcp from uv's cache, where uvx
// and pipx run with its uv backend both run it: uvx when it is on PATH;
// else pipx run when pipx is (the uv that pipx bundles brings no uvx);
// else the uv that started this one, which uv names in $UV, as 'uv tool
// run'; else uvx.
func uvWords(e *env) []string {
	if _, err := e.lookPath("uvx"); err == nil {
		return runnerWords("uvx", e.goos)
	}
	if _, err := e.lookPath("pipx"); err == nil {
		return runnerWords("pipx", e.goos)
	}
	if uv := e.getenv("UV"); uv != "" && (filepath.IsAbs(uv) || strings.HasPrefix(filepath.ToSlash(uv), "/")) {
		return []string{uv, "tool", "run", "mobilemcp"}
	}
	return runnerWords("uvx", e.goos)
}

// npmPlatformBinary matches the binary of a system's package inside npm's
// tree; group 1 is the node_modules that holds the package mobilemcp.
var npmPlatformBinary = regexp.MustCompile(`^(.*?/node_modules)/(?:mobilemcp/node_modules/)?@mobilemcp/cli-[^/]+/bin/[^/]+$`)

// npmLauncher is the launcher of the npm package mobilemcp whose tree
// holds the binary at path (what 'npm install' links as mobilemcp), or ""
// when path is not in one.
func npmLauncher(path string) string {
	m := npmPlatformBinary.FindStringSubmatch(filepath.ToSlash(path))
	if m == nil {
		return ""
	}
	return filepath.FromSlash(m[1] + "/mobilemcp/bin/mobilemcp.js")
}

// goRunBuild reports whether path is a temporary build of 'go run', which
// Go deletes when the command exits.
func goRunBuild(path string) bool {
	return strings.Contains(filepath.ToSlash(path), "/go-build")
}

// defaultCommand is the command of the configuration when neither --via
// nor --command is given: what is running now. That is "mobilemcp" when
// the mobilemcp on PATH is this very file (or the npm launcher that runs
// it), else this file's absolute path
// (a client started from a desktop menu may not have the shell's PATH),
// else, when this file sits in a package runner's cache, the runner.
func defaultCommand(e *env) ([]string, error) {
	exe, err := e.executable()
	if err != nil {
		return nil, fmt.Errorf("cannot tell where this mobilemcp is (%v); give --via %s or --command", err, runnerNames())
	}
	switch r := cachedBy(exe); r {
	case "uvx":
		return uvWords(e), nil
	case "":
	default:
		return runnerWords(r, e.goos), nil
	}
	if goRunBuild(exe) {
		return nil, fmt.Errorf("this mobilemcp is a temporary build of 'go run' (%s), which is gone once it exits; "+
			"build one that stays (go build -o build/mobilemcp ./cmd/mobilemcp) and run its config, "+
			"or give --via %s, or --command", exe, runnerNames())
	}
	if onPath, err := e.lookPath("mobilemcp"); err == nil && (sameFile(onPath, exe) || sameFile(onPath, npmLauncher(exe))) {
		return []string{"mobilemcp"}, nil
	}
	if abs, err := filepath.Abs(exe); err == nil {
		exe = abs
	}
	return []string{exe}, nil
}

// commandFlagPath is the command --command names as a client is to run it:
// a path made absolute (a relative one would be taken from the client's
// directory), or a name found on PATH. What names no program is an error.
func commandFlagPath(e *env, command string) (string, error) {
	if !filepath.IsAbs(command) && !strings.ContainsAny(command, "/"+string(filepath.Separator)) {
		if _, err := e.lookPath(command); err != nil {
			return "", errors.New("not a file, nor a program on PATH")
		}
		return command, nil
	}
	if abs, err := filepath.Abs(command); err == nil {
		command = abs
	}
	info, err := os.Stat(command)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", errors.New("no such file")
	case err != nil:
		return "", err
	case info.IsDir():
		return "", errors.New("a directory, not a program")
	}
	return command, nil
}

func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

const configHelp = `Prints the configuration with which an MCP client starts mobilemcp as a
stdio server: for the phone, 'mobilemcp adb stdio' (its shared tools over
USB, with no token to copy); with --simulated, 'mobilemcp serve --stdio'
(the simulated phone). None holds a token.

CLIENT is one of claude-code, claude-desktop, cursor, vscode, codex or
gemini; without it, every client's is printed, each under the file it goes
in on this system. Claude Code's is the command that adds the server.

The command the client runs is the mobilemcp that prints it: "mobilemcp"
when that is the one on PATH, else its full path, because a client started
from a desktop menu may not have your shell's PATH. Run from npx, uvx or
pipx run (either backend), it is that runner. --via chooses a runner
instead: npx (npx -y mobilemcp, started from / rather than the client's
project, whose node_modules/.bin npx would run first; needs Node), uvx
(needs uv), pipx, go (go run, needs Go) or path (the name mobilemcp, found
on the client's PATH); --command names any program. 'adb stdio' finds adb
on the client's PATH, else in the Android SDK ($ANDROID_HOME, or where
Android Studio puts it), else Homebrew's, only ever at an absolute path.`

func runConfig(e *env, args []string) int {
	fs := newFlags(e, "config", "[flags] [CLIENT]", configHelp)
	simulated := fs.Bool("simulated", false, "configure the simulated phone (serve --stdio) instead of the phone")
	serial := fs.String("serial", "", "the phone's `serial`, when several devices are connected")
	via := fs.String("via", "", "start mobilemcp with a package `runner`: "+runnerNames())
	var commandPath *string
	fs.Func("command", "the `path` of the mobilemcp the client runs (default: the one running now)", func(v string) error {
		commandPath = &v
		return nil
	})
	name := fs.String("name", "", "the server's `name` in the client: 1 to 64 letters, digits, _ or - (default phone, or sms with --simulated)")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	nameSet := false
	fs.Visit(func(f *flag.Flag) { nameSet = nameSet || f.Name == "name" })
	var names []string
	for _, c := range desktopClients {
		names = append(names, c.name)
	}
	switch {
	case len(positional) > 1:
		return usageError(e, fs, "unexpected arguments %q; name one client", positional[1:])
	case len(positional) == 1 && !slices.Contains(names, positional[0]):
		return usageError(e, fs, "unknown client %q; use one of %s", positional[0], strings.Join(names, ", "))
	case *simulated && *serial != "":
		return usageError(e, fs, "--serial picks a phone; the simulated phone (--simulated) needs none")
	case nameSet && !serverName.MatchString(*name):
		return usageError(e, fs, "--name %q is not a name every client accepts: use 1 to 64 letters, digits, _ or -", *name)
	case commandPath != nil && strings.TrimSpace(*commandPath) == "":
		return usageError(e, fs, "--command %q is empty: give the path of mobilemcp, or --via %s", *commandPath, runnerNames())
	case commandPath != nil && *via != "":
		return usageError(e, fs, "--command %q and --via %s both say what to run; give one", *commandPath, *via)
	case *via != "" && runnerWords(*via, e.goos) == nil:
		return usageError(e, fs, "--via %q is not a runner; use one of %s", *via, runnerNames())
	}

	var words []string
	switch {
	case commandPath != nil:
		command, err := commandFlagPath(e, *commandPath)
		if err != nil {
			return usageError(e, fs, "--command %q: %v; give the path of mobilemcp, or --via %s", *commandPath, err, runnerNames())
		}
		words = []string{command}
	case *via != "":
		words = runnerWords(*via, e.goos)
	default:
		var err error
		if words, err = defaultCommand(e); err != nil {
			fmt.Fprintf(e.stderr, "mobilemcp config: %v\n", err)
			return exitFailure
		}
	}
	s := stdioServer{name: "phone", command: words[0], args: append(slices.Clone(words[1:]), "adb", "stdio")}
	if *serial != "" {
		s.args = append(s.args, "--serial", *serial)
	}
	if *simulated {
		s.name, s.args = "sms", append(slices.Clone(words[1:]), "serve", "--stdio")
	}
	if *name != "" {
		s.name = *name
	}
	for i, c := range desktopClients {
		switch {
		case len(positional) == 1 && c.name != positional[0]:
			continue
		case len(positional) == 1:
			c.write(e.stdout, s)
			continue
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "%s, %s:\n", c.title, c.whereOn(e.goos))
		c.write(e.stdout, s)
	}
	return exitOK
}
