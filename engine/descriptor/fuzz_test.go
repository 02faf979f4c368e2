package descriptor_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
)

// FuzzParse feeds Parse and Lint arbitrary bytes. Beyond never panicking,
// it checks that Lint agrees with Parse about which documents are
// descriptors, and that rendering what Parse read and parsing it again
// gives the same capabilities: Render writes everything Parse reads. The
// seed corpus is testdata/fuzz/FuzzParse, the XML files of testdata and
// the rendered SMS descriptor.
func FuzzParse(f *testing.F) {
	f.Add(descriptor.Render(smsCapabilities(f)))
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
		findings := descriptor.Lint("", data, nil)
		d, err := descriptor.Parse(data)
		if err != nil {
			return
		}
		for _, f := range findings {
			if slices.Contains(fatal, f.Rule) {
				t.Fatalf("Parse read a document that Lint calls %s: %s", f.Rule, f.Message)
			}
		}
		caps := d.Capabilities()
		again, err := descriptor.Parse(descriptor.Render(caps))
		if err != nil {
			t.Fatalf("Parse of Render fails: %v", err)
		}
		if got := again.Capabilities(); !reflect.DeepEqual(got, caps) {
			t.Fatalf("Parse(Render(caps)) differs\n got %+v\nwant %+v", got, caps)
		}
		if _, err := json.Marshal(descriptor.Tools(caps)); err != nil {
			t.Fatalf("tools do not marshal: %v", err)
		}
	})
}
