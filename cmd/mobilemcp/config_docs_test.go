package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// TestTheDocsShowWhatConfigPrints keeps docs/desktop.md's "Desktop agents: one
// line" true: it comes first; each code span of a client's row is in what
// 'mobilemcp config --via npx CLIENT' prints, for the phone and for the
// simulated phone; and the table of files names, for macOS, Linux and
// Windows, the file config names on each.
func TestTheDocsShowWhatConfigPrints(t *testing.T) {
	data, err := os.ReadFile("../../docs/desktop.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	if first := regexp.MustCompile(`(?m)^## .*`).FindString(doc); first != "## Desktop agents: one line" {
		t.Errorf("docs/desktop.md starts with %q, not the desktop agents' one line", first)
	}
	section := regexp.MustCompile("(?s)## Desktop agents: one line\n(.*?)\n## ").FindStringSubmatch(doc)[1]
	clients := map[string]desktopClient{}
	for _, c := range desktopClients {
		clients[c.title] = c
	}
	span := regexp.MustCompile("`([^`]+)`")
	lines, files := 0, 0
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |"), " | ")
		c, ok := clients[cells[0]]
		switch {
		case !ok:
			continue
		case len(cells) == 3: // client | the phone | the simulated phone
			lines++
			for i, flags := range [][]string{{c.name}, {"--simulated", c.name}} {
				args := append([]string{"config", "--via", "npx"}, flags...)
				_, printed, _ := newCLI(t).run("", args...)
				for _, m := range span.FindAllStringSubmatch(cells[1+i], -1) {
					if !strings.Contains(printed, m[1]) {
						t.Errorf("%s: the docs show %q, which 'mobilemcp %s' does not print:\n%s", c.title, m[1], strings.Join(args, " "), printed)
					}
				}
			}
		case len(cells) == 4: // client | macOS | Linux | Windows
			files++
			for i, goos := range []string{"darwin", "linux", "windows"} {
				want := "`" + c.where[goos] + "`"
				if c.where[goos] == "" {
					want = "(no Linux build)"
				}
				if cells[1+i] != want {
					t.Errorf("%s on %s: the docs say %s; config says %s", c.title, goos, cells[1+i], want)
				}
			}
		}
	}
	if lines != len(desktopClients) {
		t.Errorf("the one-line table has %d client rows; want %d", lines, len(desktopClients))
	}
	if files != len(desktopClients)-1 { // Claude Code has a command, not a file
		t.Errorf("the table of files has %d client rows; want %d", files, len(desktopClients)-1)
	}
}

// TestTheREADMEsAgentLineRecordsWhereItSays keeps the README's first lines
// true: the line it gives a desktop agent is what 'config --via npx'
// prints, and a server started that way (serve --stdio, no --data-dir, an
// agent's environment) records its sends in the outbox of the directory
// the README names.
func TestTheREADMEsAgentLineRecordsWhereItSays(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	start := strings.Index(readme, "## Start here")
	if start < 0 {
		t.Fatal("README.md has no Start here")
	}
	first := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(readme[start:])
	if first == nil || !strings.HasPrefix(first[1], "npx -y mobilemcp config --via npx ") {
		t.Fatalf("README.md's Start here does not lead with 'npx -y mobilemcp config --via npx':\n%v", first)
	}
	const line = `claude mcp add sms -- /bin/sh -c 'cd / && exec npx -y mobilemcp "$@"' mobilemcp serve --stdio`
	_, printed, _ := newCLI(t).run("", "config", "--via", "npx", "--simulated", "claude-code")
	if !strings.Contains(first[1], line) || printed != line+"\n" {
		t.Errorf("README.md gives the agent %q; config --via npx --simulated claude-code prints %q", line, printed)
	}
	if !strings.Contains(readme, "records each\nsend in the outbox of the default data directory, `~/.local/share/mobilemcp`") {
		t.Error("README.md no longer says where the agent's simulated phone records its sends")
	}

	c := newCLI(t)
	home := c.vars["HOME"]
	delete(c.vars, "MOBILEMCP_DATA_DIR") // an agent's environment sets neither
	stdin := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"agent","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}` + "\n"
	code, _, errOut := c.run(stdin, "serve", "--stdio")
	outbox := filepath.Join(home, ".local", "share", "mobilemcp", simphone.OutboxFile)
	records, err := simphone.ReadOutbox(outbox)
	if code != exitOK || err != nil || len(records) != 1 || !strings.Contains(errOut, "simulated sends go to "+outbox) {
		t.Errorf("serve --stdio with HOME=%s: exit %d, %d records in %s (%v)\n%s", home, code, len(records), outbox, err, errOut)
	}
}
