package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsRunOnlyCommandsThatExist reads every tracked Markdown page and
// checks each command it shows, in a code block or a code span: a
// 'mobilemcp COMMAND [SUBCOMMAND] ... --flag' names a command, subcommand
// and flags that the command's own --help lists; a 'make TARGET' names a
// target of the Makefile; a scripts/X or ci/X names a file that exists. So
// a renamed flag, target or script fails here, not in a reader's terminal.
func TestDocsRunOnlyCommandsThatExist(t *testing.T) {
	files, err := exec.Command("git", "-C", "../..", "ls-files", "*.md").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z][a-z0-9-]*):`).FindAllStringSubmatch(string(makefile), -1) {
		targets[m[1]] = true
	}
	h := &helpCache{t: t, texts: map[string]helpText{}}
	checked := 0
	for _, page := range strings.Fields(string(files)) {
		if strings.Contains(page, "node_modules/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join("../..", page))
		if err != nil {
			continue // listed but not in the work tree
		}
		for _, line := range commandLines(string(data)) {
			for _, problem := range checkCommand(line, h, targets) {
				t.Errorf("%s: %q: %s", page, line, problem)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("checked %d command lines; the pages show far more, so the patterns no longer find them", checked)
	}
}

// commandLines returns the lines of a page that may run a command: every
// line of a sh, bash or shell block, the "$ " lines of a console block,
// the lines of a text or bare block that start with "$ " or "mobilemcp ",
// and every code span. A line ending in a backslash continues on the next.
func commandLines(page string) []string {
	var lines []string
	fence := regexp.MustCompile("(?s)```([a-z]*)\n(.*?)```")
	for _, m := range fence.FindAllStringSubmatch(page, -1) {
		lang, body := m[1], strings.ReplaceAll(m[2], "\\\n", " ")
		for _, line := range strings.Split(body, "\n") {
			line = strings.TrimSpace(line)
			switch lang {
			case "sh", "bash", "shell":
				lines = append(lines, strings.TrimPrefix(line, "$ "))
			case "console", "text", "":
				if rest, ok := strings.CutPrefix(line, "$ "); ok {
					lines = append(lines, rest)
				} else if lang != "console" && strings.HasPrefix(line, "mobilemcp ") {
					lines = append(lines, line)
				}
			}
		}
	}
	outside := fence.ReplaceAllString(page, "")
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(outside, -1) {
		lines = append(lines, m[1])
	}
	return lines
}

var (
	// A mobilemcp run: the installed command, build/mobilemcp, or go run.
	mobilemcpRun = regexp.MustCompile(`(?:^|[\s;&|(])(?:go run \./cmd/mobilemcp|[\w./-]*/mobilemcp|mobilemcp)\s+(.*)`)
	makeRun      = regexp.MustCompile(`(?:^|[\s;&|(])make\s+([a-z][a-z0-9-]*)`)
	scriptPath   = regexp.MustCompile(`(?:^|[\s;&|("])((?:scripts|ci)/[\w.-]+\.sh)\b`)
	commandWord  = regexp.MustCompile(`^[a-z][a-z-]*$`)
	flagWord     = regexp.MustCompile(`^\[?--?([a-z][a-z0-9-]*)`)
)

// checkCommand returns what is wrong with the commands of one line.
func checkCommand(line string, h *helpCache, targets map[string]bool) []string {
	var problems []string
	// A comment, and what another command does after a pipe or a
	// redirection, are not this command's.
	line, _, _ = strings.Cut(line, " #")
	if m := mobilemcpRun.FindStringSubmatch(line); m != nil {
		args := strings.Fields(regexp.MustCompile(`\s(\||&&|;|>|2>)\s.*`).ReplaceAllString(" "+m[1], ""))
		if len(args) > 0 && commandWord.MatchString(args[0]) {
			problems = append(problems, h.check(args)...)
		}
	}
	for _, m := range makeRun.FindAllStringSubmatch(line, -1) {
		if !targets[m[1]] {
			problems = append(problems, "the Makefile has no target "+m[1])
		}
	}
	for _, m := range scriptPath.FindAllStringSubmatch(line, -1) {
		if _, err := os.Stat(filepath.Join("../..", m[1])); err != nil {
			problems = append(problems, m[1]+" does not exist")
		}
	}
	return problems
}

type helpText struct {
	code int
	text string
}

// helpCache runs 'mobilemcp ... --help' once per command.
type helpCache struct {
	t     *testing.T
	texts map[string]helpText
}

func (h *helpCache) help(words ...string) helpText {
	key := strings.Join(words, " ")
	if got, ok := h.texts[key]; ok {
		return got
	}
	code, out, errOut := newCLI(h.t).run("", append(words, "--help")...)
	h.texts[key] = helpText{code, out + errOut}
	return h.texts[key]
}

// check checks a mobilemcp command line's command, subcommand and flags
// against the help they print.
func (h *helpCache) check(args []string) []string {
	if args[0] == "help" {
		return nil
	}
	words := args[:1]
	top := h.help(words...)
	if top.code != exitOK {
		return []string{"mobilemcp has no command " + args[0]}
	}
	rest := args[1:]
	if strings.Contains(top.text, "\nSubcommands:") && len(rest) > 0 && commandWord.MatchString(rest[0]) {
		words = args[:2]
		rest = args[2:]
		if sub := h.help(words...); sub.code != exitOK {
			return []string{"mobilemcp " + args[0] + " has no subcommand " + args[1]}
		}
	}
	text := h.help(words...).text
	var problems []string
	for _, a := range rest {
		m := flagWord.FindStringSubmatch(a)
		if m == nil || m[1] == "help" || m[1] == "h" {
			continue
		}
		if !regexp.MustCompile(`(?m)^\s+--?` + regexp.QuoteMeta(m[1]) + `(\s|$)`).MatchString(text) {
			problems = append(problems, "mobilemcp "+strings.Join(words, " ")+" has no flag --"+m[1])
		}
	}
	return problems
}
