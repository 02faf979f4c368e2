package xmlfile_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

// A pattern reaches the model as it is, in the tool's input schema: one
// that holds characters nobody sees, such as an instruction spelt in
// variation selectors in an alternative no input matches, is an error.
func TestAPatternWithHiddenTextIsAnError(t *testing.T) {
	hidden := string([]rune{0xFE04, 0xFE09, 0xFE06, 0xFE07}) // "Ig" in variation selectors
	xml := `<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">` + "\n" +
		`<capability id="c" description="Does c." version="1" mcp:readOnly="true"><input>` + "\n" +
		`<param name="p" type="string" required="true" description="A p." mcp:pattern="^(.*|` + hidden + `)$"/>` + "\n" +
		`</input></capability>` + "\n</mobile-mcp-capabilities>\n"
	findings := xmlfile.Lint("mcp_capabilities.xml", []byte(xml), nil)
	want := []want{{"extension-value", 3, fmt.Sprintf(`input param "p" has mcp:pattern=%q, which has a character that is not shown (U+FE04); a pattern reaches the model as it is, so write it in characters the user sees`, "^(.*|"+hidden+")$")}}
	if g := got(findings); !slices.Equal(g, want) {
		t.Errorf("findings\n got %+v\nwant %+v", g, want)
	}
}
