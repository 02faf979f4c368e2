package descriptor

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// ReadOptions configure Read and Check.
type ReadOptions struct {
	// Pattern checks that an mcp:pattern value is a regular expression,
	// and says why not; xmlfile.CheckPattern is the one that lint, the
	// gateway and the tool engine of the host tests use. Nil leaves
	// patterns unchecked: the engine never enforces a pattern (it is a
	// hint to MCP clients, capability.Param), and the tool engine every
	// app ships carries no regular expressions.
	Pattern func(pattern string) error
}

// Lint checks root, the root element of the descriptor called name in the
// findings, and returns what it declares, with every finding, errors and
// warnings, in line order: what mobilemcp lint prints (package xmlfile).
// The File reads what the document says without judging it (a missing
// attribute is empty, a required other than "true" is false); it is nil
// when root is not a descriptor's root element at all, which a finding
// says. opts may be nil.
func Lint(name string, root *Element, opts *ReadOptions) (*File, []Finding) {
	return read(name, root, opts, lintWarnings{})
}

// Check reads the descriptor as Lint does, and refuses one with errors,
// listing them as mobilemcp lint does, one a line. A tool's engine starts
// only on a descriptor that passes, and the gateway shares only such a
// one. It looks for no warning: nobody sees one there.
func Check(name string, root *Element, opts *ReadOptions) (*File, error) {
	file, findings := read(name, root, opts, noWarnings{})
	var errs []string
	for _, f := range findings {
		if f.Severity == Error {
			errs = append(errs, f.String())
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("its descriptor has errors:\n  %s", strings.Join(errs, "\n  "))
	}
	return file, nil
}

// read is Lint and Check, with the warnings of warn.
func read(name string, root *Element, opts *ReadOptions, warn warnings) (*File, []Finding) {
	r := &reader{root: root, warn: warn}
	if opts != nil {
		r.pattern = opts.Pattern
	}
	var file *File
	if f := r.checkRoot(); f == nil || f.Rule == ruleRootElement.ID {
		// A misnamed root still holds capabilities worth checking.
		if f != nil {
			r.findings = append(r.findings, *f)
		}
		file = r.descriptor()
	} else {
		r.findings = append(r.findings, *f)
	}
	for i := range r.findings {
		r.findings[i].File = name
	}
	SortFindings(r.findings)
	return file, r.findings
}

// warnings are the checks whose findings only warn, of what works but
// misleads: an attribute or element the format does not define, a
// capability without mcp:readOnly, an id that models refuse, a version that
// is not a number. Lint makes them. Check does not: the engine every tool
// app ships refuses a descriptor for its errors only and never shows a
// warning, and the code of these checks, with their suggestions, would add
// to its size. The reader reaches them through this interface, whose one
// implementation with code only Lint gives it, so that the linker leaves
// them out of an engine that calls Check only.
type warnings interface {
	attrs(r *reader, e *Element, known, ext []string)
	element(r *reader, e, parent *Element, want ...string)
	capability(r *reader, e *Element, s *Spec, what subject)
}

// lintWarnings are Lint's: every warning.
type lintWarnings struct{}

func (lintWarnings) attrs(r *reader, e *Element, known, ext []string) { r.checkAttrs(e, known, ext) }
func (lintWarnings) element(r *reader, e, parent *Element, want ...string) {
	r.unknownElement(e, parent, want...)
}
func (lintWarnings) capability(r *reader, e *Element, s *Spec, what subject) {
	r.checkID(e, s.ID)
	r.checkVersion(e, s.Version, what)
	r.checkReadOnly(e, what)
}

// noWarnings are Check's: none.
type noWarnings struct{}

func (noWarnings) attrs(*reader, *Element, []string, []string)    {}
func (noWarnings) element(*reader, *Element, *Element, ...string) {}
func (noWarnings) capability(*reader, *Element, *Spec, subject)   {}

// reader walks a descriptor and reports what is wrong with it.
type reader struct {
	root     *Element
	warn     warnings
	findings []Finding
	pattern  func(string) error // ReadOptions.Pattern
	// patterns caches what checking each mcp:pattern gave: a descriptor
	// repeats its patterns (one per phone number param, say), and
	// compiling one is the costliest step of a lint.
	patterns map[string]error
}

// checkRoot returns the finding about a root element that is not a
// descriptor's: root-element when the document looks like a descriptor
// with a misnamed root, not-descriptor when it is something else.
func (r *reader) checkRoot() *Finding {
	root := r.root
	if is(root, rootTag) {
		return nil
	}
	if root.Name == rootTag && root.Prefix == "" {
		f := ruleRootElement.At(root.Line, root.Column, "the root element <%s> is in the namespace %q, and the format's elements are in none; remove its xmlns", rootTag, root.Space)
		return &f
	}
	if root.Name == rootTag || slices.ContainsFunc(root.Children, func(c *Element) bool { return is(c, capabilityTag) }) {
		f := ruleRootElement.At(root.Line, root.Column, "the root element is <%s>; rename it to <%s>, the name the Mobile-MCP spec §1.2.1 requires", root.FullTag(), rootTag)
		return &f
	}
	if is(root, manifestTag) {
		f := ruleNotDescriptor.At(root.Line, root.Column, "the root element is <%s>: this is an AndroidManifest.xml, not a capability descriptor; use the file its %s meta-data names", manifestTag, metaCapabilities)
		return &f
	}
	f := ruleNotDescriptor.At(root.Line, root.Column, "the root element is <%s>, so this is neither a capability descriptor (<%s>) nor an AndroidManifest.xml (<%s>)", root.FullTag(), rootTag, manifestTag)
	return &f
}

// The AndroidManifest.xml names that a message about a descriptor uses.
const (
	manifestTag      = "manifest"
	metaCapabilities = "mobile.mcp.tool.capabilities"
)

// at reports a finding at e's start tag.
func (r *reader) at(rule Rule, e *Element, format string, args ...any) {
	r.findings = append(r.findings, rule.At(e.Line, e.Column, format, args...))
}

// atAttr reports a finding at attribute key (with its prefix, if any) of
// e, or at e's start tag when e has no such attribute.
func (r *reader) atAttr(rule Rule, e *Element, key string, format string, args ...any) {
	line, col := e.Line, e.Column
	for _, a := range e.Attrs {
		if a.FullKey() == key {
			line, col = a.Line, a.Column
			break
		}
	}
	r.findings = append(r.findings, rule.At(line, col, format, args...))
}

// attr returns the value of e's attribute key, which has no prefix.
func attr(e *Element, key string) (string, bool) {
	for _, a := range e.Attrs {
		if a.Prefix == "" && a.Name == key {
			return a.Value, true
		}
	}
	return "", false
}

// is reports whether e is the element tag of the format, which is in no
// namespace.
func is(e *Element, tag string) bool { return e.Prefix == "" && e.Space == "" && e.Name == tag }

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
func (r *reader) need(e *Element, key string, what subject) string {
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

// isVersionNumber reports whether v is what agents and people read as a
// version: numbers separated by dots, perhaps after a v and before a -beta
// or +build suffix. It is the regular expression
// ^[vV]?[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.+-]+)?$ written out, which a fuzz
// test holds equal to it: the tool engine carries no regexp package.
func isVersionNumber(v string) bool {
	if v != "" && (v[0] == 'v' || v[0] == 'V') {
		v = v[1:]
	}
	numbers := v
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		numbers = v[:i]
		if !allOf(v[i+1:], func(c byte) bool { return isAlphanumeric(c) || c == '.' || c == '+' || c == '-' }) {
			return false
		}
	}
	for number := range strings.SplitSeq(numbers, ".") {
		if !allOf(number, func(c byte) bool { return '0' <= c && c <= '9' }) {
			return false
		}
	}
	return true
}

// allOf reports whether s has at least one byte, and each is one that ok
// accepts.
func allOf(s string, ok func(byte) bool) bool {
	for i := range len(s) {
		if !ok(s[i]) {
			return false
		}
	}
	return s != ""
}

// isAlphanumeric reports whether c is an ASCII letter or digit.
func isAlphanumeric(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// checkVersion warns about a capability's version v that is not a
// version number, such as "one".
func (r *reader) checkVersion(e *Element, v string, what subject) {
	if strings.TrimSpace(v) != "" && !isVersionNumber(v) {
		r.atAttr(ruleVersionFormat, e, "version", `%s has version=%q, which is not a version number; write one such as version="1.0" or version="2"`, what, v)
	}
}

// checkAttrs reports the attributes of e that the format does not define.
// known lists the unprefixed ones, and ext the mobilemcp extension
// attributes (in [Namespace]) that e may carry. Attributes in other
// namespaces belong to other tools and are left alone.
func (r *reader) checkAttrs(e *Element, known, ext []string) {
	for _, a := range e.Attrs {
		switch {
		case a.reserved():
		case a.Prefix == "":
			if slices.Contains(known, a.Name) {
				continue
			}
			if a.Name == "required" && is(e, paramTag) { // so an output param
				r.atAttr(ruleUnknownAttribute, e, a.Name, "output params have no required attribute; remove it")
				continue
			}
			r.atAttr(ruleUnknownAttribute, e, a.Name, "<%s> has an attribute %s that the format does not define; %s", e.FullTag(), a.Name, didYouMean(a.Name, known, "remove it"))
		case a.Space == "":
			r.atAttr(ruleUnknownAttribute, e, a.FullKey(), "the prefix of %s is not bound to a namespace; declare xmlns:%s or remove the attribute", a.FullKey(), a.Prefix)
		case a.Space != Namespace:
		case slices.Contains(ext, a.Name):
		case is(e, paramTag) && slices.Contains(inputParamExt, a.Name): // so an output param
			r.atAttr(ruleUnknownAttribute, e, a.FullKey(), "output params have no %s; it limits an argument, so remove it", a.FullKey())
		case slices.Contains(capabilityExt, a.Name) || slices.Contains(inputParamExt, a.Name) || slices.Contains(paramExt, a.Name):
			r.atAttr(ruleUnknownAttribute, e, a.FullKey(), "%s belongs on %s, not on <%s>; move or remove it", a.FullKey(), extHome(a.Name), e.FullTag())
		default:
			all := slices.Concat(capabilityExt, inputParamExt, paramExt)
			r.atAttr(ruleUnknownAttribute, e, a.FullKey(), "%s is not a mobilemcp attribute; %s", a.FullKey(),
				didYouMean(a.Name, all, "the mobilemcp attributes are "+strings.Join(all, ", ")))
		}
	}
}

// didYouMean returns "did you mean X?" for the candidate closest to got,
// when one is close enough to be a typo, and otherwise what it is given.
func didYouMean(got string, candidates []string, otherwise string) string {
	return cmp.Or(text.DidYouMean(got, candidates), otherwise)
}
