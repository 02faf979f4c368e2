package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The directories of the function declarations that the Java client's
// catalog (ToolCatalog) exports for each provider: goldens that the
// client's tests (the array descriptor) and the app's Kotlin assistant
// test (the SMS app and the notes sample) keep equal to what it exports.
var modelExportDirs = []string{
	"../../android/client/src/test/resources/models",
	"../../android/app/src/test/resources/models",
}

// exportRules are the rules of modelProblems that apply to each export, by
// the end of its file name; exports break none, so no conflict is allowed.
var exportRules = map[string]func(rule string) bool{
	"openai-strict.json": func(rule string) bool { return strings.HasPrefix(rule, "openai-") },
	"openai.json": func(rule string) bool {
		return rule == "openai-name" || rule == "openai-root" || rule == "gemini-array-items"
	},
	"anthropic.json": func(rule string) bool {
		return rule == "openai-name" || rule == "openai-root" || rule == "gemini-array-items"
	},
	"gemini.json": func(rule string) bool { return strings.HasPrefix(rule, "gemini-") },
}

// exportedTools reads an export as the tools modelProblems checks: a name
// and the parameters' schema under inputSchema.
func exportedTools(t *testing.T, path, kind string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var list []map[string]any
	if err := json.Unmarshal(data, &list); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var tools []map[string]any
	for _, item := range list {
		var name, schema any
		switch kind {
		case "openai-strict.json", "openai.json":
			f, _ := item["function"].(map[string]any)
			if item["type"] != "function" || f["strict"] != (kind == "openai-strict.json") {
				t.Errorf("%s: %v is not a function of the mode the file names", path, item)
			}
			name, schema = f["name"], f["parameters"]
		case "anthropic.json":
			name, schema = item["name"], item["input_schema"]
		case "gemini.json":
			name, schema = item["name"], item["parameters"]
			if schema == nil {
				// A function without parameters has none, as Gemini wants.
				schema = map[string]any{"type": "object", "properties": map[string]any{}}
			} else if props, _ := schema.(map[string]any)["properties"].(map[string]any); len(props) == 0 {
				t.Errorf("%s: %v: Gemini refuses an OBJECT without properties", path, name)
			}
		}
		tools = append(tools, map[string]any{"name": name, "inputSchema": schema})
	}
	return tools
}

// TestTheClientsModelExportsMeetEachProvidersRules checks every function
// the client's catalog exports against the written rules of the provider
// it is for (modelProblems): OpenAI's strict mode, OpenAI's and Anthropic's
// names, Gemini's Schema.
func TestTheClientsModelExportsMeetEachProvidersRules(t *testing.T) {
	files := 0
	for _, dir := range modelExportDirs {
		paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			kind := ""
			for end := range exportRules {
				if (strings.HasSuffix(path, "-"+end) || filepath.Base(path) == end) && len(end) > len(kind) {
					kind = end
				}
			}
			if kind == "" {
				t.Errorf("%s: no provider's rules for it", path)
				continue
			}
			files++
			for _, tool := range exportedTools(t, path, kind) {
				for _, p := range modelProblems(tool) {
					if exportRules[kind](p.rule) {
						t.Errorf("%s: %s", filepath.Base(path), p)
					}
				}
			}
		}
	}
	if files != 8 {
		t.Errorf("checked %d exports; want the 4 providers' of each of the 2 directories", files)
	}
}

// A Gemini declaration with additionalProperties and a list of types, and
// an OpenAI strict function with an optional property, break the rules:
// the check can fail.
func TestModelExportRulesCanFail(t *testing.T) {
	schema := map[string]any{"type": "object", "additionalProperties": false, "required": []any{},
		"properties": map[string]any{"n": map[string]any{"type": []any{"integer", "null"}}}}
	var got []string
	for _, p := range modelProblems(map[string]any{"name": "count", "inputSchema": schema}) {
		if exportRules["gemini.json"](p.rule) || exportRules["openai-strict.json"](p.rule) {
			got = append(got, p.String())
		}
	}
	want := "gemini-keyword: count inputSchema additionalProperties\n" +
		"openai-required: count inputSchema.properties n\n" +
		"gemini-type: count inputSchema.properties.n a list of types"
	if strings.Join(got, "\n") != want {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}
