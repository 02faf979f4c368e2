package repotest

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestWorkflowsRunScriptsThatExist: every script of the repository that a
// workflow step runs (scripts/…, ci/…) is there and executable, so that a
// moved or renamed script fails make test here rather than a hosted run.
func TestWorkflowsRunScriptsThatExist(t *testing.T) {
	script := regexp.MustCompile(`(?:^|[\s"'(])((?:scripts|ci)/[\w./-]+\.sh)\b`)
	found := 0
	for _, file := range workflowFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range script.FindAllStringSubmatch(string(data), -1) {
			found++
			info, err := os.Stat(filepath.Join("../..", m[1]))
			switch {
			case err != nil:
				t.Errorf("%s runs %s, which does not exist", filepath.Base(file), m[1])
			case info.Mode()&0o111 == 0:
				t.Errorf("%s runs %s, which is not executable", filepath.Base(file), m[1])
			}
		}
	}
	if found == 0 {
		t.Error("the workflows run no script; the pattern no longer finds them")
	}
}
