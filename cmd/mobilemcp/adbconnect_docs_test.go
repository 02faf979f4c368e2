package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestTheDocsShowWhatADBConnectPrints keeps docs/desktop.md's "Use your
// phone's tools from a desktop agent" true: its three commands are the
// ones this command and its help name, and the configurations it shows are
// the ones it prints.
func TestTheDocsShowWhatADBConnectPrints(t *testing.T) {
	data, err := os.ReadFile("../../docs/desktop.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	section := regexp.MustCompile("(?s)## Use your phone's tools from a desktop agent\n(.*?)\n## ").FindStringSubmatch(doc)
	if section == nil {
		t.Fatal(`docs/desktop.md has no section "Use your phone's tools from a desktop agent"`)
	}
	setup := regexp.MustCompile("(?s)```sh\n(.*?)```").FindStringSubmatch(section[1])
	if setup == nil {
		t.Fatal("the section shows no setup commands")
	}
	var commands []string
	for _, line := range strings.Split(strings.TrimSpace(setup[1]), "\n") {
		commands = append(commands, strings.TrimSpace(strings.SplitN(line, "#", 2)[0]))
	}
	want := []string{"go install github.com/mobilemcp/mobilemcp/cmd/mobilemcp@latest", "read -rs " + tokenEnv + " && export " + tokenEnv, "mobilemcp adb connect"}
	if strings.Join(commands, "|") != strings.Join(want, "|") {
		t.Errorf("the setup is %q; want %q", commands, want)
	}
	if !strings.Contains(adbConnectHelp, want[1]) {
		t.Errorf("adb connect's help does not name %q", want[1])
	}
	configs := clientConfigs("http://127.0.0.1:9531/mcp")
	printed := regexp.MustCompile("(?s)```text\n(.*?)```").FindStringSubmatch(section[1])
	if printed == nil || !strings.HasSuffix(printed[1], configs) {
		t.Errorf("the section does not end its printed output with the configurations adb connect prints:\n%s", configs)
	}
}
