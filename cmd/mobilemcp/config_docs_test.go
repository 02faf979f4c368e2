package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestTheDocsShowWhatConfigPrints keeps docs/desktop.md's "Desktop agents: one
// line" true: it comes first, and each code span of a client's row is in
// what 'mobilemcp config CLIENT' prints, for the phone and for the
// simulated phone.
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
	clients := map[string]string{"Claude Code": "claude-code", "Claude Desktop": "claude-desktop", "Cursor": "cursor",
		"VS Code": "vscode", "Codex": "codex", "Gemini CLI": "gemini"}
	span := regexp.MustCompile("`([^`]+)`")
	rows := 0
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, " | ")
		if len(cells) != 4 {
			continue
		}
		client, ok := clients[strings.TrimPrefix(cells[0], "| ")]
		if !ok {
			continue
		}
		rows++
		for i, flags := range [][]string{{client}, {"--simulated", client}} {
			_, printed, _ := newCLI(t).run("", append([]string{"config"}, flags...)...)
			for _, m := range span.FindAllStringSubmatch(cells[2+i], -1) {
				if !strings.Contains(printed, m[1]) {
					t.Errorf("%s: the docs show %q, which 'mobilemcp config %s' does not print:\n%s", client, m[1], strings.Join(flags, " "), printed)
				}
			}
		}
		for _, c := range desktopClients {
			if c.name == client && c.where != "" && !strings.Contains(cells[1], "`"+c.where+"`") {
				t.Errorf("%s: the docs say it goes in %q; config says %s", client, cells[1], c.where)
			}
		}
	}
	if rows != len(clients) {
		t.Errorf("the one-line table has %d client rows; want %d", rows, len(clients))
	}
}
