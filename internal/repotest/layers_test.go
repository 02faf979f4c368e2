package repotest

import (
	"encoding/json"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/mobilemcp/mobilemcp/"

// The layers, top first: a package may import its own layer's packages and
// those of the layers below it. internal/ serves every layer.
var layers = [][]string{
	{"cmd/"},
	{"smsapp"},
	{"intentbridge", "mcpserver"},
	{"sms"},
	{"engine/"},
}

// layerOf returns the index of the layer path belongs to, or -1 for
// internal/ and what no layer names (docs).
func layerOf(path string) int {
	for i, layer := range layers {
		for _, prefix := range layer {
			if path == strings.TrimSuffix(prefix, "/") || strings.HasPrefix(path, strings.TrimSuffix(prefix, "/")+"/") {
				return i
			}
		}
	}
	return -1
}

// pkg is what the layer tests read of a package from go list.
type pkg struct {
	ImportPath, Name                   string
	Imports, TestImports, XTestImports []string
}

// modulePackages lists the module's packages, or skips the test where the
// go command cannot.
func modulePackages(t *testing.T) []pkg {
	out, err := exec.Command("go", "list", "-json", "../../...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			return pkgs
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
}

// TestImportsFlowDown: no package imports one of a layer above its own,
// so the engine never learns of a transport or of SMS. A test may use the
// SMS product as its fixture (the engine's tests run the real send_sms),
// but no test reaches a transport or the command line from below.
func TestImportsFlowDown(t *testing.T) {
	checked := 0
	for _, pkg := range modulePackages(t) {
		from := strings.TrimPrefix(pkg.ImportPath, module)
		own := layerOf(from)
		if own < 0 {
			continue
		}
		checked++
		check := func(imports []string, what string, fixture bool) {
			for _, imp := range imports {
				to := strings.TrimPrefix(imp, module)
				if to == imp || to == from {
					continue // another module's, or an external test's own package
				}
				if l := layerOf(to); l >= 0 && l < own && !(fixture && layerOf(to) == layerOf("sms")) {
					t.Errorf("%s%s imports %s, a layer above its own", from, what, to)
				}
			}
		}
		check(pkg.Imports, "", false)
		check(pkg.TestImports, "'s tests", true)
		check(pkg.XTestImports, "'s tests", true)
	}
	if checked < 10 {
		t.Errorf("checked %d packages; the module has more", checked)
	}
}

// The ground floor: internal/ holds small shared leaves, development
// commands (package main, under internal/cmd/) and test kits (under
// internal/testkit and internal/repotest).
const (
	floor    = "internal/"
	commands = "internal/cmd/"
)

// testKits are the internal/ packages that only tests import.
var testKits = []string{"internal/testkit", "internal/repotest"}

// isTestKit reports whether path is a test kit's package.
func isTestKit(path string) bool {
	for _, kit := range testKits {
		if path == kit || strings.HasPrefix(path, kit+"/") {
			return true
		}
	}
	return false
}

// TestTheGroundFloorImportsNothingAbove: a library package under
// internal/ (neither a command nor a test kit) imports no package of the
// module outside internal/, in its code or its tests, so nothing the engine
// imports can import the engine back; and no library imports a command or a
// test kit. Commands and test kits may import anything: nothing but a test
// or the go command imports them.
func TestTheGroundFloorImportsNothingAbove(t *testing.T) {
	libraries := 0
	for _, pkg := range modulePackages(t) {
		from := strings.TrimPrefix(pkg.ImportPath, module)
		library := strings.HasPrefix(from, floor) && pkg.Name != "main" && !isTestKit(from)
		for _, imp := range pkg.Imports {
			to := strings.TrimPrefix(imp, module)
			if to == imp {
				continue
			}
			if strings.HasPrefix(to, commands) || (isTestKit(to) && !isTestKit(from) && pkg.Name != "main") {
				t.Errorf("%s imports %s, which only tests and the go command may use", from, to)
			}
		}
		if !library {
			continue
		}
		libraries++
		for _, imp := range slices.Concat(pkg.Imports, pkg.TestImports, pkg.XTestImports) {
			to := strings.TrimPrefix(imp, module)
			if to != imp && !strings.HasPrefix(to, floor) {
				t.Errorf("%s imports %s: a library under internal/ imports nothing of the module outside internal/", from, to)
			}
		}
	}
	if libraries < 5 {
		t.Errorf("checked %d libraries under internal/; the module has more", libraries)
	}
}
