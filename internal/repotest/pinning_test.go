package repotest

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// A workflow, as far as these rules need it.
type workflow struct {
	Permissions any            `yaml:"permissions"`
	Env         map[string]any `yaml:"env"`
	Jobs        map[string]job `yaml:"jobs"`
}

type job struct {
	Permissions any    `yaml:"permissions"`
	Uses        string `yaml:"uses"` // a reusable workflow
	Steps       []struct {
		Uses string `yaml:"uses"`
	} `yaml:"steps"`
}

// pinned is an action reference by full commit SHA: owner/repo[/path]@<40 hex digits>.
var pinned = regexp.MustCompile(`^[^@\s]+@[0-9a-f]{40}$`)

// A job's text holds a secret when it names one; secrets.GITHUB_TOKEN and github.token are the
// job's own token, whose reach the permissions say.
var secretRef = regexp.MustCompile(`secrets\.([A-Za-z_][A-Za-z0-9_]*)|secrets:\s*inherit`)

func workflowFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../.github/workflows/*.yml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows in .github/workflows (%v)", err)
	}
	return files
}

// writes reports whether a permissions value grants write access to anything.
func writes(p any) bool {
	switch v := p.(type) {
	case string:
		return v == "write-all"
	case map[string]any:
		for _, level := range v {
			if level == "write" {
				return true
			}
		}
	}
	return false
}

// TestActionsArePinnedByCommit: every action that a job holding a secret or write access runs is
// pinned by its full commit SHA, never by a tag or branch, which its owner (or whoever takes over
// the owner's account) can move to other code that then runs with those secrets. Every other job's
// actions are held to the same rule, so that a job that gains a secret later is pinned already.
func TestActionsArePinnedByCommit(t *testing.T) {
	for _, file := range workflowFiles(t) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var wf workflow
		if err := yaml.Unmarshal(text, &wf); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var raw struct {
			Jobs map[string]yaml.Node `yaml:"jobs"`
		}
		if err := yaml.Unmarshal(text, &raw); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		names := make([]string, 0, len(wf.Jobs))
		for name := range wf.Jobs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			j := wf.Jobs[name]
			node := raw.Jobs[name]
			jobText, _ := yaml.Marshal(&node)
			var holds []string
			for _, m := range secretRef.FindAllStringSubmatch(string(jobText), -1) {
				if m[1] != "GITHUB_TOKEN" {
					holds = append(holds, strings.TrimSpace(m[0]))
				}
			}
			perms := j.Permissions
			if perms == nil {
				perms = wf.Permissions
			}
			if writes(perms) {
				holds = append(holds, "write access")
			}
			why := "runs"
			if len(holds) > 0 {
				why = "holds " + strings.Join(dedupe(holds), ", ") + " and runs"
			}
			uses := []string{j.Uses}
			for _, s := range j.Steps {
				uses = append(uses, s.Uses)
			}
			for _, u := range uses {
				if u == "" || strings.HasPrefix(u, "./") || strings.HasPrefix(u, "docker://") {
					continue // this repository's own code, or an image
				}
				if !pinned.MatchString(u) {
					t.Errorf("%s: job %s %s %s, pinned to a movable tag or branch: pin it by its full commit SHA, with the tag in a comment",
						filepath.Base(file), name, why, u)
				}
			}
		}
	}
}

// taggedPin is a pinned uses: line with the tag it stands for in a comment, so that a reader (and
// Dependabot) knows which release the SHA is: "uses: owner/repo@<sha> # v1.2.3".
var taggedPin = regexp.MustCompile(`uses:\s*\S+@[0-9a-f]{40}\s+#\s*v\d+(\.\d+)*\s*$`)

// TestPinsNameTheirTag: every SHA pin says, in a comment, which tag it is.
func TestPinsNameTheirTag(t *testing.T) {
	for _, file := range workflowFiles(t) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(text), "\n") {
			if pinned.MatchString(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.SplitN(line, "#", 2)[0]), "- uses:"))) &&
				!taggedPin.MatchString(line) {
				t.Errorf("%s:%d: %s: a pinned action needs its tag in a comment (# v1.2.3)", filepath.Base(file), i+1, strings.TrimSpace(line))
			}
		}
	}
}

func dedupe(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
