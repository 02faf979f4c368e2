package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
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
	where string // the file, or "" for a command to run
	write func(w io.Writer, s stdioServer)
}

// stdioServer is the server a configuration starts.
type stdioServer struct {
	name    string
	command string
	args    []string
}

// desktopClients are the clients 'config' knows, in the order it prints
// them. Each writes the form its own documentation gives.
var desktopClients = []desktopClient{
	{"claude-code", "Claude Code", "", func(w io.Writer, s stdioServer) {
		fmt.Fprintf(w, "claude mcp add %s -- %s\n", s.name, shellWords(append([]string{s.command}, s.args...)))
	}},
	{"claude-desktop", "Claude Desktop", "claude_desktop_config.json", writeMCPServers},
	{"cursor", "Cursor", "~/.cursor/mcp.json", writeMCPServers},
	{"vscode", "VS Code", ".vscode/mcp.json", func(w io.Writer, s stdioServer) {
		writeServerJSON(w, "servers", s, `"type": "stdio", `)
	}},
	{"codex", "Codex", "~/.codex/config.toml", func(w io.Writer, s stdioServer) {
		quoted := make([]string, len(s.args))
		for i, a := range s.args {
			quoted[i] = strconv.Quote(a)
		}
		fmt.Fprintf(w, "[mcp_servers.%s]\ncommand = %s\nargs = [%s]\n", s.name, strconv.Quote(s.command), strings.Join(quoted, ", "))
	}},
	{"gemini", "Gemini CLI", "~/.gemini/settings.json", writeMCPServers},
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

func jsonString(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

// shellWords joins words for a POSIX shell, quoting those that need it.
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

const configHelp = `Prints the configuration with which an MCP client starts mobilemcp as a
stdio server: for the phone, 'mobilemcp adb stdio' (its shared tools over
USB, with no token to copy); with --simulated, 'mobilemcp serve --stdio'
(the simulated phone). None needs Node, and none holds a token.

CLIENT is one of claude-code, claude-desktop, cursor, vscode, codex or
gemini; without it, every client's is printed, each under the file it goes
in. Claude Code's is the command that adds the server.

A client started from a desktop menu may not have your shell's PATH: give
--command the full path of mobilemcp (command -v mobilemcp), or --go-run to
have Go build it on the fly. 'adb stdio' also needs adb on the client's PATH.`

func runConfig(e *env, args []string) int {
	fs := newFlags(e, "config", "[flags] [CLIENT]", configHelp)
	simulated := fs.Bool("simulated", false, "configure the simulated phone (serve --stdio) instead of the phone")
	serial := fs.String("serial", "", "the phone's `serial`, when several devices are connected")
	commandPath := fs.String("command", "mobilemcp", "the `command` the client runs")
	goRun := fs.Bool("go-run", false, "run the CLI with 'go run "+latestCLI+"', for a machine with nothing installed but Go")
	name := fs.String("name", "", "the server's `name` in the client (default phone, or sms with --simulated)")
	positional, code, done := parseFlags(e, fs, args)
	if done {
		return code
	}
	var names []string
	for _, c := range desktopClients {
		names = append(names, c.name)
	}
	if len(positional) > 1 {
		return usageError(e, fs, "unexpected arguments %q; name one client", positional[1:])
	}
	if len(positional) == 1 && !slices.Contains(names, positional[0]) {
		return usageError(e, fs, "unknown client %q; use one of %s", positional[0], strings.Join(names, ", "))
	}
	if *simulated && *serial != "" {
		return usageError(e, fs, "--serial picks a phone; the simulated phone (--simulated) needs none")
	}
	s := stdioServer{name: "phone", command: *commandPath, args: []string{"adb", "stdio"}}
	if *serial != "" {
		s.args = append(s.args, "--serial", *serial)
	}
	if *simulated {
		s.name, s.args = "sms", []string{"serve", "--stdio"}
	}
	if *goRun {
		s.command, s.args = "go", append([]string{"run", latestCLI}, s.args...)
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
		if c.where == "" {
			fmt.Fprintf(e.stdout, "%s, run:\n", c.title)
		} else {
			fmt.Fprintf(e.stdout, "%s, in %s:\n", c.title, c.where)
		}
		c.write(e.stdout, s)
	}
	return exitOK
}
