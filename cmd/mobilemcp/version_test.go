package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	c := newCLI(t)
	// A test binary, like go run's, records no version and no commit; the
	// release build sets both (the release gate runs one).
	want := "mobilemcp devel (build unknown: go run and go build -buildvcs=false record no commit; " +
		"go build in a git checkout records it, and a release names its version too)\n"
	if code, out, errOut := c.run("", "version"); code != exitOK || out != want {
		t.Errorf("exit %d, stderr %q\n got %q\nwant %q", code, errOut, out, want)
	}
	for _, tt := range []struct{ version, id, want string }{
		{"1.2.0", "0123abc", "mobilemcp 1.2.0 (build 0123abc)"},
		{"devel", "0123abc-dirty", "mobilemcp devel (build 0123abc-dirty)"},
		{"1.2.0", "unknown", "mobilemcp 1.2.0 (build unknown: go install of a module version records the version, v1.2.0, and no commit)"},
	} {
		if got := versionLine(tt.version, tt.id); got != tt.want {
			t.Errorf("version %s, build %s:\n got %q\nwant %q", tt.version, tt.id, got, tt.want)
		}
	}
	if code, _, errOut := c.run("", "version", "extra"); code != exitUsage || errOut == "" {
		t.Errorf("an argument: exit %d, stderr %q; want a usage error", code, errOut)
	}
}

// The version a desktop agent shows for the server (serverInfo) is the one
// 'mobilemcp version' prints, so that a user can tell which build answers.
func TestServerInfoNamesTheVersionThatVersionPrints(t *testing.T) {
	c := newCLI(t)
	_, printed, _ := c.run("", "version")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"
	code, out, errOut := c.run(initialize, "serve", "--stdio")
	var reply struct {
		Result struct {
			ServerInfo struct{ Name, Version string } `json:"serverInfo"`
		} `json:"result"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &reply) != nil {
		t.Fatalf("serve --stdio: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	info := reply.Result.ServerInfo
	if want := "mobilemcp " + info.Version + " (build "; info.Name != "mobilemcp" || !strings.HasPrefix(printed, want) {
		t.Errorf("serverInfo %+v; mobilemcp version printed %q", info, printed)
	}
}
