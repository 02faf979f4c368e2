package capability_test

import (
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
)

func TestRegistryRejectsBadDefinitions(t *testing.T) {
	valid := capability.Capability{ID: "ok", Description: "d", Version: "1.0"}
	tests := []struct {
		name string
		cap  capability.Capability
		want string
	}{
		{"empty id", capability.Capability{Description: "d", Version: "1.0"}, `capability id "": must be 1-128 characters of A-Z a-z 0-9 _ . -`},
		{"space in id", capability.Capability{ID: "send sms", Description: "d", Version: "1.0"}, `capability id "send sms": must be 1-128 characters of A-Z a-z 0-9 _ . -`},
		{"no version", capability.Capability{ID: "x", Description: "d"}, `capability x: version is empty`},
		{"unnamed param", capability.Capability{ID: "x", Description: "d", Version: "1", Input: []capability.Param{{Type: capability.String}}}, `capability x: an input param has no name`},
		{"duplicate param", capability.Capability{ID: "x", Description: "d", Version: "1", Output: []capability.Param{{Name: "a", Type: capability.String}, {Name: "a", Type: capability.String}}}, `capability x: output param "a" is declared twice`},
		{"synonym type", capability.Capability{ID: "x", Description: "d", Version: "1", Input: []capability.Param{{Name: "a", Type: "int"}}}, `capability x: input param "a" has type "int"; want one of [string integer number boolean object array]`},
		{"duplicate id", valid, `capability id "ok" is already registered`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := capability.NewRegistry(valid, tt.cap)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}

func TestRegistryKeepsRegistrationOrder(t *testing.T) {
	reg, err := capability.NewRegistry(
		capability.Capability{ID: "b", Description: "d", Version: "1"},
		capability.Capability{ID: "a", Description: "d", Version: "1"},
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := reg.IDs(); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("IDs() = %v", got)
	}
	if c, ok := reg.Lookup("a"); !ok || c.ID != "a" {
		t.Errorf("Lookup(a) = %v, %v", c, ok)
	}
	if _, ok := reg.Lookup("c"); ok {
		t.Error("Lookup(c) found something")
	}
}

func TestParseType(t *testing.T) {
	tests := []struct {
		in               string
		want             capability.Type
		canonical, known bool
	}{
		{"string", capability.String, true, true},
		{"integer", capability.Integer, true, true},
		{"int", capability.Integer, false, true},
		{"long", capability.Integer, false, true},
		{"double", capability.Number, false, true},
		{"float", capability.Number, false, true},
		{"bool", capability.Boolean, false, true},
		{"date", "", false, false},
		{"String", "", false, false},
	}
	for _, tt := range tests {
		got, canonical, known := capability.ParseType(tt.in)
		if got != tt.want || canonical != tt.canonical || known != tt.known {
			t.Errorf("ParseType(%q) = %q, %v, %v; want %q, %v, %v", tt.in, got, canonical, known, tt.want, tt.canonical, tt.known)
		}
	}
}
