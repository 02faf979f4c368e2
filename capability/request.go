package capability

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// Shape is the layout a request arrived in. The reply uses the same one.
type Shape int

const (
	// ShapeSpec is the Mobile-MCP specification's layout:
	// {"mobile-mcp-request":{"version":"1.0","request":{"id":..,"capability":{..}}}}.
	// The inner {"version","request"} object on its own is accepted too.
	ShapeSpec Shape = iota
	// ShapePrototype is the spec authors' prototype layout: a bare
	// {"id":..,"capability":{"id":..,"input":..}}. Its reply is flat.
	ShapePrototype
)

func (s Shape) String() string {
	if s == ShapePrototype {
		return "prototype"
	}
	return "spec"
}

// MaxIDLength caps request ids, which are echoed in every reply.
const MaxIDLength = 256

// Request is a decoded Mobile-MCP request. Args holds the raw JSON of each
// argument; the capability's parameter list gives them types.
type Request struct {
	ID           string
	CapabilityID string
	Args         map[string]json.RawMessage
	Shape        Shape
}

// The wire layouts. One json.Unmarshal pass fills whichever layout arrived.
// Scalars stay raw so the decoder can say exactly which field had the wrong
// type and still echo the id when a later field is broken.
type (
	wireTop struct {
		Envelope *wireEnvelope `json:"mobile-mcp-request"`
		// The spec body without its envelope.
		Version json.RawMessage `json:"version"`
		Request *wireBody       `json:"request"`
		// The prototype's bare body.
		ID         json.RawMessage `json:"id"`
		Capability *wireCapability `json:"capability"`
	}
	wireEnvelope struct {
		Version json.RawMessage `json:"version"`
		Request *wireBody       `json:"request"`
	}
	wireBody struct {
		ID         json.RawMessage `json:"id"`
		Capability *wireCapability `json:"capability"`
	}
	wireCapability struct {
		ID    json.RawMessage `json:"id"`
		Args  json.RawMessage `json:"args"`
		Input json.RawMessage `json:"input"`
	}
	wireInputParam struct {
		Name  json.RawMessage `json:"name"`
		Type  json.RawMessage `json:"type"`
		Value json.RawMessage `json:"value"`
	}
)

// DecodeRequest parses a request in any accepted shape. On failure it still
// returns what it could recover (shape, id, capability id) so the reply can
// echo them, together with an *Error saying what was wrong.
func DecodeRequest(data []byte) (Request, *Error) {
	var req Request
	if !utf8.Valid(data) {
		return req, Errorf(CodeInvalidRequest, "request is not valid UTF-8")
	}
	var top wireTop
	// A type error deep inside still leaves the rest decoded, so it is
	// reported only after the id has been recovered.
	typeErr := json.Unmarshal(data, &top)
	if typeErr != nil {
		var typ *json.UnmarshalTypeError
		if !errors.As(typeErr, &typ) || typ.Field == "" {
			return req, jsonError("request", typeErr)
		}
	}

	var body *wireBody
	var prefix string // the path of the request body, for messages
	var version json.RawMessage
	unwrapped := top.Version != nil || top.Request != nil
	prototype := top.ID != nil || top.Capability != nil
	switch {
	case top.Envelope != nil && (unwrapped || prototype), unwrapped && prototype:
		return req, Errorf(CodeInvalidRequest, "request mixes layouts: send either {\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{...}}} or the prototype's {\"id\":...,\"capability\":{...}}, not both")
	case top.Envelope != nil:
		prefix, version, body = "mobile-mcp-request.request.", top.Envelope.Version, top.Envelope.Request
	case unwrapped:
		prefix, version, body = "request.", top.Version, top.Request
	case prototype:
		req.Shape, body = ShapePrototype, &wireBody{ID: top.ID, Capability: top.Capability}
	case typeErr != nil:
		return req, jsonError("request", typeErr)
	default:
		return req, Errorf(CodeInvalidRequest, "not a Mobile-MCP request: expected {\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{\"id\":...,\"capability\":{...}}}}")
	}
	if body == nil {
		if typeErr != nil {
			return req, jsonError("request", typeErr)
		}
		return req, Errorf(CodeInvalidRequest, "%s is missing", strings.TrimSuffix(prefix, "."))
	}

	// The id comes first so that every later failure can echo it.
	id, err := decodeString(body.ID, prefix+"id")
	if err != nil {
		return req, err
	}
	if len(id) > MaxIDLength {
		return req, Errorf(CodeInvalidRequest, "%sid is %d bytes long; the limit is %d", prefix, len(id), MaxIDLength)
	}
	req.ID = id
	if typeErr != nil {
		return req, jsonError("request", typeErr)
	}

	if req.Shape == ShapeSpec {
		v, err := decodeString(version, prefixParent(prefix)+"version")
		if err != nil {
			return req, err
		}
		if v != SpecVersion {
			return req, Errorf(CodeUnsupportedVersion, "version %q is not supported; send \"%s\"", v, SpecVersion)
		}
	}

	cap := body.Capability
	if cap == nil {
		return req, Errorf(CodeInvalidRequest, "%scapability is missing", prefix)
	}
	if req.CapabilityID, err = decodeString(cap.ID, prefix+"capability.id"); err != nil {
		return req, err
	}
	req.Args, err = decodeArgs(*cap, prefix+"capability")
	return req, err
}

// prefixParent strips the last path element: "a.request." becomes "a.".
func prefixParent(prefix string) string {
	trimmed := strings.TrimSuffix(prefix, ".")
	if i := strings.LastIndexByte(trimmed, '.'); i >= 0 {
		return trimmed[:i+1]
	}
	return ""
}

// decodeArgs reads arguments from "args" (the spec's example) or "input" (the
// spec's prose and the prototype). Either may be an object, a JSON string
// holding an object, or (for input) a list of {name, type, value}.
func decodeArgs(c wireCapability, capPath string) (map[string]json.RawMessage, *Error) {
	raw, field := c.Args, "args"
	switch {
	case isAbsent(c.Args) && isAbsent(c.Input):
		return nil, nil
	case !isAbsent(c.Args) && !isAbsent(c.Input):
		return nil, Errorf(CodeInvalidRequest, "%s has both args and input; send the arguments in one of them", capPath)
	case isAbsent(c.Args):
		raw, field = c.Input, "input"
	}
	path := capPath + "." + field
	if raw[0] == '"' {
		// The prototype sends the arguments as a JSON string.
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return nil, jsonError(path, err)
		}
		raw = bytes.TrimSpace([]byte(text))
		if len(raw) == 0 {
			return nil, nil
		}
		if !json.Valid(raw) {
			return nil, Errorf(CodeInvalidRequest, "%s is a string but not valid JSON; send an object such as {\"name\":\"value\"}", path)
		}
	}
	switch raw[0] {
	case '{':
		var args map[string]json.RawMessage
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, jsonError(path, err)
		}
		return args, nil
	case '[':
		return decodeInputList(raw, path)
	}
	return nil, Errorf(CodeInvalidRequest, "%s must be an object of arguments, got %s", path, describeJSON(raw))
}

// decodeInputList reads the spec prose's [{"name":..,"type":..,"value":..}].
// The type given by the caller is informational: the descriptor's type wins.
func decodeInputList(raw json.RawMessage, path string) (map[string]json.RawMessage, *Error) {
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, jsonError(path, err)
	}
	args := make(map[string]json.RawMessage, len(list))
	for i, item := range list {
		itemPath := fmt.Sprintf("%s[%d]", path, i)
		var p wireInputParam
		if err := decodeObject(item, itemPath, &p); err != nil {
			return nil, err
		}
		name, err := decodeString(p.Name, itemPath+".name")
		if err != nil {
			return nil, err
		}
		if !isAbsent(p.Type) && p.Type[0] != '"' {
			return nil, Errorf(CodeInvalidRequest, "%s.type must be a string, got %s", itemPath, describeJSON(p.Type))
		}
		if _, dup := args[name]; dup {
			return nil, Errorf(CodeInvalidRequest, "%s: argument %q is given twice", path, name)
		}
		if p.Value == nil {
			return nil, Errorf(CodeInvalidRequest, "%s.value is missing for argument %q", itemPath, name)
		}
		args[name] = p.Value
	}
	return args, nil
}

// decodeObject unmarshals a required JSON object field.
func decodeObject(raw json.RawMessage, path string, into any) *Error {
	if isAbsent(raw) {
		return Errorf(CodeInvalidRequest, "%s is missing", path)
	}
	if raw[0] != '{' {
		return Errorf(CodeInvalidRequest, "%s must be an object, got %s", path, describeJSON(raw))
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return jsonError(path, err)
	}
	return nil
}

// decodeString reads a required, non-empty JSON string field.
func decodeString(raw json.RawMessage, path string) (string, *Error) {
	if isAbsent(raw) {
		return "", Errorf(CodeInvalidRequest, "%s is missing", path)
	}
	if raw[0] != '"' {
		return "", Errorf(CodeInvalidRequest, "%s must be a string, got %s", path, describeJSON(raw))
	}
	s, ok := unquote(raw)
	if !ok {
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", jsonError(path, err)
		}
	}
	if s == "" {
		return "", Errorf(CodeInvalidRequest, "%s is empty", path)
	}
	return s, nil
}

// unquote is the fast path for JSON strings without escapes.
func unquote(raw json.RawMessage) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	inner := raw[1 : len(raw)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		return "", false
	}
	return string(inner), true
}

// isAbsent reports a missing field or an explicit null.
func isAbsent(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// jsonError turns an encoding/json error into an invalid_request message
// that names the place in the request.
func jsonError(path string, err error) *Error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return Errorf(CodeInvalidRequest, "%s is not valid JSON: %v (at byte %d)", path, syntax, syntax.Offset)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return Errorf(CodeInvalidRequest, "%s must be a JSON %s, got %s", path, jsonKind(typ.Type), typ.Value)
		}
		field := typ.Field
		if path != "request" {
			field = path + "." + field
		}
		return Errorf(CodeInvalidRequest, "%s must be %s, got %s", field, article(jsonKind(typ.Type)), typ.Value)
	}
	return Errorf(CodeInvalidRequest, "%s: %v", path, err)
}

// jsonKind names the JSON kind a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	}
	return "number"
}

func article(kind string) string {
	if kind == "object" || kind == "array" {
		return "an " + kind
	}
	return "a " + kind
}

// describeJSON names the kind of a JSON value, with a short excerpt of it.
func describeJSON(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	kind := "number"
	switch raw[0] {
	case '"':
		kind = "string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		kind = "boolean"
	case 'n':
		return "null"
	}
	return kind + " " + excerpt(string(raw))
}

// excerpt shortens a value for an error message.
func excerpt(s string) string {
	const limit = 40
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	runes := []rune(s)
	return string(runes[:limit]) + "…"
}

// EncodeRequest writes r in the specification's layout. It is what agents
// send; the CLI and tests use it to build requests.
func EncodeRequest(r Request) ([]byte, error) {
	type capabilityJSON struct {
		ID   string                     `json:"id"`
		Args map[string]json.RawMessage `json:"args"`
	}
	type requestJSON struct {
		ID         string         `json:"id"`
		Capability capabilityJSON `json:"capability"`
	}
	var env struct {
		Envelope struct {
			Version string      `json:"version"`
			Request requestJSON `json:"request"`
		} `json:"mobile-mcp-request"`
	}
	env.Envelope.Version = SpecVersion
	env.Envelope.Request = requestJSON{ID: r.ID, Capability: capabilityJSON{ID: r.CapabilityID, Args: r.Args}}
	if env.Envelope.Request.Capability.Args == nil {
		env.Envelope.Request.Capability.Args = map[string]json.RawMessage{}
	}
	return json.Marshal(&env)
}
