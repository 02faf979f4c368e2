package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
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
	const exe = "/opt/mobilemcp/bin/mobilemcp" // newCLI's running mobilemcp
	// Paths that each format must quote: spaces, quotes, backslashes, a
	// control character, and what TOML alone must escape (DEL).
	dir := t.TempDir()
	spaces := writeProgram(t, filepath.Join(dir, "Jane Doe", "My Tools", "mobile'mcp"))
	quotes := writeProgram(t, filepath.Join(dir, `C:\Users\Jane "JD" Doe\mobilemcp.exe`))
	control := writeProgram(t, filepath.Join(dir, "tab\there", "del\x7f", "$HOME", "`x`", "mobilemcp"))
	for _, tt := range []struct {
		flags   []string
		name    string
		command []string
	}{
		{nil, "phone", []string{exe, "adb", "stdio"}},
		{[]string{"--serial", "R58M 1"}, "phone", []string{exe, "adb", "stdio", "--serial", "R58M 1"}},
		{[]string{"--simulated"}, "sms", []string{exe, "serve", "--stdio"}},
		{[]string{"--via", "npx"}, "phone", []string{"/bin/sh", "-c", `cd / && exec npx -y mobilemcp "$@"`, "mobilemcp", "adb", "stdio"}},
		{[]string{"--via", "uvx", "--simulated"}, "sms", []string{"uvx", "mobilemcp", "serve", "--stdio"}},
		{[]string{"--via", "pipx"}, "phone", []string{"pipx", "run", "mobilemcp", "adb", "stdio"}},
		{[]string{"--via", "path", "--name", "my_phone-2"}, "my_phone-2", []string{"mobilemcp", "adb", "stdio"}},
		{[]string{"--simulated", "--via", "go"}, "sms", []string{"go", "run", "github.com/mobilemcp/mobilemcp/cmd/mobilemcp@latest", "serve", "--stdio"}},
		{[]string{"--command", spaces}, "phone", []string{spaces, "adb", "stdio"}},
		{[]string{"--command", quotes}, "phone", []string{quotes, "adb", "stdio"}},
		{[]string{"--command", control}, "phone", []string{control, "adb", "stdio"}},
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
			if strings.Contains(strings.ToLower(out), "token") {
				t.Errorf("config %s names a token:\n%s", client, out)
			}
		}
	}
}

// By default a client runs the mobilemcp that printed its configuration:
// by name when it is the one on PATH, else by its absolute path, else the
// package runner whose cache holds it. A temporary build of go run is
// refused, since it is gone once config exits.
func TestConfigRunsTheMobilemcpThatPrintsIt(t *testing.T) {
	dir := t.TempDir()
	installed := filepath.Join(dir, "lib", "mobilemcp")
	if err := os.MkdirAll(filepath.Dir(installed), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(installed, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "bin", "mobilemcp") // as uv tool install and pipx install link it
	if err := os.MkdirAll(filepath.Dir(linked), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(installed, linked); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other-mobilemcp")
	if err := os.WriteFile(other, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		exe, path, want string
	}{
		{installed, linked, "claude mcp add phone -- mobilemcp adb stdio\n"},
		{installed, "", "claude mcp add phone -- " + installed + " adb stdio\n"},
		{installed, other, "claude mcp add phone -- " + installed + " adb stdio\n"},
		{"/home/me/.npm/_npx/6a1b2c/node_modules/@mobilemcp/cli-linux-x64/bin/mobilemcp", other, "claude mcp add phone -- /bin/sh -c 'cd / && exec npx -y mobilemcp \"$@\"' mobilemcp adb stdio\n"},
		{"/home/me/.cache/uv/archive-v0/Xy12/bin/mobilemcp", other, "claude mcp add phone -- uvx mobilemcp adb stdio\n"},
		// uvx puts its environment first on PATH: the one there is this one.
		{"/tmp/uv-cache/archive-v0/Xy12/bin/mobilemcp", "/tmp/uv-cache/archive-v0/Xy12/bin/mobilemcp", "claude mcp add phone -- uvx mobilemcp adb stdio\n"},
		{`C:/Users/me/AppData/Local/uv/cache/archive-v0/Xy12/Scripts/mobilemcp.exe`, "", "claude mcp add phone -- uvx mobilemcp adb stdio\n"},
		{"/home/me/.local/share/pipx/.cache/0f1e2d/bin/mobilemcp", "", "claude mcp add phone -- pipx run mobilemcp adb stdio\n"},
	} {
		c := newCLI(t)
		c.exe, c.path = tt.exe, tt.path
		if code, out, errOut := c.run("", "config", "claude-code"); code != exitOK || out != tt.want {
			t.Errorf("running %s, with %q on PATH: exit %d\n got %q\nwant %q\n%s", tt.exe, tt.path, code, out, tt.want, errOut)
		}
	}

	c := newCLI(t)
	c.exe = "/tmp/go-build1234/b001/exe/mobilemcp"
	code, out, errOut := c.run("", "config", "cursor")
	if want := "mobilemcp config: this mobilemcp is a temporary build of 'go run' (/tmp/go-build1234/b001/exe/mobilemcp), which is gone once it exits; " +
		"build one that stays (go build -o build/mobilemcp ./cmd/mobilemcp) and run its config, or give --via npx|uvx|pipx|go|path, or --command\n"; code != exitFailure || out != "" || errOut != want {
		t.Errorf("from go run: exit %d, stdout %q\n got %q\nwant %q", code, out, errOut, want)
	}
	if code, out, _ := c.run("", "config", "--via", "go", "claude-code"); code != exitOK ||
		out != "claude mcp add phone -- go run github.com/mobilemcp/mobilemcp/cmd/mobilemcp@latest adb stdio\n" {
		t.Errorf("from go run, --via go: exit %d, %q", code, out)
	}

	// On Windows npx is a batch file, which clients start through cmd,
	// named by its path, from the Windows directory.
	c = newCLI(t)
	c.goos = "windows"
	if code, out, _ := c.run("", "config", "--via", "npx", "codex"); code != exitOK ||
		out != "[mcp_servers.phone]\ncommand = \"C:\\\\Windows\\\\System32\\\\cmd.exe\"\n"+
			"args = [\"/d\", \"/c\", \"cd\", \"/d\", \"%SystemRoot%\", \"&&\", \"npx\", \"-y\", \"mobilemcp\", \"adb\", \"stdio\"]\n" {
		t.Errorf("--via npx on Windows: exit %d, %q", code, out)
	}

	// A relative --command is made absolute: the client starts it from a
	// directory of its own.
	wd := t.TempDir()
	writeProgram(t, filepath.Join(wd, "build", "mobilemcp"))
	t.Chdir(wd)
	if code, out, _ := newCLI(t).run("", "config", "--command", "build/mobilemcp", "claude-code"); code != exitOK ||
		out != "claude mcp add phone -- "+filepath.Join(wd, "build/mobilemcp")+" adb stdio\n" {
		t.Errorf("--command build/mobilemcp: exit %d, %q", code, out)
	}
}

// Printing every client, config heads each with where it goes on this
// operating system.
func TestConfigSaysWhereEachFileLives(t *testing.T) {
	for goos, want := range map[string][]string{
		"darwin": {"Claude Code, run:", "Claude Desktop, in ~/Library/Application Support/Claude/claude_desktop_config.json:",
			"Cursor, in ~/.cursor/mcp.json:", "VS Code, in ~/Library/Application Support/Code/User/mcp.json:",
			"Codex, in ~/.codex/config.toml:", "Gemini CLI, in ~/.gemini/settings.json:"},
		"linux": {"Claude Code, run:", "Claude Desktop, which has no build for linux, in claude_desktop_config.json:",
			"Cursor, in ~/.cursor/mcp.json:", "VS Code, in ~/.config/Code/User/mcp.json:",
			"Codex, in ~/.codex/config.toml:", "Gemini CLI, in ~/.gemini/settings.json:"},
		"windows": {"Claude Code, run:", `Claude Desktop, in %APPDATA%\Claude\claude_desktop_config.json:`,
			`Cursor, in %USERPROFILE%\.cursor\mcp.json:`, `VS Code, in %APPDATA%\Code\User\mcp.json:`,
			`Codex, in %USERPROFILE%\.codex\config.toml:`, `Gemini CLI, in %USERPROFILE%\.gemini\settings.json:`},
	} {
		c := newCLI(t)
		c.goos = goos
		code, out, _ := c.run("", "config", "--via", "npx")
		var heads []string
		for _, line := range strings.Split(out, "\n") {
			if strings.HasSuffix(line, ":") && !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "{") {
				heads = append(heads, line)
			}
		}
		if code != exitOK || !slices.Equal(heads, want) {
			t.Errorf("on %s: exit %d\n got %q\nwant %q", goos, code, heads, want)
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
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"config", "windsurf"}, `unknown client "windsurf"`},
		{[]string{"config", "cursor", "vscode"}, `unexpected arguments ["vscode"]`},
		{[]string{"config", "--simulated", "--serial", "x"}, "--serial picks a phone"},
		{[]string{"config", "--command", ""}, `mobilemcp config: --command "" is empty: give the path of mobilemcp, or --via npx|uvx|pipx|go|path`},
		{[]string{"config", "--command", "  "}, `--command "  " is empty`},
		{[]string{"config", "--command"}, "--command needs a value"},
		{[]string{"config", "--name", "my server"}, `mobilemcp config: --name "my server" is not a name every client accepts: use 1 to 64 letters, digits, _ or -`},
		{[]string{"config", "--name", "my.phone"}, `--name "my.phone" is not a name`},
		{[]string{"config", "--name", `a"b`}, `--name "a\"b" is not a name`},
		{[]string{"config", "--name", strings.Repeat("p", 65)}, `--name "` + strings.Repeat("p", 65) + `" is not a name`},
		{[]string{"config", "--via", "brew"}, `--via "brew" is not a runner; use one of npx|uvx|pipx|go|path`},
		{[]string{"config", "--via", "npx", "--command", "/bin/mobilemcp"}, `--command "/bin/mobilemcp" and --via npx both say what to run`},
		{[]string{"config", "--name", ""}, `mobilemcp config: --name "" is not a name every client accepts: use 1 to 64 letters, digits, _ or -`},
		{[]string{"config", "--command", "/nonexistent/mobilemcp"},
			`mobilemcp config: --command "/nonexistent/mobilemcp": no such file; give the path of mobilemcp, or --via npx|uvx|pipx|go|path`},
		{[]string{"config", "--command", "/"}, `mobilemcp config: --command "/": a directory, not a program; give the path of mobilemcp, or --via npx|uvx|pipx|go|path`},
		{[]string{"config", "--command", "no-such-mobilemcp"},
			`mobilemcp config: --command "no-such-mobilemcp": not a file, nor a program on PATH; give the path of mobilemcp, or --via npx|uvx|pipx|go|path`},
	} {
		code, out, errOut := newCLI(t).run("", tt.args...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tt.args, code, out, errOut, tt.want)
		}
	}
	if code, _, _ := newCLI(t).run("", "config", "--name", strings.Repeat("p", 64), "codex"); code != exitOK {
		t.Errorf("a 64-character name: exit %d", code)
	}
	code, out, _ := newCLI(t).run("", "config", "--via", "npx")
	if code != exitOK || !strings.HasPrefix(out, "Claude Code, run:\nclaude mcp add phone -- /bin/sh -c 'cd / && exec npx -y mobilemcp \"$@\"' mobilemcp adb stdio\n\nClaude Desktop, ") {
		t.Errorf("config: exit %d\n%s", code, out)
	}
}

// The npx line runs npx from the root directory, whatever directory the
// client starts it in: npx runs a node_modules/.bin/mobilemcp (or sh, or
// node) of its working directory or any above it ahead of the registry's.
// Here a stand-in npx on PATH reports where it runs and with what; the
// package install checks run the line with the real npx against a
// planted project.
func TestConfigNpxLineLeavesTheProject(t *testing.T) {
	bin := t.TempDir()
	npx := "#!/bin/sh\necho \"npx in $(pwd): $*\"\n"
	if err := os.WriteFile(filepath.Join(bin, "npx"), []byte(npx), 0o755); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(t.TempDir(), "project")
	for _, dir := range []string{project, filepath.Join(project, "sub")} {
		planted := filepath.Join(dir, "node_modules", ".bin")
		if err := os.MkdirAll(planted, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"npx", "mobilemcp", "sh", "node"} {
			if err := os.WriteFile(filepath.Join(planted, name), []byte("#!/bin/sh\necho planted\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "npx"), []byte("#!/bin/sh\necho planted\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	_, out, _ := newCLI(t).run("", "config", "--via", "npx", "--serial", "R58M 1", "claude-desktop")
	_, command := jsonServer(t, "claude-desktop", out)
	for _, dir := range []string{project, filepath.Join(project, "sub")} {
		cmd := exec.Command(command[0], command[1:]...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin"}
		got, err := cmd.CombinedOutput()
		if want := "npx in /: -y mobilemcp adb stdio --serial R58M 1\n"; err != nil || string(got) != want {
			t.Errorf("from %s: %v\n got %q\nwant %q", dir, err, got, want)
		}
	}
}

// writeProgram writes an executable file at path, with its directories,
// and returns path.
func writeProgram(t *testing.T, path string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// pipx run keeps its environments in its own cache (~/.cache/pipx/HASH with
// pipx's defaults on Linux, ~/Library/Caches/pipx on macOS, pipx\pipx\Cache
// on Windows, PIPX_HOME/.cache with PIPX_HOME set), which it deletes after
// 14 days: the client is given 'pipx run mobilemcp'. With pipx's uv
// backend the binary runs from uv's cache, as under uvx; then uvx when it
// is on PATH, else pipx when it is (uv bundled with pipx brings no uvx),
// else the uv that ran it ($UV) as 'uv tool run'.
func TestConfigRecognisesPipxRun(t *testing.T) {
	const pipx = "claude mcp add phone -- pipx run mobilemcp adb stdio\n"
	for _, tt := range []struct {
		exe    string
		onPath map[string]string
		uv     string
		want   string
	}{
		{"/home/me/.cache/pipx/0f1e2d3c4b5a697/bin/mobilemcp", nil, "", pipx},
		{"/home/me/.local/share/pipx/.cache/0f1e2d3c4b5a697/bin/mobilemcp", nil, "", pipx},
		{"/Users/me/Library/Caches/pipx/0f1e2d3c4b5a697/bin/mobilemcp", nil, "", pipx},
		{`C:/Users/me/AppData/Local/pipx/pipx/Cache/0f1e2d3c4b5a697/Scripts/mobilemcp.exe`, nil, "", pipx},
		{"/home/me/.cache/uv/archive-v0/Xy12/bin/mobilemcp", map[string]string{"pipx": "/usr/bin/pipx"}, "/home/me/.local/share/pipx/venvs/pipx/bin/uv", pipx},
		{"/home/me/.cache/uv/archive-v0/Xy12/bin/mobilemcp", map[string]string{"pipx": "/usr/bin/pipx", "uvx": "/usr/bin/uvx"}, "/usr/bin/uv",
			"claude mcp add phone -- uvx mobilemcp adb stdio\n"},
		{"/home/me/.cache/uv/archive-v0/Xy12/bin/mobilemcp", map[string]string{}, "/opt/pipx/venv/bin/uv",
			"claude mcp add phone -- /opt/pipx/venv/bin/uv tool run mobilemcp adb stdio\n"},
	} {
		c := newCLI(t)
		c.exe, c.onPath = tt.exe, tt.onPath
		if tt.onPath == nil {
			c.onPath = map[string]string{}
		}
		c.vars["UV"] = tt.uv
		if code, out, errOut := c.run("", "config", "claude-code"); code != exitOK || out != tt.want {
			t.Errorf("running %s, with %v on PATH and UV=%s: exit %d\n got %q\nwant %q\n%s", tt.exe, tt.onPath, tt.uv, code, out, tt.want, errOut)
		}
	}
}

// After 'npm install -g mobilemcp', the binary that runs is the one of the
// package for this system, inside npm's tree; the mobilemcp the user
// installed, and finds on PATH, is the launcher beside it. The client is
// given that name, as for any mobilemcp on PATH.
func TestConfigRunsTheMobilemcpNpmInstalled(t *testing.T) {
	for _, layout := range []string{"nested", "hoisted"} {
		prefix := t.TempDir()
		modules := filepath.Join(prefix, "lib", "node_modules")
		launcher := writeProgram(t, filepath.Join(modules, "mobilemcp", "bin", "mobilemcp.js"))
		inner := filepath.Join(modules, "mobilemcp", "node_modules", "@mobilemcp", "cli-linux-x64", "bin", "mobilemcp")
		if layout == "hoisted" {
			inner = filepath.Join(modules, "@mobilemcp", "cli-linux-x64", "bin", "mobilemcp")
		}
		writeProgram(t, inner)
		link := filepath.Join(prefix, "bin", "mobilemcp")
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../lib/node_modules/mobilemcp/bin/mobilemcp.js", link); err != nil {
			t.Fatal(err)
		}
		c := newCLI(t)
		c.exe, c.path = inner, link
		if code, out, errOut := c.run("", "config", "claude-code"); code != exitOK || out != "claude mcp add phone -- mobilemcp adb stdio\n" {
			t.Errorf("%s: npm's launcher %s on PATH: exit %d, %q\n%s", layout, launcher, code, out, errOut)
		}
		// Not on PATH: the binary itself, which needs no Node to start.
		c.path = ""
		if code, out, _ := c.run("", "config", "claude-code"); code != exitOK || out != "claude mcp add phone -- "+inner+" adb stdio\n" {
			t.Errorf("%s: no mobilemcp on PATH: exit %d, %q", layout, code, out)
		}
	}
}
