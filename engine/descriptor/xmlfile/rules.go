package xmlfile

import (
	"slices"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
)

// The lint rules page is generated from Rules() and the text of each rule in
// testdata/lint-rules, with the findings of linting each rule's example.
//go:generate go test -run ^TestLintRulesPageIsGenerated$ -update

// The rules of the XML text, which only a file has (a compiled resource
// was well-formed, or aapt would not have compiled it).
var ruleXMLSyntax = descriptor.Rule{ID: "xml-syntax", Severity: descriptor.Error, Summary: "the file is not well-formed XML"}

// ruleNotDescriptor is the descriptor package's, which a file that is not
// XML at all, or a directory without descriptors, breaks too.
var ruleNotDescriptor = descriptorRule("not-descriptor")

// The AndroidManifest.xml rules, from the Mobile-MCP spec §1.1.
var (
	ruleManifestService  = descriptor.Rule{ID: "manifest-service", Severity: descriptor.Error, Summary: "no service has the mobile.mcp.SERVICE intent filter"}
	ruleManifestOne      = descriptor.Rule{ID: "manifest-one-service", Severity: descriptor.Error, Summary: "more than one service has the mobile.mcp.SERVICE intent filter"}
	ruleManifestExported = descriptor.Rule{ID: "manifest-exported", Severity: descriptor.Error, Summary: "the Mobile-MCP service is not exported"}
	ruleManifestMetaData = descriptor.Rule{ID: "manifest-meta-data", Severity: descriptor.Error, Summary: "the Mobile-MCP service lacks one of its three meta-data entries"}
	ruleManifestKind     = descriptor.Rule{ID: "manifest-meta-data-kind", Severity: descriptor.Error, Summary: "a meta-data entry uses android:value where android:resource is needed, or the reverse"}
	ruleManifestDesc     = descriptor.Rule{ID: "manifest-descriptor", Severity: descriptor.Error, Summary: "the capabilities resource does not name a descriptor in the res directory"}
	ruleManifestResDir   = descriptor.Rule{ID: "manifest-res-dir", Severity: descriptor.Warning, Summary: "the res directory was not found, so the capabilities resource was not checked"}
)

// Rules returns every lint rule, in the order docs/reference/lint-rules.md
// shows them: the XML text's, the descriptor's (descriptor.Rules), then
// the manifest's. The slice is new on every call.
func Rules() []descriptor.Rule {
	return slices.Concat([]descriptor.Rule{ruleXMLSyntax}, descriptor.Rules(), []descriptor.Rule{
		ruleManifestService, ruleManifestOne, ruleManifestExported, ruleManifestMetaData,
		ruleManifestKind, ruleManifestDesc, ruleManifestResDir,
	})
}

// descriptorRule returns the descriptor package's rule id.
func descriptorRule(id string) descriptor.Rule {
	i := slices.IndexFunc(descriptor.Rules(), func(r descriptor.Rule) bool { return r.ID == id })
	if i < 0 {
		panic("xmlfile: the descriptor package has no rule " + id)
	}
	return descriptor.Rules()[i]
}
