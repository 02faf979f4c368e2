package xmlfile_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/engine/mcptool"
)

// FuzzParse feeds Parse and Lint arbitrary bytes. Beyond never panicking,
// it checks that Lint agrees with Parse about which documents are
// descriptors, that rendering what Parse read and parsing it again gives
// the same capabilities (Render writes everything Parse reads), and that
// the tree a phone's engine reads (TreeJSON, the form of a compiled
// resource) declares the same capabilities and breaks the same rules as
// the text. The seed corpus is testdata/fuzz/FuzzParse, the XML files of
// testdata and the rendered SMS descriptor.
func FuzzParse(f *testing.F) {
	f.Add(xmlfile.Render(smsCapabilities(f)))
	files, _ := filepath.Glob("testdata/*/*.xml")
	more, _ := filepath.Glob("testdata/*/*/*.xml")
	for _, file := range append(files, more...) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	fatal := []string{"xml-syntax", "not-descriptor", "root-element"}
	f.Fuzz(func(t *testing.T, data []byte) {
		// No file name: a manifest then looks for no res directory, so
		// the fuzzer never reads the file system.
		findings := xmlfile.Lint("", data, nil)
		compiledAgrees(t, data)
		d, err := xmlfile.Parse(data)
		if err != nil {
			return
		}
		for _, f := range findings {
			if slices.Contains(fatal, f.Rule) {
				t.Fatalf("Parse read a document that Lint calls %s: %s", f.Rule, f.Message)
			}
		}
		caps := d.Capabilities()
		again, err := xmlfile.Parse(xmlfile.Render(caps))
		if err != nil {
			t.Fatalf("Parse of Render fails: %v", err)
		}
		if got := again.Capabilities(); !reflect.DeepEqual(got, caps) {
			t.Fatalf("Parse(Render(caps)) differs\n got %+v\nwant %+v", got, caps)
		}
		if _, err := json.Marshal(mcptool.Tools(caps)); err != nil {
			t.Fatalf("tools do not marshal: %v", err)
		}
	})
}

// compiledAgrees checks that the compiled form of data, when data is XML,
// reads as the text does: the same capabilities, and findings of the same
// rules. (Their messages may name other prefixes, mcp rather than the
// file's own, and their lines the start tag rather than an attribute's.)
func compiledAgrees(t *testing.T, data []byte) {
	root, err := xmlfile.Load(data)
	if err != nil {
		return
	}
	tree, err := xmlfile.TreeJSON(data)
	if err != nil {
		t.Fatalf("TreeJSON fails where Load does not: %v", err)
	}
	compiled, err := descriptor.DecodeTree(tree)
	if err != nil {
		t.Fatalf("DecodeTree of TreeJSON fails: %v\n%s", err, tree)
	}
	opts := &descriptor.ReadOptions{Pattern: xmlfile.CheckPattern}
	file, findings := descriptor.Lint("", root, opts)
	compiledFile, compiledFindings := descriptor.Lint("", compiled, opts)
	if (file == nil) != (compiledFile == nil) {
		t.Fatalf("the text reads as a descriptor: %v; its compiled form: %v", file != nil, compiledFile != nil)
	}
	if file != nil && !reflect.DeepEqual(file.Capabilities(), compiledFile.Capabilities()) {
		t.Fatalf("the compiled form declares other capabilities\n got %+v\nwant %+v", compiledFile.Capabilities(), file.Capabilities())
	}
	if got, want := rules(compiledFindings), rules(findings); !slices.Equal(got, want) {
		t.Fatalf("the compiled form breaks the rules %q; the text %q\n%s", got, want, tree)
	}
}

// rules are the rules findings break, sorted, each as often as it is broken.
func rules(findings []descriptor.Finding) []string {
	var ids []string
	for _, f := range findings {
		ids = append(ids, f.Rule)
	}
	slices.Sort(ids)
	return ids
}
