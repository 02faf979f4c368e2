package xmlfile_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
)

// manifestPath is a valid manifest whose res directory is testdata/res,
// found in the manifest's parent directory as in this repository.
const manifestPath = "testdata/app/AndroidManifest.xml"

func readFixture(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestLintValidManifest(t *testing.T) {
	if findings := xmlfile.Lint(manifestPath, []byte(readFixture(t, manifestPath)), nil); len(findings) != 0 {
		t.Errorf("findings for a valid manifest: %v", findings)
	}
}

// The lines of the fixture manifest.
const (
	serviceLine   = `    <service android:name=".ToolService" android:exported="true">`
	filterLine    = `      <intent-filter><action android:name="mobile.mcp.SERVICE" /></intent-filter>`
	nameLine      = `      <meta-data android:name="mobile.mcp.tool.name" android:value="@string/tool_name" />`
	capsLine      = `      <meta-data android:name="mobile.mcp.tool.capabilities" android:resource="@xml/mcp_capabilities" />`
	appLine       = `  <application android:label="Example">`
	secondService = `    <service android:name=".Other" android:exported="true">` + "\n" + filterLine + "\n    </service>\n"
)

// manifestCases edit the fixture so that it fails exactly one rule.
var manifestCases = []struct {
	name     string
	old, new string
	want     want
}{
	{"no service filter", filterLine, "",
		want{"manifest-service", 2, `no <service> has <intent-filter><action android:name="mobile.mcp.SERVICE"/></intent-filter>; declare the tool service with that filter inside <application> (Mobile-MCP spec §1.1)`}},
	{"misspelt service action", filterLine, `      <intent-filter><action android:name="mobile.mcp.SERVICES" /></intent-filter>` + "\n",
		want{"manifest-service", 4, `service .ToolService has <action android:name="mobile.mcp.SERVICES">, which agents do not look for; did you mean mobile.mcp.SERVICE?`}},
	{"two services", "  </application>", secondService + "  </application>\n",
		want{"manifest-one-service", 9, `service .Other also has the mobile.mcp.SERVICE filter, but a tool exposes exactly one Mobile-MCP service (the first is at line 3); remove the filter from one`}},
	{"not exported", serviceLine, "    <service android:name=\".ToolService\"\n        android:exported=\"false\">",
		want{"manifest-exported", 4, `service .ToolService has android:exported="false", so assistants in other apps cannot start it; set android:exported="true"`}},
	{"exported missing", serviceLine, `    <service android:name=".ToolService">`,
		want{"manifest-exported", 3, `service .ToolService has no android:exported attribute; add android:exported="true" so that assistants in other apps can find and start it`}},
	{"name meta-data missing", nameLine, "",
		want{"manifest-meta-data", 3, `service .ToolService has no <meta-data android:name="mobile.mcp.tool.name">; add <meta-data android:name="mobile.mcp.tool.name" android:value="@string/tool_name"/> inside it`}},
	{"meta-data under application", nameLine, "",
		want{"manifest-meta-data", 4, `the <meta-data android:name="mobile.mcp.tool.name"> at line 3 is under <application>, but agents read it from the service; move it inside service .ToolService`}},
	{"name as a resource", nameLine, `      <meta-data android:name="mobile.mcp.tool.name" android:resource="@string/tool_name" />`,
		want{"manifest-meta-data-kind", 5, `mobile.mcp.tool.name uses android:resource, but agents read it as a string with Bundle.getString; write android:value="@string/tool_name"`}},
	{"capabilities as a value", capsLine, `      <meta-data android:name="mobile.mcp.tool.capabilities" android:value="@xml/mcp_capabilities" />`,
		want{"manifest-meta-data-kind", 7, `mobile.mcp.tool.capabilities uses android:value, but agents read it as a resource id with Bundle.getInt and load it with Resources.getXml; write android:resource="@xml/mcp_capabilities"`}},
	{"capabilities without a value", capsLine, `      <meta-data android:name="mobile.mcp.tool.capabilities" />`,
		want{"manifest-meta-data-kind", 7, `mobile.mcp.tool.capabilities has no android:resource; write android:resource="@xml/mcp_capabilities"`}},
	{"capabilities in raw", capsLine, `      <meta-data android:name="mobile.mcp.tool.capabilities" android:resource="@raw/mcp_capabilities" />`,
		want{"manifest-meta-data-kind", 7, `mobile.mcp.tool.capabilities points at "@raw/mcp_capabilities", which is not an XML resource; write android:resource="@xml/mcp_capabilities"`}},
	{"missing descriptor", capsLine, `      <meta-data android:name="mobile.mcp.tool.capabilities" android:resource="@xml/tools" />`,
		want{"manifest-descriptor", 7, `@xml/tools points at testdata/res/xml/tools.xml, which does not exist; write the descriptor there, as docs/reference/descriptor.md describes`}},
	{"not a descriptor", capsLine, `      <meta-data android:name="mobile.mcp.tool.capabilities" android:resource="@xml/network_security_config" />`,
		want{"manifest-descriptor", 7, `@xml/network_security_config points at testdata/res/xml/network_security_config.xml, which is not a capability descriptor (its root is "network-security-config", not <mobile-mcp-capabilities>); run mobilemcp lint testdata/res/xml/network_security_config.xml`}},
}

func TestLintManifestRules(t *testing.T) {
	for _, tt := range manifestCases {
		t.Run(tt.name, func(t *testing.T) {
			text := readFixture(t, manifestPath)
			if !strings.Contains(text, tt.old) {
				t.Fatalf("the fixture has no line %q", tt.old)
			}
			text = strings.Replace(text, tt.old+"\n", tt.new, 1)
			if tt.name == "meta-data under application" {
				text = strings.Replace(text, appLine+"\n", appLine+"\n"+nameLine+"\n", 1)
			}
			findings := xmlfile.Lint(manifestPath, []byte(text), nil)
			if g := got(findings); !slices.Equal(g, []want{tt.want}) {
				t.Errorf("findings\n got %+v\nwant %+v\nmanifest:\n%s", g, []want{tt.want}, text)
			}
		})
	}
}

func TestLintManifestWithoutResDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "AndroidManifest.xml")
	findings := xmlfile.Lint(path, []byte(readFixture(t, manifestPath)), nil)
	w := want{"manifest-res-dir", 7, "found no res directory next to " + path + " or in its parent, so @xml/mcp_capabilities was not checked; name the res directory too: mobilemcp lint " + path + " path/to/res"}
	if g := got(findings); !slices.Equal(g, []want{w}) {
		t.Errorf("findings\n got %+v\nwant %+v", g, []want{w})
	}
}

func TestLintManifestWithResDirOption(t *testing.T) {
	path := filepath.Join(t.TempDir(), "AndroidManifest.xml")
	findings := xmlfile.Lint(path, []byte(readFixture(t, manifestPath)), &xmlfile.Options{ResDir: "testdata/res"})
	if len(findings) != 0 {
		t.Errorf("findings with ResDir set: %v", findings)
	}
}

func TestLintManifestChecksItsDescriptor(t *testing.T) {
	dir := t.TempDir()
	manifest := filepath.Join(dir, "AndroidManifest.xml")
	caps := filepath.Join(dir, "res", "xml", "mcp_capabilities.xml")
	if err := os.MkdirAll(filepath.Dir(caps), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(caps, []byte("<mobile-mcp-capabilities version=\"1\"/>"), 0o644)
	findings := xmlfile.Lint(manifest, []byte(readFixture(t, manifestPath)), nil)
	w := []want{
		{"no-capabilities", 1, "the descriptor declares no <capability>; add one for each function the tool offers"},
		{"root-version", 1, `<mobile-mcp-capabilities> has version="1", but this is the format of Mobile-MCP 1.0; write version="1.0"`},
	}
	if g := got(findings); !slices.Equal(g, w) || findings[0].File != caps || findings[1].File != caps {
		t.Errorf("findings\n got %+v\nwant %+v in %s", findings, w, caps)
	}
}
