package descriptor

import (
	"strconv"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

// Describe returns the element tree of the descriptor that declares caps,
// in the order given: <mobile-mcp-capabilities version="1.0"> with one
// <capability> each, which xmlfile.Render writes as XML text. Every
// attribute the spec defines is there, even when empty, and so is every
// behaviour hint, so the file states the behaviour rather than leaving it
// to defaults. An input section is there only when there are inputs, and
// an output section only when there are outputs. A capability's Timeout
// and a param's MaxLength, Pattern and Items are mcp: attributes when set,
// so that Read gives back everything the engine enforces. The elements
// have no lines.
func Describe(caps []*capability.Capability) *Element {
	root := &Element{Name: rootTag, Attrs: []Attr{
		{Space: xmlnsNS, Prefix: "xmlns", Name: "mcp", Value: Namespace},
		{Name: "version", Value: capability.SpecVersion},
	}}
	for _, c := range caps {
		e := &Element{Name: capabilityTag, Attrs: []Attr{
			{Name: "id", Value: c.ID},
			{Name: "description", Value: c.Description},
			{Name: "version", Value: c.Version},
		}}
		a := c.Annotations
		if a.Title != "" {
			e.Attrs = append(e.Attrs, ext(titleKey, a.Title))
		}
		for _, h := range hints {
			e.Attrs = append(e.Attrs, ext(h.key, strconv.FormatBool(h.get(a))))
		}
		if c.Timeout > 0 {
			e.Attrs = append(e.Attrs, ext(timeoutKey, formatDuration(c.Timeout)))
		}
		e.Children = appendSection(e.Children, inputTag, c.Input, true)
		e.Children = appendSection(e.Children, outputTag, c.Output, false)
		root.Children = append(root.Children, e)
	}
	return root
}

// ext is the extension attribute key, in [Namespace] with the prefix mcp.
func ext(key, value string) Attr {
	return Attr{Space: Namespace, Prefix: "mcp", Name: key, Value: value}
}

// appendSection appends the <input> or <output> of params to children,
// unless there are none.
func appendSection(children []*Element, tag string, params []capability.Param, input bool) []*Element {
	if len(params) == 0 {
		return children
	}
	section := &Element{Name: tag}
	for _, p := range params {
		e := &Element{Name: paramTag, Attrs: []Attr{{Name: "name", Value: p.Name}, {Name: "type", Value: string(p.Type)}}}
		if input {
			e.Attrs = append(e.Attrs, Attr{Name: "required", Value: strconv.FormatBool(p.Required)})
		}
		e.Attrs = append(e.Attrs, Attr{Name: "description", Value: p.Description})
		if p.MaxLength > 0 {
			e.Attrs = append(e.Attrs, ext(maxLengthKey, strconv.Itoa(p.MaxLength)))
		}
		if p.Pattern != "" {
			e.Attrs = append(e.Attrs, ext(patternKey, p.Pattern))
		}
		if p.Items != "" {
			e.Attrs = append(e.Attrs, ext(itemsKey, string(p.Items)))
		}
		section.Children = append(section.Children, e)
	}
	return append(children, section)
}
