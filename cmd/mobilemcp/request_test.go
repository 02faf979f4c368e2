package main

import (
	"os"
	"path/filepath"
	"testing"
)

// handWritten is a descriptor as a tool developer writes it by hand, after
// the Mobile-MCP spec §1.2 alone: no mcp: attributes, a synonym type.
const handWritten = `<?xml version="1.0" encoding="utf-8"?>
<mobile-mcp-capabilities version="1.0">
  <capability id="create_note" description="Creates a note." version="1.0">
    <input>
      <param name="title" type="string" required="true" description="The title."/>
      <param name="pinned" type="bool" required="false" description="Keep it on top."/>
    </input>
    <output>
      <param name="id" type="int" description="The new note's id."/>
    </output>
  </capability>
</mobile-mcp-capabilities>
`

func TestRequestChecksArgumentsAgainstADescriptor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp_capabilities.xml")
	if err := os.WriteFile(path, []byte(handWritten), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		out  string // compact, with the id replaced by UUID
	}{
		{"valid, with a canonical string for the boolean", []string{"create_note", "title=Milk", "pinned=true"}, exitOK,
			`{"mobile-mcp-request":{"version":"1.0","request":{"id":"UUID","capability":{"id":"create_note","args":{"pinned":"true","title":"Milk"}}}}}`},
		{"a wrong type", []string{"create_note", "title:=5"}, exitFailure,
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"UUID","capability":{"id":"create_note"},"status":"failure","message":"create_note: title must be a string, got number 5","error_code":"invalid_arguments"}}}`},
		{"an unknown argument", []string{"create_note", "title=Milk", "color=red"}, exitFailure,
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"UUID","capability":{"id":"create_note"},"status":"failure","message":"create_note: unknown argument \"color\"; known arguments: title, pinned","error_code":"invalid_arguments"}}}`},
		{"an unknown capability", []string{"delete_note", "id=3"}, exitFailure,
			`{"mobile-mcp-response":{"version":"1.0","response":{"id":"UUID","capability":{"id":"delete_note"},"status":"failure","message":"no capability \"delete_note\"; this tool offers: create_note","error_code":"unknown_capability"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := newCLI(t).run("", append([]string{"request", "--descriptor", path}, tt.args...)...)
			got := uuidPattern.ReplaceAllString(compact(t, out), `"id":"UUID"`)
			if code != tt.code || got != tt.out {
				t.Errorf("exit %d (stderr %q)\n got %s\nwant %s", code, errOut, got, tt.out)
			}
			// The missing hint and the synonyms are warnings: printed, and
			// no obstacle.
			if want := path + ":3: warning: capability \"create_note\" has no mcp:readOnly, so it is taken to change state: callers need the user's consent and a binding, and Intent-only agents such as the Mobile-MCP spec authors' prototype are refused; if it only reads, add mcp:readOnly=\"true\" (and xmlns:mcp=\"https://mobilemcp.github.io/ns\" on the root), else mcp:readOnly=\"false\" [missing-read-only]\n" +
				path + ":6: warning: input param \"pinned\" has type \"bool\"; write type=\"boolean\", the name every reader knows [type-synonym]\n" +
				path + ":9: warning: output param \"id\" has type \"int\"; write type=\"integer\", the name every reader knows [type-synonym]\n"; errOut != want {
				t.Errorf("stderr\n got %q\nwant %q", errOut, want)
			}
		})
	}
}

func TestRequestChecksTheBuiltInCapabilitiesByDefault(t *testing.T) {
	code, out, _ := newCLI(t).run("", "request", "--compact", "send_sms", "to_phone_number=+33785880347", "sms_txt=hi")
	want := `{"mobile-mcp-response":{"version":"1.0","response":{"id":"UUID","capability":{"id":"send_sms"},"status":"failure","message":"send_sms: sms_text is required (string: The text of the sms messages to be sent. The maximum length is 160 characters); unknown argument \"sms_txt\"; known arguments: to_phone_number, sms_text, subscription_id","error_code":"invalid_arguments"}}}` + "\n"
	if got := uuidPattern.ReplaceAllString(out, `"id":"UUID"`); code != exitFailure || got != want {
		t.Errorf("exit %d\n got %s\nwant %s", code, got, want)
	}
	code, out, _ = newCLI(t).run("", "request", "--compact", "fly")
	want = `{"mobile-mcp-response":{"version":"1.0","response":{"id":"UUID","capability":{"id":"fly"},"status":"failure","message":"no capability \"fly\"; this tool offers: send_sms, get_sms_subscriptions","error_code":"unknown_capability"}}}` + "\n"
	if got := uuidPattern.ReplaceAllString(out, `"id":"UUID"`); code != exitFailure || got != want {
		t.Errorf("unknown capability: exit %d\n got %s\nwant %s", code, got, want)
	}
}

func TestRequestWithABrokenDescriptor(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.xml")
	os.WriteFile(broken, []byte(`<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0"><capability id="c" version="1" mcp:readOnly="true"/></mobile-mcp-capabilities>`), 0o644)
	code, out, errOut := newCLI(t).run("", "request", "--descriptor", broken, "c")
	want := broken + `:1: error: capability "c" has no description attribute; add description="…" in plain words; the model reads it to choose and call capabilities [missing-attribute]` + "\n" +
		"mobilemcp request: " + broken + " has 1 error; fix the descriptor first\n"
	if code != exitFailure || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q\n got %q\nwant %q", code, out, errOut, want)
	}
	code, _, errOut = newCLI(t).run("", "request", "--descriptor", filepath.Join(dir, "none.xml"), "c")
	if code != exitUsage || errOut != "mobilemcp request: --descriptor "+filepath.Join(dir, "none.xml")+" does not exist\nRun 'mobilemcp request --help' for usage.\n" {
		t.Errorf("a missing descriptor: exit %d, %q", code, errOut)
	}
}
