package capability

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/internal/text"
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

// Request is a decoded Mobile-MCP request.
type Request struct {
	// ID is the caller's request id, echoed in the reply. A capability
	// that changes state is run once per caller and id: a repeat within
	// the reply store's window gets the stored reply. "" means none; such
	// a request is never deduplicated.
	ID string
	// CapabilityID names the capability to run, as the registry knows it.
	CapabilityID string
	// Args holds each argument's raw JSON, by name. The capability's
	// parameter list gives them types: the engine checks the names and
	// coerces the values when it binds them.
	Args map[string]json.RawMessage
	// Shape is the layout the request came in; the reply uses the same.
	Shape Shape
}

// members reads the JSON object raw, handing each member to put, which
// keeps it and reports whether the object named it before. It returns the
// first name given twice, if any, and whether raw is an object at all.
// Every object of a request is read through it: encoding/json would
// silently keep the last of two values, and two different phone numbers in
// one request must not be resolved silently.
func members(raw []byte, put func(key, value []byte) (repeated bool)) (dup string, isObject bool) {
	isObject = rawjson.ForEachMember(raw, func(key, value []byte) {
		if put(key, value) && dup == "" {
			dup = string(key)
		}
	})
	return dup, isObject
}

// fields are the members of a request's envelope object that the decoder
// reads, by name; an absent member is nil.
type fields struct {
	names  []string
	values [5][]byte
}

// get returns the member name, or nil when the object does not have it.
func (f *fields) get(name string) []byte {
	for i, n := range f.names {
		if n == name {
			return f.values[i]
		}
	}
	return nil
}

// The members each object of a request is read for (objectFields): in
// variables, so that a request's decoding does not allocate each list.
var (
	topMembers        = []string{"mobile-mcp-request", "version", "request", "id", "capability"}
	envelopeMembers   = []string{"version", "request"}
	bodyMembers       = []string{"id", "capability"}
	capabilityMembers = []string{"id", "args", "input"}
	inputItemMembers  = []string{"name", "type", "value"}
)

// objectFields reads the named members (at most five) of the object raw.
// Other members are ignored, for forward compatibility. A non-object and a
// repeated member are errors. path names raw in messages.
func objectFields(raw []byte, path string, names []string) (fields, *Error) {
	out := fields{names: names}
	invalid := false
	dup, isObject := members(raw, func(key, value []byte) bool {
		for i, name := range names {
			if string(key) == name {
				repeated := out.values[i] != nil
				out.values[i] = value
				return repeated
			}
		}
		// A member that is read is checked where it is read; one that is
		// ignored must still be text. (A repeat of one is harmless.)
		invalid = invalid || !(utf8.Valid(key) && utf8.Valid(value))
		return false
	})
	switch {
	case !isObject:
		return out, Errorf(CodeInvalidRequest, "%s must be an object, got %s", path, rawjson.Describe(raw))
	case dup != "":
		return out, Errorf(CodeInvalidRequest, "%s has %q twice; send it once", path, dup)
	case invalid:
		return out, Errorf(CodeInvalidRequest, "%s has a member that is not valid UTF-8", path)
	}
	return out, nil
}

// DecodeRequest parses a request in any accepted shape. On failure it still
// returns what it could recover (shape, id, capability id) so the reply can
// echo them, together with an *Error saying what was wrong.
func DecodeRequest(data []byte) (Request, error) {
	req, err := decodeRequest(data)
	return req, orNil(err)
}

func decodeRequest(data []byte) (Request, *Error) {
	var req Request
	// Invalid UTF-8 is refused where it is found, so that an argument
	// holding it is invalid_arguments naming the argument.
	if !json.Valid(data) {
		var v any
		return req, jsonError("request", json.Unmarshal(data, &v))
	}
	top, err := objectFields(data, "request", topMembers)
	if err != nil {
		return req, err
	}
	envelope, version, request, id, capability := top.get("mobile-mcp-request"), top.get("version"), top.get("request"), top.get("id"), top.get("capability")

	var body []byte
	// The paths of the request body and of its capability, for messages:
	// constants per layout, so that a request's decoding builds no string.
	var prefix, capabilityPath string
	unwrapped := version != nil || request != nil
	prototype := id != nil || capability != nil
	switch {
	case envelope != nil && (unwrapped || prototype), unwrapped && prototype:
		return req, Errorf(CodeInvalidRequest, "request mixes layouts: send either {\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{...}}} or the prototype's {\"id\":...,\"capability\":{...}}, not both")
	case envelope != nil && !rawjson.IsAbsent(envelope):
		inner, err := objectFields(envelope, "mobile-mcp-request", envelopeMembers)
		if err != nil {
			return req, err
		}
		prefix, capabilityPath = "mobile-mcp-request.request.", "mobile-mcp-request.request.capability"
		version, body = inner.get("version"), inner.get("request")
	case unwrapped:
		prefix, capabilityPath, body = "request.", "request.capability", request
	case prototype:
		req.Shape = ShapePrototype
		capabilityPath = "capability"
	default:
		return req, Errorf(CodeInvalidRequest, "not a Mobile-MCP request: expected {\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{\"id\":...,\"capability\":{...}}}}")
	}
	if req.Shape == ShapeSpec {
		bodyPath := strings.TrimSuffix(prefix, ".")
		if rawjson.IsAbsent(body) {
			return req, Errorf(CodeInvalidRequest, "%s is missing", bodyPath)
		}
		inner, err := objectFields(body, bodyPath, bodyMembers)
		if err != nil {
			return req, err
		}
		id, capability = inner.get("id"), inner.get("capability")
	}

	// The id comes first so that every later failure can echo it.
	if req.ID, err = decodeString(id, prefix, "id"); err != nil {
		return req, err
	}
	if len(req.ID) > MaxIDLength {
		err := Errorf(CodeInvalidRequest, "%sid is %d bytes long; the limit is %d", prefix, len(req.ID), MaxIDLength)
		req.ID = "" // too long to echo
		return req, err
	}

	if req.Shape == ShapeSpec {
		v, err := decodeString(version, prefixParent(prefix), "version")
		if err != nil {
			return req, err
		}
		if v != SpecVersion {
			return req, Errorf(CodeUnsupportedVersion, "version %q is not supported; send \"%s\"", text.Excerpt(v), SpecVersion)
		}
	}

	if rawjson.IsAbsent(capability) {
		return req, Errorf(CodeInvalidRequest, "%scapability is missing", prefix)
	}
	c, err := objectFields(capability, capabilityPath, capabilityMembers)
	if err != nil {
		return req, err
	}
	if req.CapabilityID, err = decodeString(c.get("id"), prefix, "capability.id"); err != nil {
		return req, err
	}
	req.Args, err = decodeArgs(c.get("args"), c.get("input"), capabilityPath)
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
func decodeArgs(args, input []byte, capPath string) (map[string]json.RawMessage, *Error) {
	raw, field := args, ".args"
	switch {
	case rawjson.IsAbsent(args) && rawjson.IsAbsent(input):
		return nil, nil
	case !rawjson.IsAbsent(args) && !rawjson.IsAbsent(input):
		return nil, Errorf(CodeInvalidRequest, "%s has both args and input; send the arguments in one of them", capPath)
	case rawjson.IsAbsent(args):
		raw, field = input, ".input"
	}
	return decodeArgValue(raw, func() string { return capPath + field })
}

// decodeRawArgs reads arguments that arrive outside a Mobile-MCP request
// (NewToolCall), such as the arguments of an MCP tools/call. It accepts
// what the request decoder accepts: an object, a JSON string holding one,
// or a list of {name, type, value}; absent or null means no arguments.
// Like the request decoder, and unlike encoding/json, it rejects a name
// given twice, so that {"subscription_id":14,"subscription_id":17} cannot
// silently pick one SIM.
func decodeRawArgs(raw json.RawMessage) (map[string]json.RawMessage, *Error) {
	raw = bytes.TrimSpace(raw)
	if rawjson.IsAbsent(raw) || string(raw) == "{}" { // the usual call of a tool without arguments
		return nil, nil
	}
	if !json.Valid(raw) {
		return nil, Errorf(CodeInvalidRequest, "arguments are not valid JSON")
	}
	return decodeArgValue(raw, func() string { return "arguments" })
}

// decodeArgValue decodes present, valid arguments; path names them in
// messages and is built only when one is needed.
func decodeArgValue(raw []byte, path func() string) (map[string]json.RawMessage, *Error) {
	if raw[0] == '"' {
		// The prototype sends the arguments as a JSON string. Its text
		// must be valid before it is decoded, or decoding would hide what
		// was wrong as U+FFFD in some argument.
		if problem := unicodeProblem(raw); problem != "" {
			return nil, Errorf(CodeInvalidArguments, "%s is a string of arguments that %s", path(), problem)
		}
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return nil, jsonError(path(), err)
		}
		raw = bytes.TrimSpace([]byte(text))
		if len(raw) == 0 {
			return nil, nil
		}
		if !json.Valid(raw) {
			return nil, Errorf(CodeInvalidRequest, "%s is a string but not valid JSON; send an object such as {\"name\":\"value\"}", path())
		}
	}
	switch raw[0] {
	case '{':
		args := make(map[string]json.RawMessage, 4)
		text := true
		dup, _ := members(raw, func(key, value []byte) bool {
			text = text && utf8.Valid(key)
			_, seen := args[string(key)]
			args[string(key)] = value
			return seen
		})
		switch {
		case dup != "":
			return nil, argumentTwice(path(), dup)
		case !text:
			return nil, Errorf(CodeInvalidArguments, "%s: an argument name is not valid UTF-8; names are text, such as \"sms_text\"", path())
		}
		return args, nil
	case '[':
		return decodeInputList(raw, path())
	}
	return nil, Errorf(CodeInvalidRequest, "%s must be an object of arguments, got %s", path(), rawjson.Describe(raw))
}

// decodeInputList reads the spec prose's [{"name":..,"type":..,"value":..}].
// The type given by the caller is informational: the descriptor's type wins.
func decodeInputList(raw []byte, path string) (map[string]json.RawMessage, *Error) {
	args := make(map[string]json.RawMessage, 4)
	var problem *Error
	rawjson.ForEachElement(raw, func(i int, item []byte) {
		if problem != nil {
			return
		}
		itemPath := fmt.Sprintf("%s[%d]", path, i)
		p, err := objectFields(item, itemPath, inputItemMembers)
		if err != nil {
			problem = err
			return
		}
		name, err := decodeString(p.get("name"), itemPath, ".name")
		typ, value := p.get("type"), p.get("value")
		switch {
		case err != nil:
			problem = err
		case !rawjson.IsAbsent(typ) && typ[0] != '"':
			problem = Errorf(CodeInvalidRequest, "%s.type must be a string, got %s", itemPath, rawjson.Describe(typ))
		case args[name] != nil:
			problem = argumentTwice(path, name)
		case value == nil:
			problem = Errorf(CodeInvalidRequest, "%s.value is missing for argument %q", itemPath, text.Excerpt(name))
		default:
			args[name] = value
		}
	})
	return args, problem
}

// argumentTwice is the refusal of arguments that name one twice, whichever
// layout they came in.
func argumentTwice(path, name string) *Error {
	return Errorf(CodeInvalidRequest, "%s: argument %q is given twice", path, text.Excerpt(name))
}

// decodeString reads the required, non-empty JSON string field prefix+name.
// The path is joined only for an error message, off the hot path.
func decodeString(raw []byte, prefix, name string) (string, *Error) {
	if !rawjson.IsAbsent(raw) && raw[0] == '"' {
		if s, ok := rawjson.Unquote(raw); ok && s != "" && utf8.ValidString(s) {
			return s, nil
		}
	}
	return decodeStringSlow(raw, prefix+name)
}

func decodeStringSlow(raw []byte, path string) (string, *Error) {
	if rawjson.IsAbsent(raw) {
		return "", Errorf(CodeInvalidRequest, "%s is missing", path)
	}
	if raw[0] != '"' {
		return "", Errorf(CodeInvalidRequest, "%s must be a string, got %s", path, rawjson.Describe(raw))
	}
	if problem := unicodeProblem(raw); problem != "" {
		return "", Errorf(CodeInvalidRequest, "%s %s", path, problem)
	}
	s, ok := rawjson.Unquote(raw)
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

// jsonError turns an encoding/json error into an invalid_request message
// that names the place in the request.
func jsonError(path string, err error) *Error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return Errorf(CodeInvalidRequest, "%s is not valid JSON: %v (at byte %d)", path, syntax, syntax.Offset)
	}
	return Errorf(CodeInvalidRequest, "%s: %v", path, err)
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
