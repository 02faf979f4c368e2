package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/descriptor"
)

func TestToolsPrintsTheSeedSchema(t *testing.T) {
	code, out, errOut := newCLI(t).run("", "tools", "../../"+defaultDescriptorPath)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	var list struct {
		Tools []descriptor.Tool `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	// The property names, their order and types, and the required list
	// of seed 000's tools/list.
	var got []string
	for _, tool := range list.Tools {
		line := tool.Name + ":"
		for _, p := range tool.InputSchema.Properties {
			line += " " + p.Name + "=" + string(p.Type)
		}
		got = append(got, fmt.Sprintf("%s required=%q", line, tool.InputSchema.Required))
	}
	want := []string{
		`send_sms: to_phone_number=string sms_text=string subscription_id=integer required=["to_phone_number" "sms_text"]`,
		`get_sms_subscriptions: required=[]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("tools\n got %q\nwant %q", got, want)
	}
	if !strings.Contains(out, `"required": []`) {
		t.Errorf("get_sms_subscriptions must list required as [], as seed 000 does:\n%s", out)
	}
}

func TestToolsRefusesADescriptorWithErrors(t *testing.T) {
	path := writeFile(t, t.TempDir(), "caps.xml", strings.Replace(withSynonym, `required="true"`, `required="yes"`, 1))
	code, out, errOut := newCLI(t).run("", "tools", path)
	wantErr := path + `:3: warning: input param "n" has type "int"; write type="integer", the name every reader knows [type-synonym]` + "\n" +
		path + `:3: error: input param "n" has required="yes"; write required="true" or required="false" [boolean-value]` + "\n" +
		"mobilemcp tools: " + path + " has 1 error; fix the descriptor first\n"
	if code != exitFailure || out != "" || errOut != wantErr {
		t.Errorf("exit %d, stdout %q, stderr\n%s\nwant\n%s", code, out, errOut, wantErr)
	}
}

func TestToolsPrintsWarningsAndGoesOn(t *testing.T) {
	path := writeFile(t, t.TempDir(), "caps.xml", withSynonym)
	code, out, errOut := newCLI(t).run("", "tools", path)
	if code != exitOK || !strings.Contains(errOut, "[type-synonym]") || !strings.Contains(out, `"n": {`+"\n"+`            "type": "integer"`) {
		t.Errorf("exit %d, stderr %q, stdout\n%s", code, errOut, out)
	}
}

// javaClientGoldens holds what the Java client's MCP conversion
// (io.github.mobilemcp.client.Capability.toMcpTool) is tested against in the
// client module's Robolectric tests: NAME.json is this command's output for
// NAME.xml there. appDescriptorGolden is its output for the app's own
// descriptor (defaultDescriptorPath), which the app module's client tests use.
const (
	javaClientGoldens   = "android/client/src/test/resources/descriptors"
	appDescriptorGolden = "android/app/src/test/resources/descriptors/mcp_capabilities.json"
)

// TestToolsIsTheJavaClientsGolden keeps the Java client's goldens equal to
// what this command prints, so that the two conversions cannot drift apart:
// this test fails when the Go side or a descriptor changes, the Java test
// when the Java side does.
func TestToolsIsTheJavaClientsGolden(t *testing.T) {
	sources, err := filepath.Glob("../../" + javaClientGoldens + "/*.xml")
	if err != nil || len(sources) == 0 {
		t.Fatalf("no descriptors in %s: %v", javaClientGoldens, err)
	}
	goldens := map[string]string{"../../" + defaultDescriptorPath: appDescriptorGolden}
	for _, source := range sources {
		goldens[source] = javaClientGoldens + "/" + strings.TrimSuffix(filepath.Base(source), ".xml") + ".json"
	}
	for source, golden := range goldens {
		code, out, _ := newCLI(t).run("", "tools", source)
		if code != exitOK {
			t.Fatalf("tools %s: exit %d", source, code)
		}
		want, err := os.ReadFile("../../" + golden)
		if err != nil {
			t.Fatal(err)
		}
		if string(want) != out {
			t.Errorf("%s is stale; regenerate it with\n  go run ./cmd/mobilemcp tools %s > %s", golden, strings.TrimPrefix(source, "../../"), golden)
		}
	}
}
