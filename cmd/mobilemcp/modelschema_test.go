package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// The written rules of two model providers' function calling, which a
// desktop agent meets when it hands our tools to its model. A model that
// refuses one tool refuses the whole list. docs/reference/descriptor.md ("Schemas
// that models accept") cites the rules and says where they conflict with
// what MCP or the engine needs.
//
// Gemini: a FunctionDeclaration's name starts with a letter or "_" and
// holds letters, digits, "_", ".", ":" and "-", at most 128; its
// parameters are a Schema, "a select subset of an OpenAPI 3.0 schema
// object", whose fields are geminiKeywords; parameter names start with a
// letter or "_" and hold letters, digits and "_", at most 64. The API
// refuses an ARRAY schema without items ("items: missing field").
//
// OpenAI, function calling in strict mode: a function name holds letters,
// digits, "_" and "-", at most 64; the parameters' root is an object, not
// anyOf; every object sets additionalProperties to false and lists every
// property in required; a schema names one of the supported types (string,
// number, boolean, integer, object, array, enum, anyOf); the keywords are
// those openAIKeywords lists; at most 5 levels of nesting and 5000
// properties.

var (
	geminiName      = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$`)
	geminiParamName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	openAIName      = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)
)

// geminiKeywords are the fields of Gemini's Schema.
var geminiKeywords = []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
	"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example",
	"anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"}

// openAIKeywords are the keywords strict mode takes: the structure, and
// the constraints its guide lists as supported (minLength and maxLength
// are unsupported only for fine-tuned models).
var openAIKeywords = []string{"type", "description", "properties", "required", "additionalProperties", "items",
	"enum", "const", "anyOf", "$ref", "$defs", "pattern", "format", "multipleOf", "maximum", "exclusiveMaximum",
	"minimum", "exclusiveMinimum", "minItems", "maxItems", "minLength", "maxLength"}

// A problem is where a tool breaks a rule: the rule's id, the tool, and
// the place in its input schema ("" for the name).
type problem struct {
	rule, tool, path string
	// detail is the offending keyword, type or name.
	detail string
}

func (p problem) String() string {
	return fmt.Sprintf("%s: %s %s %s", p.rule, p.tool, p.path, p.detail)
}

// modelProblems checks tool, as tools/list gives it, against both
// providers' rules.
func modelProblems(tool map[string]any) []problem {
	name, _ := tool["name"].(string)
	var found []problem
	add := func(rule, path, detail string) { found = append(found, problem{rule, name, path, detail}) }
	if !geminiName.MatchString(name) {
		add("gemini-name", "", name)
	}
	if !openAIName.MatchString(name) {
		add("openai-name", "", name)
	}
	root, _ := tool["inputSchema"].(map[string]any)
	if root["type"] != "object" || root["anyOf"] != nil {
		add("openai-root", "inputSchema", fmt.Sprint(root["type"]))
	}
	props, _ := root["properties"].(map[string]any)
	for param := range props {
		if !geminiParamName.MatchString(param) {
			add("gemini-param-name", "inputSchema.properties", param)
		}
	}
	count := 0
	var walk func(s map[string]any, path string, depth int)
	walk = func(s map[string]any, path string, depth int) {
		for key := range s {
			if !slices.Contains(geminiKeywords, key) {
				add("gemini-keyword", path, key)
			}
			if !slices.Contains(openAIKeywords, key) {
				add("openai-keyword", path, key)
			}
		}
		typ, _ := s["type"].(string)
		if list, ok := s["type"].([]any); ok && len(list) == 2 && list[1] == "null" {
			// OpenAI's strict mode writes an optional property as nullable so;
			// Gemini's Schema takes one type (and nullable: true).
			typ, _ = list[0].(string)
			add("gemini-type", path, "a list of types")
		}
		switch {
		case slices.Contains([]string{"string", "number", "integer", "boolean", "array", "object", "null"}, typ):
		case typ == "" && (s["anyOf"] != nil || s["$ref"] != nil || s["enum"] != nil || s["const"] != nil):
		default:
			add("openai-type", path, fmt.Sprintf("%q", typ))
		}
		if typ == "array" {
			items, ok := s["items"].(map[string]any)
			if !ok {
				add("gemini-array-items", path, "no items")
				return
			}
			walk(items, path+".items", depth)
		}
		if typ != "object" {
			return
		}
		if depth > 5 {
			add("openai-depth", path, fmt.Sprint(depth))
		}
		props, hasProps := s["properties"].(map[string]any)
		if s["additionalProperties"] != false || !hasProps {
			add("openai-closed-object", path, "free-form object")
		}
		required, _ := s["required"].([]any)
		for param, schema := range props {
			count++
			if !slices.Contains(required, any(param)) {
				add("openai-required", path+".properties", param)
			}
			if sub, ok := schema.(map[string]any); ok {
				walk(sub, path+".properties."+param, depth+1)
			}
		}
	}
	walk(root, "inputSchema", 1)
	if count > 5000 {
		add("openai-properties", "inputSchema", fmt.Sprint(count))
	}
	return found
}

// A conflict is a rule our schemas knowingly break, because MCP or the
// engine needs what the rule forbids; docs/reference/descriptor.md says why and what
// an agent does about it. matches tells its problems, against the
// capability the tool was made of.
type conflict struct {
	why     string
	matches func(p problem, c *capability.Capability) bool
}

var conflicts = []conflict{
	{"Gemini's Schema has no additionalProperties; the engine refuses unknown arguments, and OpenAI's strict mode requires additionalProperties false",
		func(p problem, _ *capability.Capability) bool {
			return p.rule == "gemini-keyword" && p.path == "inputSchema" && p.detail == "additionalProperties"
		}},
	{"OpenAI's strict mode wants every property required; an optional argument is left out of required, as MCP and Gemini read it",
		func(p problem, c *capability.Capability) bool {
			i := slices.IndexFunc(c.Input, func(in capability.Param) bool { return in.Name == p.detail })
			return p.rule == "openai-required" && p.path == "inputSchema.properties" && i >= 0 && !c.Input[i].Required
		}},
	{"OpenAI's strict mode wants a type in every schema; an array without mcp:items has items {}, any value",
		func(p problem, _ *capability.Capability) bool {
			return p.rule == "openai-type" && strings.HasSuffix(p.path, ".items") && p.detail == `""`
		}},
	{"OpenAI's strict mode wants every object closed; an object param, or an array of objects, is the app's own JSON",
		func(p problem, _ *capability.Capability) bool {
			return p.rule == "openai-closed-object" && p.path != "inputSchema"
		}},
}

// modelSchemaDescriptors are the descriptors in this repository whose
// tools the test checks: the SMS app's, the notes sample's, the Java
// client's test descriptors and a hand-written one.
func modelSchemaDescriptors(t *testing.T) []string {
	t.Helper()
	clients, err := filepath.Glob("../../" + javaClientGoldens + "/*.xml")
	if err != nil || len(clients) == 0 {
		t.Fatalf("no descriptors in %s: %v", javaClientGoldens, err)
	}
	return append([]string{
		"../../" + defaultDescriptorPath,
		"../../android/notes/res/xml/mcp_capabilities.xml",
		"../../engine/descriptor/xmlfile/testdata/res/xml/mcp_capabilities.xml",
	}, clients...)
}

// listTools returns the tools of tools/list at url.
func listTools(t *testing.T, url string) []map[string]any {
	t.Helper()
	status, body, err := testkit.PostMCP(url, "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	var reply struct {
		Result struct{ Tools []map[string]any }
	}
	if err != nil || status != http.StatusOK || json.Unmarshal([]byte(body), &reply) != nil {
		t.Fatalf("tools/list: HTTP %d %v %s", status, err, body)
	}
	return reply.Result.Tools
}

// TestEveryToolSchemaMeetsTheModelsRules checks every tool that 'mobilemcp
// tools', 'serve' and the gateway (mcpserver.Server.Share) make of the
// descriptors in this repository against Gemini's and OpenAI's written
// rules. It fails on a problem that no documented conflict explains, and on
// a documented conflict that no tool shows any more, so that the docs say
// no more and no less than what is so.
func TestEveryToolSchemaMeetsTheModelsRules(t *testing.T) {
	type made struct {
		source string
		tool   map[string]any
		c      *capability.Capability
	}
	var tools []made
	files := map[string]*descriptor.File{}
	c := newCLI(t)
	for _, path := range modelSchemaDescriptors(t) {
		code, out, errOut := c.run("", "tools", path)
		var list struct{ Tools []map[string]any }
		if code != exitOK || json.Unmarshal([]byte(out), &list) != nil {
			t.Fatalf("tools %s: exit %d, %s", path, code, errOut)
		}
		data, err := xmlfile.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if files[path], err = xmlfile.Parse(data); err != nil {
			t.Fatal(err)
		}
		for i, tool := range list.Tools {
			tools = append(tools, made{"tools " + filepath.Base(filepath.Dir(filepath.Dir(path))), tool, files[path].Capabilities()[i]})
		}
	}

	url, _, _, _ := c.startServe("--addr", "127.0.0.1:0")
	reg := builtinRegistry()
	for _, tool := range listTools(t, url) {
		own, _ := reg.Lookup(tool["name"].(string))
		tools = append(tools, made{"serve", tool, own})
	}

	// The gateway serves the phone's own tools and every other descriptor,
	// one of them under a package name long enough to be shortened.
	srv, err := mcpserver.New(capability.NewEngine(builtinRegistry(), capability.Options{}), mcpserver.Options{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	shared := map[string]*capability.Capability{}
	for i, path := range modelSchemaDescriptors(t)[1:] {
		pkg := fmt.Sprintf("com.example.app%d", i)
		if i == 0 {
			pkg = "com.example." + strings.Repeat("long", 30)
		}
		caps := files[path].Capabilities()
		names, err := srv.Share(mcpserver.SharedApp{Package: pkg, Capabilities: caps, Call: func(context.Context, string, string, []byte) ([]byte, error) { return nil, nil }})
		if err != nil {
			t.Fatal(err)
		}
		for j, name := range names {
			shared[name] = caps[j]
		}
	}
	for _, tool := range listTools(t, mcpwire.URL(serveUntilCleanup(t, srv))) {
		name := tool["name"].(string)
		if c, ok := shared[name]; ok {
			tools = append(tools, made{"gateway", tool, c})
		} else {
			own, _ := reg.Lookup(name)
			tools = append(tools, made{"gateway", tool, own})
		}
	}

	seen := make([]bool, len(conflicts))
	for _, m := range tools {
		for _, p := range modelProblems(m.tool) {
			i := slices.IndexFunc(conflicts, func(c conflict) bool { return c.matches(p, m.c) })
			if i < 0 {
				t.Errorf("%s: %s breaks a rule that no documented conflict explains", m.source, p)
				continue
			}
			seen[i] = true
		}
	}
	for i, c := range conflicts {
		if !seen[i] {
			t.Errorf("no tool shows the documented conflict %q any more; drop it from the test and docs/reference/descriptor.md", c.why)
		}
	}
	// tools: 8 of 5 descriptors; serve: the 2 SMS tools; the gateway: those
	// 2 and the 6 of the 4 other descriptors.
	if len(tools) != 18 {
		t.Errorf("checked %d tools; want the 18 of every source", len(tools))
	}
}

// An array without items, as tools/list had it, breaks Gemini's rule: the
// check can fail.
func TestModelProblemsFindAnArrayWithoutItems(t *testing.T) {
	tool := map[string]any{"name": "tag_photos", "inputSchema": map[string]any{
		"type": "object", "additionalProperties": false, "required": []any{"tags"},
		"properties": map[string]any{"tags": map[string]any{"type": "array", "description": "The tags."}},
	}}
	want := []string{
		"gemini-keyword: tag_photos inputSchema additionalProperties",
		"gemini-array-items: tag_photos inputSchema.properties.tags no items",
	}
	var got []string
	for _, p := range modelProblems(tool) {
		got = append(got, p.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
