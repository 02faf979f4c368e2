package intentbridge

import (
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

// patternDescriptor declares an mcp:pattern that is not a regular
// expression, the descriptor's only error.
var patternDescriptor = strings.Replace(notesDescriptor, `mcp:maxLength="20"/>`, `mcp:maxLength="20" mcp:pattern="[a-z"/>`, 1)

// patternRefusal is what mobilemcp lint says of patternDescriptor, and so
// what the host engine's Start says.
const patternRefusal = "intentbridge: the tool cannot start: its descriptor has errors:\n" +
	`  res/xml/notes.xml:5: error: input param "title" has mcp:pattern="[a-z", which is not a regular expression: error parsing regexp: missing closing ]: ` + "`[a-z`" + ` [extension-value]`

// startPattern starts the notes tool on patternDescriptor.
func startPattern(t *testing.T) error {
	t.Helper()
	if patternDescriptor == notesDescriptor {
		t.Fatal("notesDescriptor has no title param with mcp:maxLength to add a pattern to")
	}
	stub := &javaStub{}
	tool := NewTool("res/xml/notes.xml", compiled(patternDescriptor))
	tool.SetHandler("create_note", stub)
	tool.SetHandler("list_notes", stub)
	b, _ := OpenBridge("")
	defer b.Close()
	return b.Start(tool)
}

// patternRefusal is what mobilemcp lint says of patternDescriptor.
func TestPatternRefusalIsLints(t *testing.T) {
	var errs []string
	for _, f := range xmlfile.Lint("res/xml/notes.xml", []byte(patternDescriptor), nil) {
		if f.Severity == descriptor.Error {
			errs = append(errs, f.String())
		}
	}
	if got := "intentbridge: the tool cannot start: its descriptor has errors:\n  " + strings.Join(errs, "\n  "); got != patternRefusal {
		t.Errorf("lint says\n%s\nnot\n%s", got, patternRefusal)
	}
}
