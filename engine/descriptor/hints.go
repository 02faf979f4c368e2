package descriptor

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// hint is one boolean behaviour hint, written as an attribute in
// [Namespace]. Its default, what the zero capability.Annotations says, is
// MCP's for an absent hint, so a descriptor without mobilemcp's attributes
// means what a tool without annotations means to an MCP client: it changes
// state, may be destructive and may reach the outside world.
type hint struct {
	key string
	get func(capability.Annotations) bool
	set func(*capability.Annotations, bool)
}

var hints = []hint{
	{readOnlyKey, func(a capability.Annotations) bool { return a.ReadOnly }, func(a *capability.Annotations, v bool) { a.ReadOnly = v }},
	{"destructive", capability.Annotations.IsDestructive, func(a *capability.Annotations, v bool) { a.Destructive = &v }},
	{"idempotent", func(a capability.Annotations) bool { return a.Idempotent }, func(a *capability.Annotations, v bool) { a.Idempotent = v }},
	{"openWorld", capability.Annotations.IsOpenWorld, func(a *capability.Annotations, v bool) { a.OpenWorld = &v }},
}

// titleKey is the extension attribute for the capability's display title.
const titleKey = "title"

// The extension attributes each element may carry: the behaviour hints and
// the deadline on a <capability>, the value limits on an input <param>,
// and the element type on any array <param>.
var (
	capabilityExt = []string{titleKey, readOnlyKey, "destructive", "idempotent", "openWorld", timeoutKey}
	inputParamExt = []string{maxLengthKey, patternKey}
	paramExt      = []string{itemsKey}
)

// extHome names the element that extension attribute key belongs on.
func extHome(key string) string {
	switch {
	case slices.Contains(inputParamExt, key):
		return "an input <param>"
	case slices.Contains(paramExt, key):
		return "an array <param>"
	}
	return "<capability>"
}

// annotations reads the extension attributes of a <capability>.
func (r *reader) annotations(e *Element, what subject) capability.Annotations {
	// Every hint is stated: the file's word, or the default, so that a
	// reader of Spec need not know that a nil hint means true.
	var a capability.Annotations
	for _, h := range hints {
		h.set(&a, h.get(capability.Annotations{}))
	}
	for _, at := range e.Attrs {
		if at.Prefix == "" || at.reserved() || at.Space != Namespace {
			continue
		}
		if at.Name == titleKey {
			a.Title = at.Value
			continue
		}
		for _, h := range hints {
			if at.Name == h.key {
				h.set(&a, r.boolean(e, at, h.get(capability.Annotations{}), what))
			}
		}
	}
	return a
}

// boolean reads boolean attribute a of e, reporting any value but "true"
// and "false", which is all Android's and the spec's readers accept.
func (r *reader) boolean(e *Element, a Attr, dflt bool, what subject) bool {
	switch a.Value {
	case "true":
		return true
	case "false":
		return false
	}
	key := a.FullKey()
	r.atAttr(ruleBooleanValue, e, key, `%s has %s=%q; write %s="true" or %s="false"`, what, key, a.Value, key, key)
	return dflt
}

// readOnlyKey is the hint that decides who may call a capability.
const readOnlyKey = "readOnly"

// checkReadOnly warns about a capability without mcp:readOnly and says
// what follows: it is taken to change state, like every MCP tool without
// the hint, so each caller needs the user's consent and a binding, which
// an agent that only sends Intents (as the spec authors' prototype does)
// never has. It gives the attribute to add, and the namespace declaration
// when the file has none.
func (r *reader) checkReadOnly(e *Element, what subject) {
	if _, ok := extAttr(e, readOnlyKey); ok {
		return
	}
	declared := namespacePrefix([]*Element{r.root, e}, Namespace)
	prefix := cmp.Or(declared, "mcp")
	declare := ""
	if declared == "" {
		declare = fmt.Sprintf(" (and xmlns:mcp=%q on the root)", Namespace)
	}
	r.at(ruleMissingReadOnly, e, `%s has no %s:readOnly, so it is taken to change state: callers need the user's consent and a binding, and Intent-only agents such as the Mobile-MCP spec authors' prototype are refused; if it only reads, add %s:readOnly="true"%s, else %s:readOnly="false"`,
		what, prefix, prefix, declare, prefix)
}
