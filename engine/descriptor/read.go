package descriptor

import (
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/beevik/etree"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// reader walks a loaded document and reports what is wrong with it. Parse
// and Lint share it, so what Lint says about a file is exactly what Parse
// made of it; Parse drops the findings.
type reader struct {
	t        *tree
	findings []Finding
	// patterns caches what compiling each mcp:pattern gave: a descriptor
	// repeats its patterns (one per phone number param, say), and
	// compiling is the costliest step of a lint.
	patterns map[string]error
	// linked are the findings of the descriptor a manifest points at,
	// which carry that file's name.
	linked []Finding
}

// open loads data as XML, or returns the fatal finding that says why it
// cannot be: it is not XML at all, or it is malformed.
func open(data []byte) (*reader, *Finding) {
	text := bytes.TrimLeft(bytes.TrimPrefix(data, []byte(bom)), " \t\r\n")
	if len(text) == 0 || text[0] != '<' {
		f := newFinding(ruleNotDescriptor, 1, 1, "the file is not XML; a capability descriptor is an XML file whose root element is <%s>", rootTag)
		return nil, &f
	}
	t, err := load(data)
	if err != nil {
		f := newFinding(ruleXMLSyntax, err.line, err.col, "the file is not well-formed XML: %s", err.msg)
		return nil, &f
	}
	return &reader{t: t}, nil
}

// read opens a descriptor: the fatal finding also covers a root element
// other than <mobile-mcp-capabilities>.
func read(data []byte) (*reader, *Finding) {
	r, fatal := open(data)
	if fatal != nil {
		return nil, fatal
	}
	if f := r.checkRoot(); f != nil {
		return nil, f
	}
	return r, nil
}

// checkRoot returns the finding about a root element that is not a
// descriptor's: root-element when the document looks like a descriptor
// with a misnamed root, not-descriptor when it is something else.
func (r *reader) checkRoot() *Finding {
	root := r.t.root
	if root.Space == "" && root.Tag == rootTag {
		return nil
	}
	line, col := r.t.pos(root)
	if root.Tag == rootTag || root.SelectElement(capabilityTag) != nil {
		f := newFinding(ruleRootElement, line, col, "the root element is <%s>; rename it to <%s>, the name the Mobile-MCP spec §1.2.1 requires", root.FullTag(), rootTag)
		return &f
	}
	if is(root, manifestTag) {
		f := newFinding(ruleNotDescriptor, line, col, "the root element is <%s>: this is an AndroidManifest.xml, not a capability descriptor; use the file its %s meta-data names", manifestTag, metaCapabilities)
		return &f
	}
	f := newFinding(ruleNotDescriptor, line, col, "the root element is <%s>, so this is neither a capability descriptor (<%s>) nor an AndroidManifest.xml (<%s>)", root.FullTag(), rootTag, manifestTag)
	return &f
}

func newFinding(rule Rule, line, col int, format string, args ...any) Finding {
	return Finding{Line: line, Column: col, Severity: rule.Severity, Rule: rule.ID, Message: fmt.Sprintf(format, args...)}
}

// at reports a finding at e's start tag.
func (r *reader) at(rule Rule, e node, format string, args ...any) {
	line, col := r.t.pos(e)
	r.findings = append(r.findings, newFinding(rule, line, col, format, args...))
}

// atAttr reports a finding at attribute key (with its prefix) of e.
func (r *reader) atAttr(rule Rule, e node, key string, format string, args ...any) {
	line, col := r.t.attrPos(e, key)
	r.findings = append(r.findings, newFinding(rule, line, col, format, args...))
}

// attr returns the value of e's attribute key, which has no prefix. etree's
// SelectAttr would also match a prefixed one, such as android:name for name.
func attr(e node, key string) (string, bool) {
	for _, a := range e.Attr {
		if a.Space == "" && a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// is reports whether e is the unprefixed element tag.
func is(e node, tag string) bool { return e.Space == "" && e.Tag == tag }

// isXMLReserved reports whether a belongs to XML itself, a namespace
// declaration or an attribute such as xml:lang, rather than to the format.
func isXMLReserved(a etree.Attr) bool {
	return a.Space == "xmlns" || (a.Space == "" && a.Key == "xmlns") || a.Space == "xml"
}

// subject names what a finding is about: `capability "c"`, `input param
// "p"`, or `<capability>` and `an input <param>` before the name is known.
// It is formatted only when a finding is reported, which keeps a clean
// walk free of string building.
type subject struct {
	kind string // capabilityTag, inputTag or outputTag
	name string
}

func (s subject) String() string {
	switch {
	case s.kind == capabilityTag && s.name == "":
		return "<capability>"
	case s.kind == capabilityTag:
		return fmt.Sprintf("capability %q", s.name)
	case s.name == "":
		return "an " + s.kind + " <param>"
	}
	return fmt.Sprintf("%s param %q", s.kind, s.name)
}

// attrFix says how to write each attribute the spec requires.
var attrFix = map[string]string{
	"id":          `a unique id such as id="send_sms"`,
	"description": `description="…" in plain words; the model reads it to choose and call capabilities`,
	"version":     `version="1.0"`,
	"name":        `name="…" with the argument name`,
	"type":        `type="string" or another of ` + typeList,
	"required":    `required="true" or required="false"`,
}

// typeNames are the canonical types, for messages and suggestions.
var typeNames = func() []string {
	types := capability.Types()
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = string(t)
	}
	return names
}()

var typeList = strings.Join(typeNames, ", ")

// need returns the value of an attribute the spec requires, reporting it
// when it is absent or empty. An empty description is only a warning.
func (r *reader) need(e node, key string, what subject) string {
	v, ok := attr(e, key)
	switch {
	case !ok:
		r.at(ruleMissingAttribute, e, "%s has no %s attribute; add %s", what, key, attrFix[key])
	case strings.TrimSpace(v) != "":
	case key == "description":
		r.atAttr(ruleEmptyDescription, e, key, "%s has an empty description; describe it, because the model reads descriptions to choose and call capabilities", what)
	default:
		r.atAttr(ruleMissingAttribute, e, key, "%s has an empty %s attribute; set %s", what, key, attrFix[key])
	}
	return v
}

// versionNumber matches what agents and people read as a version: numbers
// separated by dots, perhaps after a v and before a -beta or +build suffix.
var versionNumber = regexp.MustCompile(`^[vV]?[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.+-]+)?$`)

// version returns a capability's version, which the spec requires,
// reporting one that is not a version number, such as "one".
func (r *reader) version(e node, what subject) string {
	v := r.need(e, "version", what)
	if strings.TrimSpace(v) != "" && !versionNumber.MatchString(v) {
		r.atAttr(ruleVersionFormat, e, "version", `%s has version=%q, which is not a version number; write one such as version="1.0" or version="2"`, what, v)
	}
	return v
}

// checkAttrs reports the attributes of e that the format does not define.
// known lists the unprefixed ones, and ext the mobilemcp extension
// attributes (in [Namespace]) that e may carry. Attributes in other
// namespaces belong to other tools and are left alone.
func (r *reader) checkAttrs(e node, known, ext []string) {
	for _, a := range e.Attr {
		switch {
		case isXMLReserved(a):
		case a.Space == "":
			if slices.Contains(known, a.Key) {
				continue
			}
			if a.Key == "required" && is(e, paramTag) { // so an output param
				r.atAttr(ruleUnknownAttribute, e, a.Key, "output params have no required attribute; remove it")
				continue
			}
			r.atAttr(ruleUnknownAttribute, e, a.Key, "<%s> has an attribute %s that the format does not define; %s", e.FullTag(), a.Key, didYouMean(a.Key, known, "remove it"))
		default:
			switch uri := a.NamespaceURI(); {
			case uri == "":
				r.atAttr(ruleUnknownAttribute, e, a.FullKey(), "the prefix of %s is not bound to a namespace; declare xmlns:%s or remove the attribute", a.FullKey(), a.Space)
			case uri != Namespace:
			case slices.Contains(ext, a.Key):
			case is(e, paramTag) && slices.Contains(inputParamExt, a.Key): // so an output param
				r.atAttr(ruleUnknownAttribute, e, a.FullKey(), "output params have no %s; it limits an argument, so remove it", a.FullKey())
			case slices.Contains(capabilityExt, a.Key) || slices.Contains(inputParamExt, a.Key) || slices.Contains(paramExt, a.Key):
				r.atAttr(ruleUnknownAttribute, e, a.FullKey(), "%s belongs on %s, not on <%s>; move or remove it", a.FullKey(), extHome(a.Key), e.FullTag())
			default:
				all := slices.Concat(capabilityExt, inputParamExt, paramExt)
				r.atAttr(ruleUnknownAttribute, e, a.FullKey(), "%s is not a mobilemcp attribute; %s", a.FullKey(),
					didYouMean(a.Key, all, "the mobilemcp attributes are "+strings.Join(all, ", ")))
			}
		}
	}
}

// didYouMean returns "did you mean X?" for the candidate closest to got,
// when one is close enough to be a typo, and otherwise what it is given.
func didYouMean(got string, candidates []string, otherwise string) string {
	return cmp.Or(text.DidYouMean(got, candidates), otherwise)
}
