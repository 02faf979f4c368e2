package xmlfile_test

import (
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

func TestEveryRuleHasACase(t *testing.T) {
	tested := map[string]bool{"manifest-res-dir": true} // TestLintManifestWithoutResDir
	for _, c := range descriptorCases {
		tested[c.want.rule] = true
	}
	for _, c := range manifestCases {
		tested[c.want.rule] = true
	}
	ids := map[string]bool{}
	for _, r := range xmlfile.Rules() {
		if ids[r.ID] {
			t.Errorf("rule id %s is used twice", r.ID)
		}
		ids[r.ID] = true
		if !tested[r.ID] {
			t.Errorf("rule %s has no failing case", r.ID)
		}
	}
	for id := range tested {
		if !ids[id] {
			t.Errorf("a case expects rule %s, which is not in Rules", id)
		}
	}
}

func TestFindingFormats(t *testing.T) {
	f := descriptor.Finding{File: "res/xml/a.xml", Line: 3, Column: 7, Severity: descriptor.Warning, Rule: "type-synonym", Message: "m"}
	if got, want := f.String(), "res/xml/a.xml:3: warning: m [type-synonym]"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	f.Line = 0
	if got, want := f.String(), "res/xml/a.xml: warning: m [type-synonym]"; got != want {
		t.Errorf("String() of a file finding = %q, want %q", got, want)
	}
	if got, _ := descriptor.Error.MarshalText(); string(got) != "error" {
		t.Errorf("Error marshals as %q", got)
	}
}
