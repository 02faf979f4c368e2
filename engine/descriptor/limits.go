package descriptor

import (
	"errors"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// The extension attributes that carry what the engine enforces beyond the
// spec's format, so that a descriptor read back loses nothing a Go
// capability declares.
const (
	// timeoutKey on a <capability> is its deadline, such as "60s".
	timeoutKey = "timeout"
	// maxLengthKey on a string input <param> caps its length in characters.
	maxLengthKey = "maxLength"
	// patternKey on a string input <param> is a JSON Schema pattern for
	// MCP clients. The engine does not enforce it (capability.Param).
	patternKey = "pattern"
	// itemsKey on an array <param>, input or output, is the type of its
	// elements, such as "string": JSON Schema's items, which models'
	// function calling needs on every array.
	itemsKey = "items"
)

// MaxTimeout is the longest mcp:timeout a capability may declare. An agent
// waits for the reply all that time, and Android may stop a service that
// runs much longer.
const MaxTimeout = 10 * time.Minute

// extAttr returns e's extension attribute key, in [Namespace].
func extAttr(e *Element, key string) (Attr, bool) {
	for _, a := range e.Attrs {
		if a.Name == key && a.Prefix != "" && !a.reserved() && a.Space == Namespace {
			return a, true
		}
	}
	return Attr{}, false
}

// timeout reads a capability's mcp:timeout: zero when absent or unusable.
func (r *reader) timeout(e *Element, what subject) time.Duration {
	a, ok := extAttr(e, timeoutKey)
	if !ok {
		return 0
	}
	d, err := time.ParseDuration(a.Value)
	if err != nil || d <= 0 || d > MaxTimeout {
		r.atAttr(ruleExtensionValue, e, a.FullKey(), `%s has %s=%q; write a duration from 1ms to 10m, such as %s="60s" or %s="500ms"`,
			what, a.FullKey(), a.Value, a.FullKey(), a.FullKey())
		return 0
	}
	return d
}

// paramLimits reads an input param's mcp:maxLength and mcp:pattern into p.
// Both apply to strings only.
func (r *reader) paramLimits(e *Element, p *Param, what subject) {
	for _, key := range inputParamExt {
		a, ok := r.typedExt(e, key, p, capability.String, what)
		if !ok {
			continue
		}
		switch key {
		case maxLengthKey:
			n, err := strconv.Atoi(a.Value)
			if err != nil || n <= 0 {
				r.atAttr(ruleExtensionValue, e, a.FullKey(), `%s has %s=%q; write a whole number of characters above 0, such as %s="160"`, what, a.FullKey(), a.Value, a.FullKey())
				continue
			}
			p.MaxLength = n
		case patternKey:
			// The pattern reaches the model whole, in the tool's input
			// schema, where hidden text would be read and not seen.
			if at := text.IndexUnseen(a.Value); at >= 0 {
				c, _ := utf8.DecodeRuneInString(a.Value[at:])
				r.atAttr(ruleExtensionValue, e, a.FullKey(), "%s has %s=%q, which has a character that is not shown (%U); a pattern reaches the model as it is, so write it in characters the user sees", what, a.FullKey(), a.Value, c)
				continue
			}
			if err := r.checkPattern(a.Value); err != nil {
				r.atAttr(ruleExtensionValue, e, a.FullKey(), "%s has %s=%q, which is not a regular expression: %v", what, a.FullKey(), a.Value, err)
				continue
			}
			p.Pattern = a.Value
		}
	}
}

// checkPattern reports why pattern is not a regular expression, or nil;
// an empty one never is. Without ReadOptions.Pattern it only refuses an
// empty one.
func (r *reader) checkPattern(pattern string) error {
	if pattern == "" {
		return errors.New("it is empty")
	}
	if r.pattern == nil {
		return nil
	}
	if err, seen := r.patterns[pattern]; seen {
		return err
	}
	err := r.pattern(pattern)
	if r.patterns == nil {
		r.patterns = map[string]error{}
	}
	r.patterns[pattern] = err
	return err
}

// formatDuration writes d as mcp:timeout does: "60s" rather than "1m0s".
func formatDuration(d time.Duration) string {
	switch {
	case d%time.Second != 0:
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	default:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
}

// items reads an array param's mcp:items into p: one of the descriptor
// types, canonical, since models read it as a JSON Schema type.
func (r *reader) items(e *Element, p *Param, what subject) {
	a, ok := r.typedExt(e, itemsKey, p, capability.Array, what)
	if !ok {
		return
	}
	t, canonical, known := capability.ParseType(a.Value)
	switch {
	case !known:
		r.atAttr(ruleExtensionValue, e, a.FullKey(), "%s has %s=%q, which is not a descriptor type; %s", what, a.FullKey(), a.Value,
			didYouMean(a.Value, typeNames, "write one of "+typeList+`, such as `+a.FullKey()+`="string"`))
	case !canonical:
		r.atAttr(ruleExtensionValue, e, a.FullKey(), `%s has %s=%q; write %s=%q, the name JSON Schema knows`, what, a.FullKey(), a.Value, a.FullKey(), t)
	default:
		p.Items = t
	}
}

// typedExt returns e's extension attribute key, which applies to params of
// type t only, when e has it and p is of that type; it reports one on a
// param of another type.
func (r *reader) typedExt(e *Element, key string, p *Param, t capability.Type, what subject) (Attr, bool) {
	a, ok := extAttr(e, key)
	if ok && p.Type != t {
		r.atAttr(ruleExtensionValue, e, a.FullKey(), "%s has %s, which applies to %s params only, and its type is %q; remove it", what, a.FullKey(), t, p.Type)
		return a, false
	}
	return a, ok
}
