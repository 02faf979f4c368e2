package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	c := newCLI(t)
	// A test binary records no version and no commit; the release build
	// sets both (ci/pipeline_test.sh runs one).
	if code, out, errOut := c.run("", "version"); code != exitOK || out != "mobilemcp devel (build unknown)\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
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
