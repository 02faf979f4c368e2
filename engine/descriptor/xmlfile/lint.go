package xmlfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/internal/osfile"
)

// Options configure Lint and LintPath.
type Options struct {
	// ResDir is the res directory in which a manifest's
	// @xml/mcp_capabilities reference must resolve, or a module that
	// holds it as res or src/main/res. When it is empty, Lint looks for a
	// directory named res next to the manifest, then in the manifest's
	// parent directory.
	ResDir string
}

// Lint checks one file: a capability descriptor, or an AndroidManifest.xml
// that declares the tool service, and then the descriptor it points at,
// when its res directory is found. It tells them apart by the root
// element. name is the file's path: it labels the findings and locates a
// manifest's res directory. opts may be nil. The findings are in file and
// line order.
func Lint(name string, data []byte, opts *Options) []descriptor.Finding {
	if opts == nil {
		opts = &Options{}
	}
	t, fatal := open(data)
	if fatal != nil {
		fatal.File = name
		return []descriptor.Finding{*fatal}
	}
	root := t.element(t.root, 1)
	if is(root, manifestTag) {
		m := &manifestLinter{}
		m.manifest(root, name, opts)
		for i := range m.findings {
			m.findings[i].File = name
		}
		findings := append(m.findings, m.linked...)
		descriptor.SortFindings(findings)
		return findings
	}
	_, findings := descriptor.Lint(name, root, &descriptor.ReadOptions{Pattern: CheckPattern})
	return findings
}

// open loads data as XML, or returns the fatal finding that says why it
// cannot be: it is not XML at all, or it is malformed.
func open(data []byte) (*tree, *descriptor.Finding) {
	text := bytes.TrimLeft(bytes.TrimPrefix(data, []byte(bom)), " \t\r\n")
	if len(text) == 0 || text[0] != '<' {
		f := ruleNotDescriptor.At(1, 1, "the file is not XML; a capability descriptor is an XML file whose root element is <%s>", rootTag)
		return nil, &f
	}
	t, err := load(data)
	if err != nil {
		f := ruleXMLSyntax.At(err.line, err.col, "the file is not well-formed XML: %s", err.msg)
		return nil, &f
	}
	return t, nil
}

// is reports whether e is the element tag, in no namespace.
func is(e *descriptor.Element, tag string) bool {
	return e.Prefix == "" && e.Space == "" && e.Name == tag
}

// LintPath checks the file at path, or, when path is a directory, the
// module or res directory it is. In a res directory it checks every
// descriptor: the XML files under xml and its qualified variants (xml-v26,
// ...) whose root is <mobile-mcp-capabilities> or whose name is
// mcp_capabilities.xml; other resources there are not descriptors and are
// skipped. A module directory, one without xml directories, stands for
// its res directory and its AndroidManifest.xml, in this repository's
// layout (both beside each other in it) or a Gradle module's (both in
// src/main), and both are checked: the manifest's tool service and the
// descriptor it points at, and every descriptor in res. Each finding is
// reported once. The error is about reading; problems with the content
// are findings.
func LintPath(path string, opts *Options) ([]descriptor.Finding, error) {
	if opts == nil {
		opts = &Options{}
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		data, err := ReadFile(path)
		if err != nil {
			return nil, err
		}
		return Lint(path, data, opts), nil
	}
	res := resDirIn(path)
	files, err := resDescriptors(res)
	if err != nil {
		return nil, err
	}
	manifest := ""
	if res != path {
		manifest = manifestIn(path)
	}
	if len(files) == 0 && manifest == "" {
		f := ruleNotDescriptor.At(0, 0, "%s holds no capability descriptor, neither in xml/ nor in res/xml/ nor in src/main/res/xml/; write one at %s, as docs/reference/descriptor.md describes", path, newDescriptorPath(path))
		f.File = path
		return []descriptor.Finding{f}, nil
	}
	var findings []descriptor.Finding
	if manifest != "" {
		data, err := ReadFile(manifest)
		if err != nil {
			return nil, err
		}
		o := *opts
		if o.ResDir == "" {
			o.ResDir = res
		}
		findings = Lint(manifest, data, &o)
	}
	for _, file := range files {
		data, err := ReadFile(file)
		if err != nil {
			return nil, err
		}
		for _, f := range Lint(file, data, opts) {
			if !slices.Contains(findings, f) { // the manifest's descriptor is linted with it
				findings = append(findings, f)
			}
		}
	}
	return findings, nil
}

// moduleLayouts are where a module keeps its AndroidManifest.xml and res
// directory, relative to the module: at its root, as in this repository,
// or in src/main, as in a Gradle module.
var moduleLayouts = []string{"", filepath.Join("src", "main")}

// manifestIn returns the AndroidManifest.xml of the module dir, or "" when
// it has none in either layout.
func manifestIn(dir string) string {
	for _, layout := range moduleLayouts {
		if m := filepath.Join(dir, layout, "AndroidManifest.xml"); isFile(m) {
			return m
		}
	}
	return ""
}

// newDescriptorPath is where a descriptor belongs in dir, a directory that
// holds none: in xml/ of a res directory, else in the res directory of the
// module's layout (src/main/res when there is a src/main).
func newDescriptorPath(dir string) string {
	res := filepath.Join(dir, "res")
	switch {
	case filepath.Base(dir) == "res":
		res = dir
	case isDir(filepath.Join(dir, "src", "main")):
		res = filepath.Join(dir, "src", "main", "res")
	}
	return filepath.Join(res, "xml", "mcp_capabilities.xml")
}

// resDescriptors returns the descriptors of a res directory: its XML
// resources whose root is <mobile-mcp-capabilities>, and any named
// mcp_capabilities.xml, so that a misnamed root is reported, not skipped.
func resDescriptors(res string) ([]string, error) {
	var files []string
	for _, dir := range xmlDirs(res) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, entry := range entries {
			file := filepath.Join(dir, entry.Name())
			if entry.IsDir() || filepath.Ext(file) != ".xml" {
				continue
			}
			root, err := fileRootName(file)
			if err != nil {
				return nil, err
			}
			if root == rootTag || entry.Name() == "mcp_capabilities.xml" {
				files = append(files, file)
			}
		}
	}
	return files, nil
}

// resDirIn returns the res directory that dir stands for: dir itself when
// it has an xml directory, else the res directory of the module dir is, in
// either layout (moduleLayouts), else dir.
func resDirIn(dir string) string {
	if len(xmlDirs(dir)) == 0 {
		for _, layout := range moduleLayouts {
			if res := filepath.Join(dir, layout, "res"); isDir(res) {
				return res
			}
		}
	}
	return dir
}

// xmlDirs returns the xml directory of a res directory and its qualified
// variants, such as xml-v26, in name order.
func xmlDirs(res string) []string {
	entries, _ := os.ReadDir(res) // a missing res directory has none
	var dirs []string
	for _, entry := range entries {
		if name := entry.Name(); entry.IsDir() && (name == "xml" || strings.HasPrefix(name, "xml-")) {
			dirs = append(dirs, filepath.Join(res, name))
		}
	}
	return dirs
}

// maxFileBytes bounds what lint reads of one file: a descriptor of 10,000
// capabilities is 9 MB, and a manifest is far smaller.
const maxFileBytes = 64 << 20

// ReadFile reads the descriptor or manifest at path, or fails when it is
// larger than 64 MiB, far more than any is, or is not a regular file (a
// FIFO would block the read, a device never end it). LintPath reads
// files with it.
func ReadFile(path string) ([]byte, error) {
	data, err := osfile.ReadFile(path, maxFileBytes)
	if osfile.IsTooLarge(err) {
		return nil, fmt.Errorf("%s is larger than %d MiB, which no descriptor or manifest is; it was not read", path, maxFileBytes>>20)
	}
	return data, err
}

// fileRootName returns the name of the root element of the XML file at
// path, reading only as far as its start tag (and never more than
// maxFileBytes).
func fileRootName(path string) (string, error) {
	f, err := osfile.OpenRegular(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return rootName(io.LimitReader(f, maxFileBytes)), nil
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}
