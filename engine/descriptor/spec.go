package descriptor

import (
	"slices"
	"strings"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// The attributes each element may carry, from the Mobile-MCP spec §1.2.
var (
	rootAttrs        = []string{"version"}
	capabilityAttrs  = []string{"id", "description", "version"}
	inputParamAttrs  = []string{"name", "type", "required", "description"}
	outputParamAttrs = []string{"name", "type", "description"}
)

// descriptor reads the whole document, whose root the caller has checked.
func (r *reader) descriptor() *File {
	root := r.root
	r.warn.attrs(r, root, rootAttrs, nil)
	d := &File{Version: r.rootVersion(root)}
	first := make(map[string]int) // capability id → line of its first declaration
	for _, e := range root.Children {
		if !is(e, capabilityTag) {
			r.warn.element(r, e, root, capabilityTag)
			continue
		}
		s := r.capability(e)
		if line, dup := first[s.ID]; dup {
			r.atAttr(ruleDuplicateID, e, "id", "capability id %q is already used at line %d; give each capability its own id", s.ID, line)
		} else if s.ID != "" {
			first[s.ID] = s.Line
		}
		d.Specs = append(d.Specs, s)
	}
	if len(d.Specs) == 0 {
		r.at(ruleNoCapabilities, root, "the descriptor declares no <capability>; add one for each function the tool offers")
	}
	return d
}

func (r *reader) rootVersion(root *Element) string {
	v, ok := attr(root, "version")
	switch {
	case !ok:
		r.at(ruleRootVersion, root, `<%s> has no version attribute; add version=%q`, root.FullTag(), capability.SpecVersion)
	case v != capability.SpecVersion:
		r.atAttr(ruleRootVersion, root, "version", `<%s> has version=%q, but this is the format of Mobile-MCP %s; write version=%q`, root.FullTag(), v, capability.SpecVersion, capability.SpecVersion)
	}
	return v
}

func (r *reader) capability(e *Element) Spec {
	s := Spec{Line: e.Line}
	r.warn.attrs(r, e, capabilityAttrs, capabilityExt)
	what := subject{kind: capabilityTag}
	s.ID = r.need(e, "id", what)
	if s.ID != "" {
		what.name = s.ID
	}
	s.Description = r.need(e, "description", what)
	s.Version = r.need(e, "version", what)
	r.warn.capability(r, e, &s, what)
	s.Annotations = r.annotations(e, what)
	s.Timeout = r.timeout(e, what)

	var sections [2]*Element // the first <input> and <output>
	for _, child := range e.Children {
		i := 0
		switch {
		case is(child, inputTag):
		case is(child, outputTag):
			i = 1
		default:
			r.warn.element(r, child, e, inputTag, outputTag)
			continue
		}
		if sections[i] != nil {
			r.at(ruleDuplicateElement, child, "%s has a second <%s>; the first is at line %d, so move these params into it", what, child.Name, sections[i].Line)
		} else {
			sections[i] = child
		}
		if i == 0 {
			s.Input = r.params(child, s.Input, true)
		} else {
			s.Output = r.params(child, s.Output, false)
		}
	}
	return s
}

// params appends the params of an <input> or <output> section to list.
func (r *reader) params(section *Element, list []Param, input bool) []Param {
	r.warn.attrs(r, section, nil, nil)
	known, ext := outputParamAttrs, paramExt
	if input {
		known, ext = inputParamAttrs, slices.Concat(inputParamExt, paramExt)
	}
	kind := section.Name
	first := make(map[string]int, len(list)) // param name → line of its first declaration
	for _, p := range list {
		if _, dup := first[p.Name]; !dup {
			first[p.Name] = p.Line
		}
	}
	for _, e := range section.Children {
		if !is(e, paramTag) {
			r.warn.element(r, e, section, paramTag)
			continue
		}
		for _, child := range e.Children {
			r.warn.element(r, child, e)
		}
		r.warn.attrs(r, e, known, ext)
		p := Param{Line: e.Line}
		what := subject{kind: kind}
		p.Name = r.need(e, "name", what)
		if p.Name != "" {
			what.name = p.Name
			if line, dup := first[p.Name]; dup {
				r.atAttr(ruleDuplicateParam, e, "name", "%s is already declared at line %d; rename or remove one", what, line)
			} else {
				first[p.Name] = p.Line
			}
		}
		p.Type = r.paramType(e, r.need(e, "type", what), what)
		if input {
			if v := r.need(e, "required", what); strings.TrimSpace(v) != "" {
				p.Required = r.boolean(e, Attr{Name: "required", Value: v}, false, what)
			}
		}
		p.Description = r.need(e, "description", what)
		if input {
			r.paramLimits(e, &p, what)
		}
		r.items(e, &p, what)
		list = append(list, p)
	}
	return list
}

// paramType resolves a type name: a synonym becomes its canonical type,
// an unknown name stays as written.
func (r *reader) paramType(e *Element, name string, what subject) capability.Type {
	if name == "" {
		return "" // need reported it
	}
	t, canonical, ok := capability.ParseType(name)
	switch {
	case !ok:
		r.atAttr(ruleUnknownType, e, "type", "%s has type %q, which is not a descriptor type; %s", what, name,
			didYouMean(name, typeNames, "use one of "+typeList))
		return capability.Type(name)
	case !canonical:
		r.atAttr(ruleTypeSynonym, e, "type", "%s has type %q; write type=%q, the name every reader knows", what, name, t)
	}
	return t
}

// unknownElement reports e, a child of parent that the format does not
// define there; want lists what parent may hold.
func (r *reader) unknownElement(e, parent *Element, want ...string) {
	if len(want) == 0 {
		r.at(ruleUnknownElement, e, "<%s> holds no elements; remove <%s>", parent.FullTag(), e.FullTag())
		return
	}
	names := make([]string, len(want))
	for i, w := range want {
		names[i] = "<" + w + ">"
	}
	r.at(ruleUnknownElement, e, "<%s> does not belong in <%s>, which holds only %s; %s", e.FullTag(), parent.FullTag(),
		strings.Join(names, " and "), didYouMean("<"+e.FullTag()+">", names, "remove it"))
}

// checkID warns about a capability id that MCP clients or models refuse.
func (r *reader) checkID(e *Element, id string) {
	switch {
	case id == "":
	case !capability.ValidID(id):
		r.atAttr(ruleToolName, e, "id", "capability id %q is not a valid MCP tool name, so MCP clients may reject it; use 1 to 128 of A-Z a-z 0-9 _ . - such as %q", id, toolName(id))
	case !isModelToolName(id):
		r.atAttr(ruleModelToolName, e, "id", "capability id %q is a valid MCP tool name, but the function calling of OpenAI's and Anthropic's models takes 1 to 64 of A-Z a-z 0-9 _ -, so an assistant must rename it; use one such as %q", id, modelToolName(id))
	}
}

// isModelToolName reports whether name is a function name that OpenAI's
// and Anthropic's function calling accept, which Gemini's accept too when
// it starts with a letter or "_": 1 to 64 of A-Z a-z 0-9 _ -, the regular
// expression ^[a-zA-Z0-9_-]{1,64}$ written out (a fuzz test holds the two
// equal). MCP allows more (".", and 128 characters), so an assistant that
// hands MCP tools to a model must rename those.
func isModelToolName(name string) bool {
	return len(name) <= 64 && allOf(name, func(c byte) bool { return isAlphanumeric(c) || c == '_' || c == '-' })
}

// modelToolName suggests a name for id that isModelToolName accepts.
func modelToolName(id string) string {
	name := strings.ReplaceAll(id, ".", "_")
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}

// toolName replaces what MCP tool names may not contain, to suggest a fix.
func toolName(id string) string {
	name := strings.Map(func(c rune) rune {
		if c < 128 && capability.ValidID(string(c)) {
			return c
		}
		return '_'
	}, id)
	if len(name) > 128 {
		name = name[:128]
	}
	return name
}
