package descriptor

import (
	"slices"

	"github.com/beevik/etree"

	"github.com/mobilemcp/mobilemcp/capability"
)

// hint is one boolean behaviour hint, written as an attribute in
// [Namespace]. Its default is MCP's for an absent hint, so a descriptor
// without mobilemcp's attributes means what a tool without annotations
// means to an MCP client: it may be destructive and reach the outside world.
type hint struct {
	key   string
	dflt  bool
	field func(*capability.Annotations) *bool
}

var hints = []hint{
	{"readOnly", false, func(a *capability.Annotations) *bool { return &a.ReadOnly }},
	{"destructive", true, func(a *capability.Annotations) *bool { return &a.Destructive }},
	{"idempotent", false, func(a *capability.Annotations) *bool { return &a.Idempotent }},
	{"openWorld", true, func(a *capability.Annotations) *bool { return &a.OpenWorld }},
}

// titleKey is the extension attribute for the capability's display title.
const titleKey = "title"

// The extension attributes each element may carry: the behaviour hints and
// the deadline on a <capability>, and the value limits on an input <param>.
var (
	capabilityExt = []string{titleKey, "readOnly", "destructive", "idempotent", "openWorld", timeoutKey}
	inputParamExt = []string{maxLengthKey, patternKey}
)

// extHome names the element that extension attribute key belongs on.
func extHome(key string) string {
	if slices.Contains(inputParamExt, key) {
		return "an input <param>"
	}
	return "<capability>"
}

// annotations reads the extension attributes of a <capability>.
func (r *reader) annotations(e node, what subject) capability.Annotations {
	var a capability.Annotations
	for _, h := range hints {
		*h.field(&a) = h.dflt
	}
	for _, at := range e.Attr {
		if at.Space == "" || isXMLReserved(at) || at.NamespaceURI() != Namespace {
			continue
		}
		if at.Key == titleKey {
			a.Title = at.Value
			continue
		}
		for _, h := range hints {
			if at.Key == h.key {
				*h.field(&a) = r.boolean(e, at, h.dflt, what)
			}
		}
	}
	return a
}

// boolean reads boolean attribute a of e, reporting any value but "true"
// and "false", which is all Android's and the spec's readers accept.
func (r *reader) boolean(e node, a etree.Attr, dflt bool, what subject) bool {
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
