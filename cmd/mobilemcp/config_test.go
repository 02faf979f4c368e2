package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Each client's configuration has the form its own documentation gives,
// and starts exactly the command it should: mcpServers.NAME.{command,args}
// for Claude Desktop, Cursor and Gemini CLI; servers.NAME with type stdio
// for VS Code's mcp.json; the TOML table [mcp_servers.NAME] for Codex's
// config.toml; 'claude mcp add NAME -- COMMAND ARGS' for Claude Code.
func TestConfigFollowsEachClientsDocumentedFormat(t *testing.T) {
	for _, tt := range []struct {
		flags   []string
		name    string
		command []string
	}{
		{nil, "phone", []string{"mobilemcp", "adb", "stdio"}},
		{[]string{"--serial", "R58M 1"}, "phone", []string{"mobilemcp", "adb", "stdio", "--serial", "R58M 1"}},
		{[]string{"--simulated"}, "sms", []string{"mobilemcp", "serve", "--stdio"}},
		{[]string{"--simulated", "--go-run"}, "sms", []string{"go", "run", "github.com/mobilemcp/mobilemcp/cmd/mobilemcp@latest", "serve", "--stdio"}},
	} {
		for _, client := range []string{"claude-code", "claude-desktop", "cursor", "vscode", "codex", "gemini"} {
			code, out, errOut := newCLI(t).run("", append(append([]string{"config"}, tt.flags...), client)...)
			if code != exitOK || errOut != "" {
				t.Fatalf("config %s %q: exit %d, stderr %q", client, tt.flags, code, errOut)
			}
			var name string
			var command []string
			switch client {
			case "claude-code":
				words := shellSplit(t, out)
				if len(words) < 6 || strings.Join(words[:3], " ") != "claude mcp add" || words[4] != "--" {
					t.Fatalf("not 'claude mcp add NAME -- COMMAND': %q", out)
				}
				name, command = words[3], words[5:]
			case "codex":
				name, command = codexServer(t, out)
			default:
				name, command = jsonServer(t, client, out)
			}
			if name != tt.name || !slices.Equal(command, tt.command) {
				t.Errorf("config %s %q starts %s: %q; want %s: %q\n%s", client, tt.flags, name, command, tt.name, tt.command, out)
			}
			if strings.Contains(out, "npx") || strings.Contains(strings.ToLower(out), "token") {
				t.Errorf("config %s needs Node or names a token:\n%s", client, out)
			}
		}
	}
}

// jsonServer reads the one server of a JSON configuration.
func jsonServer(t *testing.T, client, out string) (string, []string) {
	t.Helper()
	var doc map[string]map[string]struct {
		Type    *string  `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", client, err, out)
	}
	key := "mcpServers"
	if client == "vscode" {
		key = "servers"
	}
	if len(doc) != 1 || len(doc[key]) != 1 {
		t.Fatalf("%s: want one server under %q:\n%s", client, key, out)
	}
	for name, s := range doc[key] {
		if (client == "vscode") != (s.Type != nil && *s.Type == "stdio") {
			t.Errorf("%s: type %v; VS Code's servers say type stdio, the others none", client, s.Type)
		}
		return name, append([]string{s.Command}, s.Args...)
	}
	return "", nil
}

// codexServer reads Codex's TOML with Python's tomllib, a TOML parser
// nobody here wrote.
func codexServer(t *testing.T, out string) (string, []string) {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is needed to parse Codex's TOML")
		}
		t.Skip("no python3 to parse Codex's TOML")
	}
	cmd := exec.Command(python, "-c", "import json, sys, tomllib; print(json.dumps(tomllib.load(sys.stdin.buffer)))")
	cmd.Stdin = strings.NewReader(out)
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("Codex's config is not TOML: %v\n%s", err, out)
	}
	var doc map[string]map[string]struct {
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc) != 1 || len(doc["mcp_servers"]) != 1 {
		t.Fatalf("Codex's config is not one [mcp_servers.NAME] table: %s", data)
	}
	for name, s := range doc["mcp_servers"] {
		return name, append([]string{s.Command}, s.Args...)
	}
	return "", nil
}

// shellSplit splits a command line as sh does, with sh itself.
func shellSplit(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", "set -- "+strings.TrimSpace(line)+`; for w in "$@"; do printf '%s\0' "$w"; done`).Output()
	if err != nil {
		t.Fatalf("sh cannot split %q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

func TestConfigUsage(t *testing.T) {
	for _, args := range [][]string{{"config", "windsurf"}, {"config", "cursor", "vscode"}, {"config", "--simulated", "--serial", "x"}} {
		if code, _, _ := newCLI(t).run("", args...); code != exitUsage {
			t.Errorf("%q: exit %d", args, code)
		}
	}
	code, out, _ := newCLI(t).run("", "config")
	if code != exitOK || !strings.HasPrefix(out, "Claude Code, run:\nclaude mcp add phone -- mobilemcp adb stdio\n\nClaude Desktop, in claude_desktop_config.json:\n") {
		t.Errorf("config: exit %d\n%s", code, out)
	}
}
