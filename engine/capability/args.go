package capability

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// Args are validated arguments, keyed by parameter name. Values have the Go
// type of their declared parameter type: string, int64, float64, bool,
// map[string]any or []any. Optional arguments the caller left out are absent.
type Args map[string]any

// String returns a string argument, or "" when absent.
func (a Args) String(name string) string {
	s, _ := a[name].(string)
	return s
}

// Int returns an integer argument and whether it was given.
func (a Args) Int(name string) (int64, bool) {
	n, ok := a[name].(int64)
	return n, ok
}

// Bind checks raw arguments against the capability's input parameters and
// converts them to their declared types. It reports every problem it finds
// in one invalid_arguments error, so a caller can fix them all at once.
//
// Arguments from LLMs and from `adb --es` often arrive as strings, so a
// canonical string ("14", "true", "2.5") is accepted for a number or boolean
// parameter. A JSON null counts as absent. An unknown name is rejected with
// the list of known names: a misspelt optional argument must never be
// silently ignored.
func (c *Capability) Bind(raw map[string]json.RawMessage) (Args, error) {
	args, problems := c.bind(raw)
	if len(problems) > 0 {
		return nil, c.invalid(problems)
	}
	return args, nil
}

// invalid is the one invalid_arguments error for problems, named after c.
func (c *Capability) invalid(problems []string) *Error {
	return Errorf(CodeInvalidArguments, "%s: %s", c.ID, strings.Join(problems, "; "))
}

// bind converts raw to c's parameter types and returns what it found wrong,
// each problem in words. args holds every argument that converted, also
// when others did not, so that the capability's own check can still look
// at them (Engine.checkArgs).
func (c *Capability) bind(raw map[string]json.RawMessage) (args Args, problems []string) {
	var unknown []string
	for name := range raw {
		if c.inputParam(name) == nil {
			unknown = append(unknown, name)
		}
	}
	args = make(Args, len(raw))
	for i := range c.Input {
		p := &c.Input[i]
		value, given := raw[p.Name]
		if !given || rawjson.IsAbsent(value) {
			if p.Required {
				problems = append(problems, fmt.Sprintf("%s is required (%s: %s)", p.Name, p.Type, p.Description))
			}
			continue
		}
		v, problem := p.convert(value)
		if problem != "" {
			problems = append(problems, problem)
			continue
		}
		args[p.Name] = v
	}
	if len(unknown) > 0 {
		problems = append(problems, fmt.Sprintf("%s; %s", describeUnknown(unknown), c.knownArgs()))
	}
	return args, problems
}

// requiredGiven reports whether args holds every required parameter of c.
func (c *Capability) requiredGiven(args Args) bool {
	for _, p := range c.Input {
		if _, ok := args[p.Name]; p.Required && !ok {
			return false
		}
	}
	return true
}

// maxListedUnknown caps how many unknown names a message lists, so that a
// request with thousands of junk keys cannot produce a huge reply.
const maxListedUnknown = 5

func describeUnknown(names []string) string {
	// sort.Slice, whose code the engine has already, rather than a
	// slices.Sort of its own for strings: the engine every tool ships is
	// held to its size.
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	listed := names[:min(len(names), maxListedUnknown)]
	quoted := make([]string, len(listed))
	for i, name := range listed {
		quoted[i] = strconv.Quote(text.Excerpt(name))
	}
	text := "unknown argument " + quoted[0]
	if len(names) > 1 {
		text = "unknown arguments " + strings.Join(quoted, ", ")
	}
	if more := len(names) - len(listed); more > 0 {
		text += fmt.Sprintf(" and %d more", more)
	}
	return text
}

func (c *Capability) inputParam(name string) *Param {
	for i := range c.Input {
		if c.Input[i].Name == name {
			return &c.Input[i]
		}
	}
	return nil
}

func (c *Capability) knownArgs() string {
	if len(c.Input) == 0 {
		return c.ID + " takes no arguments"
	}
	names := make([]string, len(c.Input))
	for i, p := range c.Input {
		names[i] = p.Name
	}
	return "known arguments: " + strings.Join(names, ", ")
}

// convert turns one raw JSON value into the parameter's Go type, or returns
// a message naming the parameter, what it expects and what it got.
func (p *Param) convert(raw json.RawMessage) (any, string) {
	wrong := func() (any, string) {
		return nil, fmt.Sprintf("%s must be %s, got %s", p.Name, typeNoun(p.Type), rawjson.Describe(raw))
	}
	if problem := unicodeProblem(raw); problem != "" {
		return nil, p.Name + " " + problem
	}
	str, isString := rawjson.Unquote(raw)
	if !isString && raw[0] == '"' {
		if err := json.Unmarshal(raw, &str); err != nil {
			return wrong()
		}
		isString = true
	}
	// token is the value as str: a string's contents, or the raw JSON.
	token := str
	if !isString {
		token = string(raw)
	}
	switch p.Type {
	case String:
		if !isString {
			return wrong()
		}
		if p.MaxLength > 0 {
			if n := utf8.RuneCountInString(str); n > p.MaxLength {
				return nil, fmt.Sprintf("%s is %d characters long; the limit is %d", p.Name, n, p.MaxLength)
			}
		}
		return str, ""
	case Integer:
		if !isJSONNumber(token) {
			return wrong()
		}
		if n, err := strconv.ParseInt(token, 10, 64); err == nil {
			return n, ""
		}
		// A JSON number such as 14.0 or 1e3 is a whole number too, when it
		// is exact. A string must be written plainly: "14", not "1e1".
		if f, err := strconv.ParseFloat(token, 64); err == nil && !isString && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return int64(f), ""
		}
		return nil, p.notWhole(token, isString)
	case Number:
		if !isJSONNumber(token) {
			return wrong()
		}
		f, err := strconv.ParseFloat(token, 64)
		if err != nil {
			return nil, fmt.Sprintf("%s is out of range: %s", p.Name, text.Excerpt(token))
		}
		return f, ""
	case Boolean:
		switch token {
		case "true":
			return true, ""
		case "false":
			return false, ""
		}
		return wrong()
	case Object, Array:
		body := []byte(strings.TrimSpace(token))
		open := byte('{')
		if p.Type == Array {
			open = '['
		}
		if len(body) == 0 || body[0] != open || !json.Valid(body) {
			return wrong()
		}
		if problem := p.checkItems(body); problem != "" {
			return nil, problem
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			return wrong()
		}
		return v, ""
	}
	return nil, fmt.Sprintf("%s has unsupported type %q", p.Name, p.Type)
}

// notWhole says why token, a JSON number or a string holding one, is not
// an integer argument, in the words people use: it has a fraction, it is
// too large or too small for 64 bits, or, as a string or beyond 2^53,
// it is written with an exponent, which a whole number needs no more of.
func (p *Param) notWhole(token string, isString bool) string {
	f, err := strconv.ParseFloat(token, 64)
	switch {
	case err == nil && f != math.Trunc(f):
		return fmt.Sprintf("%s must be a whole number, got %s", p.Name, text.Excerpt(token))
	case f >= math.MaxInt64:
		return fmt.Sprintf("%s must be a whole number no larger than %d, got %s", p.Name, int64(math.MaxInt64), text.Excerpt(token))
	case f <= math.MinInt64:
		return fmt.Sprintf("%s must be a whole number no smaller than %d, got %s", p.Name, int64(math.MinInt64), text.Excerpt(token))
	case isString:
		return fmt.Sprintf("%s must be a whole number written in digits, such as %.0f, got %q", p.Name, f, text.Excerpt(token))
	}
	return fmt.Sprintf("%s must be a whole number written in digits, such as %.0f, got %s", p.Name, f, text.Excerpt(token))
}

func typeNoun(t Type) string {
	switch t {
	case Integer:
		return "an integer"
	case Object, Array:
		return "an " + string(t)
	}
	return "a " + string(t)
}

// isJSONNumber reports whether s is a number as JSON writes it: no leading
// plus, no hex, no NaN or Inf, no spaces.
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
