// Package capability is the transport-neutral core of mobilemcp: capability
// and parameter types, the registry, the Mobile-MCP request and reply codecs,
// argument validation, and the one call pipeline every transport runs. An
// [Engine] takes a request and gives exactly one reply, failures included:
//
//	reg, err := capability.NewRegistry(capabilities...)
//	// ...
//	engine := capability.NewEngine(reg, capability.Options{Replies: store})
//	reply := engine.Do(ctx, capability.NewCall(requestJSON, caller, policy.Admit))
//	send(reply.SpecJSON())
//
// Every transport (Android Intents, binding, MCP over HTTP and stdio, the
// CLI) is a thin adapter over [Engine.Run] or [Engine.Do], so a request is
// decoded, checked, deduplicated, admitted, run and answered the same way
// wherever it came from. Nothing in this package knows about Android, HTTP,
// XML or SMS.
package capability

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// Type is a parameter type as written in a capability descriptor.
type Type string

// The canonical parameter types of the Mobile-MCP descriptor format.
const (
	String  Type = "string"
	Integer Type = "integer"
	Number  Type = "number"
	Boolean Type = "boolean"
	Object  Type = "object"
	Array   Type = "array"
)

// Types returns the canonical types in the order documentation shows them.
// The slice is a copy: changing it changes nothing else.
func Types() []Type { return slices.Clone(types) }

// types is the canonical types.
var types = []Type{String, Integer, Number, Boolean, Object, Array}

// typeSynonyms maps spellings that real descriptors use to canonical types.
var typeSynonyms = map[string]Type{
	"int":    Integer,
	"long":   Integer,
	"float":  Number,
	"double": Number,
	"bool":   Boolean,
}

// ParseType resolves a descriptor type name. It returns the canonical type,
// whether the name was already canonical (false for a synonym such as "int"),
// and whether the name is known at all.
func ParseType(name string) (t Type, canonical, ok bool) {
	switch t := Type(name); t {
	case String, Integer, Number, Boolean, Object, Array:
		return t, true, true
	}
	if t, ok := typeSynonyms[name]; ok {
		return t, false, true
	}
	return "", false, false
}

// Param describes one input or output parameter of a capability.
type Param struct {
	// Name is the argument's or output's name, as callers write it:
	// "to_phone_number".
	Name string `json:"name"`
	// Type is its canonical type; arguments given as strings ("14",
	// "true") are coerced to it.
	Type Type `json:"type"`
	// Required, for an input, makes the argument mandatory: a call
	// without it is invalid_arguments. Outputs ignore it.
	Required bool `json:"required,omitempty"`
	// Description tells a model what to pass or what it gets back.
	Description string `json:"description"`

	// MaxLength, when positive, caps a string argument at this many Unicode
	// code points (JSON Schema's maxLength). The engine enforces it.
	MaxLength int `json:"max_length,omitempty"`
	// Pattern is a JSON Schema pattern advertised to MCP clients. The engine
	// does not enforce it, because handlers may normalise the value first
	// (a phone number with spaces is accepted, then checked).
	Pattern string `json:"pattern,omitempty"`
	// Items, for an array, is the type of its elements (JSON Schema's
	// items), or "" when they may be anything. The engine enforces it on
	// arguments and outputs alike.
	Items Type `json:"items,omitempty"`
}

// Annotations are MCP-style behaviour hints. They tell assistants, and the
// app's consent logic, what invoking a capability does.
//
// The zero value assumes the worst, as MCP does of a tool that says
// nothing: the capability changes state, may do what cannot be undone, is
// not idempotent and reaches beyond the device. Each hint says less only
// when set: ReadOnly and Idempotent to true, Destructive and OpenWorld to
// false (new(false)), as in
//
//	capability.Annotations{Title: "List notes", ReadOnly: true, Idempotent: true, Destructive: new(false), OpenWorld: new(false)}
type Annotations struct {
	// Title is a short name for people, such as a consent screen's "Send
	// SMS"; "" lets clients show the id.
	Title string `json:"title,omitempty"`
	// ReadOnly: the call changes nothing outside itself. False, the zero
	// value, makes it a capability that changes state (ChangesState).
	ReadOnly bool `json:"read_only"`
	// Destructive: the call may do what the user cannot undo, such as
	// sending a message. Nil means true, MCP's default; IsDestructive
	// reads it.
	Destructive *bool `json:"destructive,omitempty"`
	// Idempotent: repeating the call with the same arguments has no
	// further effect.
	Idempotent bool `json:"idempotent"`
	// OpenWorld: the call reaches beyond the device, such as the mobile
	// network. Nil means true, MCP's default; IsOpenWorld reads it.
	OpenWorld *bool `json:"open_world,omitempty"`
}

// IsDestructive reports whether the capability may do what the user cannot
// undo: a.Destructive, or true when it is nil.
func (a Annotations) IsDestructive() bool { return a.Destructive == nil || *a.Destructive }

// IsOpenWorld reports whether the capability reaches beyond the device:
// a.OpenWorld, or true when it is nil.
func (a Annotations) IsOpenWorld() bool { return a.OpenWorld == nil || *a.OpenWorld }

// ChangesState reports whether running c may change something outside the
// call: every capability that is not declared read-only. This is the one
// rule for what the hints imply, on every transport: such a capability
// needs the calling app's consent, is rate limited, and its replies are
// kept for replay. A capability whose descriptor gives no hints is not
// read-only, so it falls under the rule too.
func (c *Capability) ChangesState() bool { return !c.Annotations.ReadOnly }

// Handler runs a capability with validated arguments. It returns the result,
// or an error; an *Error keeps its code, any other error becomes
// platform_error. The context carries the deadline, the request id and the
// caller.
//
// A handler returns invalid_arguments or permission_denied only before it
// has done anything: the engine relies on that to let a caller correct a
// refused request and retry it under the same request id.
type Handler func(ctx context.Context, args Args) (Result, error)

// Capability is one invocable function of a tool.
type Capability struct {
	// ID names the capability in requests and is its MCP tool name: 1 to
	// 128 of A-Z a-z 0-9 _ - . (ValidID).
	ID string `json:"id"`
	// Description tells a model what the capability does and when to use it.
	Description string `json:"description"`
	// Version is the capability's own version, such as "1.0".
	Version string `json:"version"`
	// Input declares the arguments, in order; a call naming any other is
	// refused with the list of these names.
	Input []Param `json:"input"`
	// Output declares the values a successful result carries, in order.
	Output []Param `json:"output"`
	// Annotations are the behaviour hints; without ReadOnly the capability
	// counts as changing state (ChangesState).
	Annotations Annotations `json:"annotations"`

	// Timeout bounds one invocation. Zero means the engine's default.
	Timeout time.Duration `json:"-"`
	// Validate, when set, checks arguments in ways the parameter list
	// cannot state, such as a phone number's format. The engine runs it
	// right after binding the arguments, before the reply store and
	// admission, so an invalid call is refused the same way on every
	// transport: it never asks for consent and never uses rate budget.
	// It must be quick and pure; it sees only the arguments.
	Validate Validator `json:"-"`
	// Handler runs the capability. Descriptor generation needs none.
	Handler Handler `json:"-"`
}

// Validator checks a capability's bound arguments and returns what is
// wrong with them, or nil. An error that is not an *Error becomes
// invalid_arguments with its text as the message.
type Validator func(args Args) error

// Value is one named output value of a result.
type Value struct {
	// Name is the declared output's name.
	Name string `json:"name"`
	// Type is the declared output's type; the engine fills it in from the
	// declaration, so a handler may leave it "".
	Type Type `json:"type"`
	// Value is the output: a string, number, bool, nil, map, slice, or a
	// json.RawMessage holding JSON already encoded.
	Value any `json:"value"`
}

// Result is what a successful invocation produced.
type Result struct {
	// Message is the human-readable outcome. MCP transports use it as the
	// text content of the tool result.
	Message string
	// Output holds the declared outputs' values; the engine checks them
	// against Capability.Output before they reach the caller.
	Output []Value
}

// SpecVersion is the Mobile-MCP protocol and descriptor version this package speaks.
const SpecVersion = "1.0"

// ValidID reports whether id is usable as a capability id and MCP tool name:
// 1 to 128 of the MCP tool-name alphabet, A-Z a-z 0-9 _ . -, which is the
// regular expression ^[A-Za-z0-9_.-]{1,128}$. Every registered capability
// becomes an MCP tool, so its id must be a valid tool name. It is a loop
// rather than a regexp, which would add a quarter of a megabyte to the
// engine every tool ships; a fuzz test holds the two equal.
func ValidID(id string) bool {
	if len(id) < 1 || len(id) > 128 {
		return false
	}
	for i := range len(id) {
		if c := id[i]; !isAlphanumeric(c) && c != '_' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// isAlphanumeric reports whether c is an ASCII letter or digit.
func isAlphanumeric(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// check reports the first problem with a capability definition. An empty
// description is allowed: lint warns about it (empty-description), and a
// descriptor that only warns still serves.
func (c *Capability) check() error {
	if !ValidID(c.ID) {
		return fmt.Errorf("capability id %q: must be 1-128 characters of A-Z a-z 0-9 _ . -", c.ID)
	}
	if c.Version == "" {
		return fmt.Errorf("capability %s: version is empty", c.ID)
	}
	for _, list := range []struct {
		kind   string
		params []Param
	}{{"input", c.Input}, {"output", c.Output}} {
		seen := make(map[string]bool, len(list.params))
		for _, p := range list.params {
			if p.Name == "" {
				return fmt.Errorf("capability %s: an %s param has no name", c.ID, list.kind)
			}
			if seen[p.Name] {
				return fmt.Errorf("capability %s: %s param %q is declared twice", c.ID, list.kind, p.Name)
			}
			seen[p.Name] = true
			if _, canonical, _ := ParseType(string(p.Type)); !canonical {
				return fmt.Errorf("capability %s: %s param %q has type %q; want one of %v", c.ID, list.kind, p.Name, p.Type, types)
			}
			if p.Items != "" {
				if _, canonical, _ := ParseType(string(p.Items)); !canonical || p.Type != Array {
					return fmt.Errorf("capability %s: %s param %q of type %s has items %q; only an array has items, one of %v", c.ID, list.kind, p.Name, p.Type, p.Items, types)
				}
			}
		}
	}
	return nil
}
