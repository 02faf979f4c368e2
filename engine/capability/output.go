package capability

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// CheckOutput matches the outputs a handler returned with the outputs c
// declares: every declared output exactly once, with its declared type,
// and nothing else. It returns the outputs in declared order, each value
// already encoded as JSON (json.RawMessage), so that every transport
// writes exactly what was checked.
//
// A mismatch is a bug in the handler, not in the request, so it is an
// internal_error whose message names the output: the caller gets a
// well-formed failure instead of a reply that contradicts the descriptor
// it read.
func (c *Capability) CheckOutput(out []Value) ([]Value, *Error) {
	if len(out) == 0 && len(c.Output) == 0 {
		return nil, nil
	}
	checked := make([]Value, len(c.Output))
	filled := make([]bool, len(c.Output))
	for _, v := range out {
		i := c.outputIndex(v.Name)
		if i < 0 {
			return nil, Errorf(CodeInternalError, "%s returned the output %s, which its descriptor does not declare; %s",
				c.ID, text.Quote(v.Name), c.declaredOutputs())
		}
		if filled[i] {
			return nil, Errorf(CodeInternalError, "%s returned the output %q twice", c.ID, v.Name)
		}
		p := &c.Output[i]
		encoded, err := rawjson.AppendValue(nil, v.Value)
		if err != nil {
			return nil, Errorf(CodeInternalError, "%s returned the output %q as a value that cannot be encoded as JSON: %v", c.ID, v.Name, err)
		}
		if got := jsonKind(encoded); got != p.Type && !(p.Type == Number && got == Integer) {
			return nil, Errorf(CodeInternalError, "%s returned the output %q as %s; its descriptor declares %s",
				c.ID, v.Name, rawjson.Describe(encoded), typeNoun(p.Type))
		}
		if problem := p.checkItems(encoded); problem != "" {
			return nil, Errorf(CodeInternalError, "%s returned the output %q with an element its descriptor does not allow: %s", c.ID, v.Name, problem)
		}
		checked[i] = Value{Name: p.Name, Type: p.Type, Value: json.RawMessage(encoded)}
		filled[i] = true
	}
	var missing []string
	for i, ok := range filled {
		if !ok {
			missing = append(missing, fmt.Sprintf("%q (%s)", c.Output[i].Name, c.Output[i].Type))
		}
	}
	if len(missing) > 0 {
		return nil, Errorf(CodeInternalError, "%s returned no %s, which its descriptor declares; a successful call returns every declared output",
			c.ID, strings.Join(missing, ", "))
	}
	return checked, nil
}

func (c *Capability) outputIndex(name string) int {
	for i := range c.Output {
		if c.Output[i].Name == name {
			return i
		}
	}
	return -1
}

func (c *Capability) declaredOutputs() string {
	if len(c.Output) == 0 {
		return "it declares no outputs"
	}
	names := make([]string, len(c.Output))
	for i, p := range c.Output {
		names[i] = p.Name
	}
	return "it declares: " + strings.Join(names, ", ")
}

// jsonKind is the descriptor type of an encoded JSON value: integer for a
// number written without a fraction or exponent, "" for null.
func jsonKind(encoded []byte) Type {
	if len(encoded) == 0 {
		return ""
	}
	switch encoded[0] {
	case '"':
		return String
	case 't', 'f':
		return Boolean
	case '{':
		return Object
	case '[':
		return Array
	case 'n':
		return ""
	}
	if strings.ContainsAny(string(encoded), ".eE") {
		return Number
	}
	return Integer
}

// checkItems says which element of raw, the JSON array of p, is not of p's
// Items type, as "name[i] must be …, got …", or "" when every one is (or
// p has no Items).
func (p *Param) checkItems(raw []byte) string {
	if p.Items == "" {
		return ""
	}
	if !json.Valid(raw) {
		return "" // not an array, which the caller reports
	}
	// Walked rather than unmarshalled: on a call's fresh goroutine,
	// encoding/json's recursion grows the stack, copying it, every time.
	problem := ""
	rawjson.ForEachElement(raw, func(i int, e []byte) {
		if problem == "" && !p.Items.holds(e) {
			problem = fmt.Sprintf("%s[%d] must be %s, got %s", p.Name, i, typeNoun(p.Items), rawjson.Describe(e))
		}
	})
	return problem
}

// holds reports whether the encoded JSON value is of type t. A number is
// an integer when it is a whole one that float64 holds exactly (14.0, not
// 14.5), as integer arguments are; an integer is a number too.
func (t Type) holds(encoded []byte) bool {
	switch kind := jsonKind(encoded); {
	case kind == t, t == Number && kind == Integer:
		return true
	case t == Integer && kind == Number:
		f, err := strconv.ParseFloat(string(encoded), 64)
		return err == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53
	}
	return false
}
