package intentbridge

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor"
)

// Tool is what a Bridge serves (Bridge.Start): a capability descriptor and
// the implementation of every capability it declares. The descriptor is the
// truth: the engine validates arguments and outputs against it, and the
// implementations only run.
type Tool struct {
	descriptorName string
	descriptorJSON string
	handlers       map[string]Handler
	checks         map[string]ArgumentCheck
	goCaps         []capability.Capability
	timeout        time.Duration
	title          string
}

// NewTool starts describing a tool whose descriptor is descriptorJSON: the
// element tree of its compiled resource, which the Tool SDK walks with
// Android's XmlResourceParser, as agents read it, and writes as JSON (the
// form descriptor.DecodeTree reads). descriptorName names it in messages,
// such as "res/xml/mcp_capabilities.xml".
func NewTool(descriptorName, descriptorJSON string) *Tool {
	return &Tool{descriptorName: descriptorName, descriptorJSON: descriptorJSON, handlers: map[string]Handler{}, checks: map[string]ArgumentCheck{}}
}

// SetTitle names the tool as its manifest's mobile.mcp.tool.name does. The
// MCP server (StartHTTP) introduces itself with it.
func (t *Tool) SetTitle(title string) {
	t.title = title
}

// SetHandler makes h run capability capabilityID. A second handler for the
// same id replaces the first.
func (t *Tool) SetHandler(capabilityID string, h Handler) {
	t.handlers[capabilityID] = h
}

// SetArgumentCheck gives capabilityID, which has a Java handler, a check of
// its arguments that its descriptor cannot state, such as "the title is not
// blank". The engine runs it after the descriptor's checks and before
// consent, the reply store and the rate limit, so an invalid call is
// rejected without asking the user or using the caller's budget. A
// capability without an argument check costs no call into Java for it. A
// second check for the same id replaces the first.
func (t *Tool) SetArgumentCheck(capabilityID string, c ArgumentCheck) {
	t.checks[capabilityID] = c
}

// AddGo adds capabilities implemented in Go. The descriptor must declare
// each exactly as its definition does (as 'mobilemcp gen' writes it). It is
// the seam through which the SMS app's bound package (smsapp.AddSMS) adds
// its capabilities; gomobile does not bind it.
func (t *Tool) AddGo(cs ...capability.Capability) {
	t.goCaps = append(t.goCaps, cs...)
}

// SetTimeoutMillis gives every capability a deadline of timeoutMillis
// instead of its own mcp:timeout, so that a test reaches the timeout path
// quickly; zero or less keeps each capability's own. The Java platform
// learns its share of the deadline through SendSMS's timeoutMillis, so a
// short deadline also shortens its wait for sent results. It is part of
// the tool rather than a setting of the bridge, so that nothing can change
// the deadlines of a tool being served.
func (t *Tool) SetTimeoutMillis(timeoutMillis int64) {
	t.timeout = time.Duration(max(timeoutMillis, 0)) * time.Millisecond
}

// registry checks the tool and builds the registry the engine serves.
func (t *Tool) registry() (*capability.Registry, error) {
	file, err := t.descriptor()
	if err != nil {
		return nil, err
	}
	declared := file.Capabilities()
	var problems []string
	caps := make([]capability.Capability, 0, len(declared))
	for i, c := range declared {
		impl, problem := t.implement(c, file.Specs[i].Line)
		if problem != "" {
			problems = append(problems, problem)
			continue
		}
		if t.timeout > 0 {
			impl.Timeout = t.timeout
		}
		caps = append(caps, impl)
	}
	problems = append(problems, t.undeclared(declared)...)
	if len(problems) > 0 {
		return nil, fmt.Errorf("intentbridge: the tool cannot start:\n  %s", strings.Join(problems, "\n  "))
	}
	return capability.NewRegistry(caps...)
}

// descriptor reads the descriptor and refuses one with lint errors, with
// the messages of mobilemcp lint.
func (t *Tool) descriptor() (*descriptor.File, error) {
	root, err := descriptor.DecodeTree([]byte(t.descriptorJSON))
	if err != nil {
		return nil, fmt.Errorf("intentbridge: the tool cannot start: %s: %w", t.descriptorName, err)
	}
	file, err := descriptor.Check(t.descriptorName, root, &descriptor.ReadOptions{Pattern: checkPattern})
	if err != nil {
		return nil, fmt.Errorf("intentbridge: the tool cannot start: %w", err)
	}
	return file, nil
}

// implement pairs the declared capability c, declared at line of the
// descriptor, with its implementation, or says why it cannot.
func (t *Tool) implement(c *capability.Capability, line int) (capability.Capability, string) {
	h, inJava := t.handlers[c.ID]
	i := slices.IndexFunc(t.goCaps, func(g capability.Capability) bool { return g.ID == c.ID })
	switch {
	case inJava && i >= 0:
		return capability.Capability{}, fmt.Sprintf("%s has a handler and is also implemented in Go; keep one", c.ID)
	case inJava:
		if h == nil {
			return capability.Capability{}, fmt.Sprintf("the handler of %s is null", c.ID)
		}
		impl := *c
		impl.Handler = javaHandler(c.ID, h)
		if check, ok := t.checks[c.ID]; ok {
			if check == nil {
				return capability.Capability{}, fmt.Sprintf("the argument check of %s is null", c.ID)
			}
			impl.Validate = javaArgumentCheck(c.ID, check)
		}
		return impl, ""
	case i >= 0:
		if _, ok := t.checks[c.ID]; ok {
			return capability.Capability{}, fmt.Sprintf("%s is implemented in Go, which checks its arguments itself; remove its argument check", c.ID)
		}
		g := t.goCaps[i]
		if diff := differs(c, &g); diff != "" {
			return capability.Capability{}, fmt.Sprintf("%s: %s declares %s other than the engine's %s does; regenerate it with 'mobilemcp gen'", c.ID, t.descriptorName, diff, c.ID)
		}
		return g, ""
	}
	return capability.Capability{}, fmt.Sprintf("%s:%d declares %s, but it has no handler", t.descriptorName, line, c.ID)
}

// undeclared reports the handlers and argument checks of capabilities the
// descriptor does not declare: most likely a misspelt id, whose capability
// then has no handler, or goes unchecked.
func (t *Tool) undeclared(declared []*capability.Capability) []string {
	known := make([]string, len(declared))
	for i, c := range declared {
		known[i] = c.ID
	}
	var ids []string
	for id := range t.handlers {
		if !slices.Contains(known, id) {
			ids = append(ids, id)
		}
	}
	for _, g := range t.goCaps {
		if !slices.Contains(known, g.ID) {
			ids = append(ids, g.ID)
		}
	}
	sortStrings(ids)
	var checks []string
	for id := range t.checks {
		if !slices.Contains(known, id) {
			checks = append(checks, id)
		}
	}
	sortStrings(checks)
	var problems []string
	for _, list := range []struct {
		what string
		ids  []string
	}{{"a handler", ids}, {"an argument check", checks}} {
		for _, id := range list.ids {
			problems = append(problems, fmt.Sprintf("there is %s for %q, which %s does not declare (it declares %s)", list.what, id, t.descriptorName, strings.Join(known, ", ")))
		}
	}
	return problems
}

// sortStrings sorts s with sort.Slice, whose code the engine has already,
// rather than with a slices.Sort of its own for strings: the engine every
// tool ships is held to its size (make size).
func sortStrings(s []string) {
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
}

// differs names the first part of a Go capability's definition that its
// descriptor entry does not match, or returns "".
func differs(declared, def *capability.Capability) string {
	switch {
	case declared.Description != def.Description || declared.Version != def.Version:
		return "a description or version"
	case !slices.Equal(declared.Input, def.Input):
		return "inputs"
	case !slices.Equal(declared.Output, def.Output):
		return "outputs"
	case !sameHints(declared.Annotations, def.Annotations):
		return "hints"
	case declared.Timeout != def.Timeout:
		return "a timeout"
	}
	return ""
}

// sameHints reports whether a and b say the same: the same title and the
// same four hints, a nil hint counting as its default.
func sameHints(a, b capability.Annotations) bool {
	return a.Title == b.Title && a.ReadOnly == b.ReadOnly && a.IsDestructive() == b.IsDestructive() &&
		a.Idempotent == b.Idempotent && a.IsOpenWorld() == b.IsOpenWorld()
}
