package xmlfile

import (
	"bytes"

	"iter"
	"path/filepath"
	"regexp"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// The names of the Mobile-MCP spec §1.1: the service's intent filter action and its
// meta-data keys.
const (
	manifestTag      = "manifest"
	androidNS        = "http://schemas.android.com/apk/res/android"
	serviceAction    = "mobile.mcp.SERVICE"
	metaName         = "mobile.mcp.tool.name"
	metaDescription  = "mobile.mcp.tool.description"
	metaCapabilities = "mobile.mcp.tool.capabilities"
)

// metaEntries are the three meta-data entries of the tool service, and how
// each must be written. Agents read the name and description with
// Bundle.getString, which needs android:value (a literal or a @string/
// reference, which Android resolves), and the descriptor with
// Bundle.getInt and Resources.getXml, which needs android:resource.
var metaEntries = []struct {
	name, example string
	resource      bool
}{
	{metaName, `android:value="@string/tool_name"`, false},
	{metaDescription, `android:value="@string/tool_description"`, false},
	{metaCapabilities, `android:resource="@xml/mcp_capabilities"`, true},
}

// xmlRef matches a reference to an XML resource, @xml/name or
// @package:xml/name.
var xmlRef = regexp.MustCompile(`^@(?:[A-Za-z0-9_.]+:)?xml/([A-Za-z0-9_.]+)$`)

// manifestLinter checks an AndroidManifest.xml, and the descriptor it
// points at.
type manifestLinter struct {
	findings []descriptor.Finding
	// linked are the findings of the descriptor the manifest points at,
	// which carry that file's name.
	linked []descriptor.Finding
}

// at reports a finding at e's start tag.
func (r *manifestLinter) at(rule descriptor.Rule, e *descriptor.Element, format string, args ...any) {
	r.findings = append(r.findings, rule.At(e.Line, e.Column, format, args...))
}

// atAttr reports a finding at attribute a.
func (r *manifestLinter) atAttr(rule descriptor.Rule, a *descriptor.Attr, format string, args ...any) {
	r.findings = append(r.findings, rule.At(a.Line, a.Column, format, args...))
}

// manifest checks the tool service of an AndroidManifest.xml, whose root
// is root and whose file is name.
func (r *manifestLinter) manifest(root *descriptor.Element, name string, opts *Options) {
	app := root
	var all, services []*descriptor.Element
	for _, e := range root.Children {
		if !is(e, "application") {
			continue
		}
		app = e
		for _, s := range e.Children {
			if !is(s, "service") {
				continue
			}
			all = append(all, s)
			if hasAction(s, serviceAction) {
				services = append(services, s)
			}
		}
	}
	if len(services) == 0 && r.misspeltAction(all) {
		return
	}
	if len(services) == 0 {
		r.at(ruleManifestService, app, `no <service> has <intent-filter><action android:name=%q/></intent-filter>; declare the tool service with that filter inside <application> (Mobile-MCP spec §1.1)`, serviceAction)
		return
	}
	for _, s := range services[1:] {
		r.at(ruleManifestOne, s, "service %s also has the %s filter, but a tool exposes exactly one Mobile-MCP service (the first is at line %d); remove the filter from one", serviceName(s), serviceAction, services[0].Line)
	}
	// The first service is the tool's; the others are reported above and
	// not checked further, which would only repeat the same advice.
	s := services[0]
	r.exported(s)
	for _, m := range metaEntries {
		if md, ok := metaData(s, m.name); !ok {
			r.missingMetaData(s, app, m.name, m.example)
		} else if r.metaKind(md, m.name, m.example, m.resource) && m.resource {
			r.descriptorResource(md, name, opts)
		}
	}
}

func (r *manifestLinter) exported(s *descriptor.Element) {
	switch a := androidAttr(s, "exported"); {
	case a == nil:
		r.at(ruleManifestExported, s, `service %s has no android:exported attribute; add android:exported="true" so that assistants in other apps can find and start it`, serviceName(s))
	case a.Value == "false":
		r.atAttr(ruleManifestExported, a, `service %s has android:exported="false", so assistants in other apps cannot start it; set android:exported="true"`, serviceName(s))
	}
}

func (r *manifestLinter) missingMetaData(s, app *descriptor.Element, name, example string) {
	if md, ok := metaData(app, name); ok {
		r.at(ruleManifestMetaData, s, `the <meta-data android:name=%q> at line %d is under <application>, but agents read it from the service; move it inside service %s`, name, md.Line, serviceName(s))
		return
	}
	r.at(ruleManifestMetaData, s, `service %s has no <meta-data android:name=%q>; add <meta-data android:name=%q %s/> inside it`, serviceName(s), name, name, example)
}

// metaKind reports a meta-data entry written with the wrong attribute,
// and says whether it is written right.
func (r *manifestLinter) metaKind(md *descriptor.Element, name, example string, resource bool) bool {
	want, other := "value", "resource"
	how := "as a string with Bundle.getString"
	if resource {
		want, other = other, want
		how = "as a resource id with Bundle.getInt and load it with Resources.getXml"
	}
	a, wrong := androidAttr(md, want), androidAttr(md, other)
	switch {
	case a == nil && wrong != nil:
		r.atAttr(ruleManifestKind, wrong, "%s uses android:%s, but agents read it %s; write %s", name, other, how, example)
		return false
	case a == nil:
		r.at(ruleManifestKind, md, "%s has no android:%s; write %s", name, want, example)
		return false
	case resource && !xmlRef.MatchString(a.Value):
		r.atAttr(ruleManifestKind, a, "%s points at %q, which is not an XML resource; write %s", name, a.Value, example)
		return false
	}
	return true
}

// descriptorResource checks that the @xml/ reference of md names a
// descriptor in the res directory.
func (r *manifestLinter) descriptorResource(md *descriptor.Element, manifest string, opts *Options) {
	a := androidAttr(md, "resource")
	ref := a.Value
	var res string
	if opts.ResDir != "" {
		res = resDirIn(opts.ResDir)
	} else {
		res = findResDir(manifest)
	}
	if res == "" {
		r.atAttr(ruleManifestResDir, a, "found no res directory next to %s or in its parent, so %s was not checked; name the res directory too: mobilemcp lint %s path/to/res", manifest, ref, manifest)
		return
	}
	base := xmlRef.FindStringSubmatch(ref)[1] + ".xml"
	want := filepath.Join(res, "xml", base)
	var files []string
	for _, dir := range xmlDirs(res) {
		if file := filepath.Join(dir, base); isFile(file) {
			files = append(files, file)
		}
	}
	if len(files) == 0 {
		r.atAttr(ruleManifestDesc, a, "%s points at %s, which does not exist; write the descriptor there, as docs/reference/descriptor.md describes", ref, want)
		return
	}
	for _, file := range files {
		data, err := ReadFile(file)
		if err != nil {
			r.atAttr(ruleManifestDesc, a, "%s points at %s, which cannot be read: %v", ref, file, err)
		} else if root := rootName(bytes.NewReader(data)); root != rootTag {
			r.atAttr(ruleManifestDesc, a, "%s points at %s, which is not a capability descriptor (its root is %q, not <%s>); run mobilemcp lint %s", ref, file, root, rootTag, file)
		} else {
			r.linked = append(r.linked, Lint(file, data, opts)...)
		}
	}
}

// findResDir looks for the res directory of a manifest: next to it, as in
// a Gradle module's src/main, or in its parent, as in this repository.
func findResDir(manifest string) string {
	if manifest == "" {
		return ""
	}
	dir := filepath.Dir(manifest)
	for _, res := range []string{filepath.Join(dir, "res"), filepath.Join(dir, "..", "res")} {
		if isDir(res) {
			return res
		}
	}
	return ""
}

// androidAttr returns e's attribute key in the android namespace, or nil.
// An undeclared android: prefix counts too: aapt rejects it, and the
// message about the value is more useful than one about the prefix.
func androidAttr(e *descriptor.Element, key string) *descriptor.Attr {
	for i, a := range e.Attrs {
		if a.Name == key && a.Prefix != "" && (a.Prefix == "android" || a.Space == androidNS) {
			return &e.Attrs[i]
		}
	}
	return nil
}

// androidValue returns the value of e's android:key, or "".
func androidValue(e *descriptor.Element, key string) string {
	if a := androidAttr(e, key); a != nil {
		return a.Value
	}
	return ""
}

func hasAction(service *descriptor.Element, action string) bool {
	for a := range actions(service) {
		if androidValue(a, "name") == action {
			return true
		}
	}
	return false
}

// misspeltAction reports the first action of services that is a near
// miss of the Mobile-MCP action, such as mobile.mcp.SERVICES, and says
// whether there was one.
func (r *manifestLinter) misspeltAction(services []*descriptor.Element) bool {
	for _, s := range services {
		for a := range actions(s) {
			name := androidAttr(a, "name")
			if name == nil {
				continue
			}
			if hint := text.DidYouMean(name.Value, []string{serviceAction}); hint != "" {
				r.atAttr(ruleManifestService, name, "service %s has <action android:name=%q>, which agents do not look for; %s", serviceName(s), name.Value, hint)
				return true
			}
		}
	}
	return false
}

// actions iterates over the <action> elements of the intent filters of a
// service.
func actions(service *descriptor.Element) iter.Seq[*descriptor.Element] {
	return func(yield func(*descriptor.Element) bool) {
		for _, f := range service.Children {
			if !is(f, "intent-filter") {
				continue
			}
			for _, a := range f.Children {
				if is(a, "action") && !yield(a) {
					return
				}
			}
		}
	}
}

// metaData returns the <meta-data> child of e named name.
func metaData(e *descriptor.Element, name string) (*descriptor.Element, bool) {
	for _, md := range e.Children {
		if is(md, "meta-data") && androidValue(md, "name") == name {
			return md, true
		}
	}
	return nil, false
}

func serviceName(s *descriptor.Element) string {
	if a := androidAttr(s, "name"); a != nil {
		return a.Value
	}
	return "(unnamed)"
}
