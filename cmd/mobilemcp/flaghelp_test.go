package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
)

// helpedCommands is every command line whose --help lists flags: each
// command, and each subcommand of adb.
func helpedCommands(t *testing.T) [][]string {
	var lines [][]string
	for _, c := range commands {
		lines = append(lines, []string{c.name})
	}
	_, adbHelp, _ := newCLI(t).run("", "adb", "--help")
	_, subs, _ := strings.Cut(adbHelp, "Subcommands:\n")
	for _, m := range regexp.MustCompile(`(?m)^  ([a-z]+)\b`).FindAllStringSubmatch(subs, -1) {
		lines = append(lines, []string{"adb", m[1]})
	}
	if len(lines) < len(commands)+6 {
		t.Fatalf("found %d commands in the help, want every command and adb's six subcommands", len(lines))
	}
	return lines
}

// Every flag's help says what it takes: a placeholder that names the
// thing (a file, a port), never Go's type name; a duration and a rate
// with an example of the format.
func TestEveryFlagSaysWhatItTakes(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)(?: (\S+))?\n    \t(.*)$`)
	goTypes := map[string]bool{"string": true, "int": true, "int64": true, "uint": true, "uint64": true, "float": true, "value": true}
	for _, words := range helpedCommands(t) {
		_, help, _ := newCLI(t).run("", append(words, "--help")...)
		for _, m := range flagLine.FindAllStringSubmatch(help, -1) {
			name, placeholder, text := strings.Join(words, " ")+" --"+m[1], m[2], m[3]
			switch {
			case goTypes[placeholder]:
				t.Errorf("%s: the placeholder is Go's type name %q: %s", name, placeholder, text)
			case placeholder != strings.ToLower(placeholder):
				t.Errorf("%s: the placeholder %q is not lower case, as every other flag's", name, placeholder)
			case placeholder == "duration" && !regexp.MustCompile(`such as \d+(ms|s|m|h)\b`).MatchString(text):
				t.Errorf("%s: a duration with no example such as 30s: %s", name, text)
			}
		}
	}
	_, help, _ := newCLI(t).run("", "serve", "--help")
	if !strings.Contains(help, "5/30s") || !strings.Contains(help, "(default 10/min)") {
		t.Errorf("serve --rate-limit does not show a count per period such as 5/30s and its default:\n%s", help)
	}
}

// A bad flag or flag value is a usage error (exit 2) that names the flag
// and the value, and runs nothing: adb is not called.
func TestBadFlagValuesNameTheFlagAndTheValue(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--max-body", "64KB"}, `mobilemcp serve: --max-body "64KB" is not a whole number`},
		{[]string{"serve", "--max-body"}, `mobilemcp serve: --max-body needs a value`},
		{[]string{"serve", "--stdio=maybe"}, `mobilemcp serve: --stdio "maybe" is not true or false`},
		{[]string{"serve", "--stdoi"}, `mobilemcp serve: unknown flag --stdoi; did you mean --stdio?`},
		{[]string{"serve", "--rate-limit", "5/xx"}, `mobilemcp serve: --rate-limit "5/xx": rate "5/xx": the period "xx" is not sec, min, hour, day or a duration such as 30s`},
		{[]string{"serve", "--addr", "nonsense"}, `mobilemcp serve: mcpserver: address "nonsense": address nonsense: missing port in address; use host:port, such as 127.0.0.1:9531`},
		{[]string{"serve", "--addr", "127.0.0.1:99999"}, `mobilemcp serve: mcpserver: address "127.0.0.1:99999": the port 99999 is not 0 to 65535 or a service name; use host:port, such as 127.0.0.1:9531`},
		{[]string{"adb", "stdio", "--poll", "2"}, `mobilemcp adb stdio: --poll "2" is not a duration such as 30s, 2m or 1h`},
		{[]string{"adb", "call", "--timeout", "0", "send_sms"}, `mobilemcp adb call: --timeout must be positive, got 0s`},
		{[]string{"adb", "check", "--timeout", "-1s"}, `mobilemcp adb check: --timeout must be positive, got -1s`},
		{[]string{"adb", "check", "--subscription-id", "first"}, `mobilemcp adb check: --subscription-id "first" is not a whole number`},
		{[]string{"adb", "connect", "--port", "99999999999999999999"}, `mobilemcp adb connect: --port "99999999999999999999" is out of range`},
		{[]string{"adb", "disconnect", "--port", "70000"}, `mobilemcp adb disconnect: --port 70000 is not a TCP port (1 to 65535)`},
	} {
		c := newCLI(t)
		fake := &adbtest.Fake{}
		c.adb = fake
		code, out, errOut := c.run("", tt.args...)
		first, _, _ := strings.Cut(errOut, "\n")
		if code != exitUsage || first != tt.want || out != "" || len(fake.Calls()) != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q, adb runs %q; want exit 2 and %q", tt.args, code, out, errOut, fake.Calls(), tt.want)
		}
	}
}
