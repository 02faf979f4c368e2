package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/mcptool"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
)

func TestToolsPrintsTheSeedSchema(t *testing.T) {
	code, out, errOut := newCLI(t).run("", "tools", "../../"+defaultDescriptorPath)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	var list struct {
		Tools []mcptool.Tool `json:"tools"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	// The property names, their order and types, and the required list
	// of the Android SMS MCP server's tools/list transcript.
	var got []string
	for _, tool := range list.Tools {
		line := tool.Name + ":"
		for _, p := range tool.InputSchema.Properties {
			line += " " + p.Name + "=" + p.Schema.Type
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
		t.Errorf("get_sms_subscriptions must list required as [], as the Android SMS MCP server does:\n%s", out)
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

// TestToolsDiffersFromServeAsItsHelpSays takes the tools/list of 'serve'
// apart along the differences toolsHelp lists, and finds what 'tools'
// prints for the checked-in descriptor of the same capabilities.
func TestToolsDiffersFromServeAsItsHelpSays(t *testing.T) {
	c := newCLI(t)
	code, out, errOut := c.run("", "tools", "../../"+defaultDescriptorPath)
	if code != exitOK {
		t.Fatalf("tools: exit %d, %s", code, errOut)
	}
	var printed struct{ Tools []map[string]any }
	if err := json.Unmarshal([]byte(out), &printed); err != nil {
		t.Fatal(err)
	}
	url, _, _, _ := c.startServe("--addr", "127.0.0.1:0")
	status, body, err := testkit.PostMCP(url, "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	var served struct {
		Result struct{ Tools []map[string]any }
	}
	if err != nil || status != http.StatusOK || json.Unmarshal([]byte(body), &served) != nil {
		t.Fatalf("tools/list: HTTP %d %v %s", status, err, body)
	}

	var names []string
	for _, tool := range served.Result.Tools {
		names = append(names, tool["name"].(string))
	}
	if !slices.IsSorted(names) || len(names) != len(printed.Tools) {
		t.Errorf("served tools %q, want the %d printed ones sorted by name", names, len(printed.Tools))
	}
	reg := builtinRegistry()
	for _, want := range printed.Tools {
		name := want["name"].(string)
		i := slices.Index(names, name)
		if i < 0 {
			t.Errorf("%s is not served", name)
			continue
		}
		got := served.Result.Tools[i]
		capab, _ := reg.Lookup(name)
		// Each tool also has an outputSchema: the output params, all required.
		if !reflect.DeepEqual(got["outputSchema"], asJSON(t, mcptool.OutputSchema(capab))) {
			t.Errorf("%s: outputSchema %v", name, got["outputSchema"])
		}
		delete(got, "outputSchema")
		// The annotations repeat the title.
		annotations := got["annotations"].(map[string]any)
		if annotations["title"] != want["title"] {
			t.Errorf("%s: annotations.title %v, want %v", name, annotations["title"], want["title"])
		}
		delete(annotations, "title")
		// An input schema has every maxLength and pattern the Go
		// capability declares, also those its descriptor does not carry.
		props := got["inputSchema"].(map[string]any)["properties"].(map[string]any)
		wantProps := want["inputSchema"].(map[string]any)["properties"].(map[string]any)
		for _, p := range capab.Input {
			prop, printedProp := props[p.Name].(map[string]any), wantProps[p.Name].(map[string]any)
			declared := map[string]any{}
			if p.MaxLength > 0 {
				declared["maxLength"] = float64(p.MaxLength)
			}
			if p.Pattern != "" {
				declared["pattern"] = p.Pattern
			}
			for key, value := range declared {
				if _, inDescriptor := printedProp[key]; !inDescriptor {
					if prop[key] != value {
						t.Errorf("%s: %s has %s %v, want %v", name, p.Name, key, prop[key], value)
					}
					delete(prop, key)
				}
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\nserved  %v\nprinted %v", name, got, want)
		}
	}
}

// asJSON returns v as encoding/json decodes its JSON into an any.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
