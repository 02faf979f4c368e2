package repotest

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

const (
	releaseJobs = "../../.github/workflows/release-jobs.yml"
	release     = "../../.github/workflows/release.yml"
	rehearsal   = "../../.github/workflows/rehearsal.yml"
)

// A workflow as these tests read it: its triggers and each job's raw definition.
type rawWorkflow struct {
	On   map[string]any            `yaml:"on"`
	Jobs map[string]map[string]any `yaml:"jobs"`
}

func readWorkflow(t *testing.T, file string) (rawWorkflow, string) {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var wf rawWorkflow
	if err := yaml.Unmarshal(text, &wf); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return wf, string(text)
}

func jobNames(wf rawWorkflow) []string {
	var names []string
	for n := range wf.Jobs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// TestReleaseAndRehearsalShareTheirJobs: the rehearsal is the release's jobs, the same definition
// called with no tag, and the release adds only the jobs that publish (Maven Central, the GitHub
// release, npm, PyPI, the MCP Registry), each after the shared ones; the shared jobs hold no secret
// and write nothing, so the rehearsal runs all of them on any push.
func TestReleaseAndRehearsalShareTheirJobs(t *testing.T) {
	const shared = "./.github/workflows/release-jobs.yml"
	reh, _ := readWorkflow(t, rehearsal)
	if names := jobNames(reh); len(names) != 1 || reh.Jobs[names[0]]["uses"] != shared {
		t.Errorf("rehearsal.yml has the jobs %v; want one that calls %s", names, shared)
	}
	for _, j := range reh.Jobs {
		if with, _ := j["with"].(map[string]any); with["tag"] != "" {
			t.Errorf("the rehearsal calls the release's jobs with the tag %q; a rehearsal has none", with["tag"])
		}
	}
	rel, _ := readWorkflow(t, release)
	var callers, own []string
	for _, name := range jobNames(rel) {
		if rel.Jobs[name]["uses"] == shared {
			callers = append(callers, name)
		} else {
			own = append(own, name)
		}
	}
	if len(callers) != 1 {
		t.Fatalf("release.yml calls %s from %v; want one job", shared, callers)
	}
	for _, name := range own {
		if name != "github-release" && name != "publish" && !strings.HasPrefix(name, "publish-") {
			t.Errorf("release.yml has its own job %s, which publishes nothing: it belongs in release-jobs.yml, where the rehearsal runs it too", name)
		}
		if !needsJob(rel, name, callers[0]) {
			t.Errorf("release.yml's %s does not need %s: it would publish before the release's jobs pass", name, callers[0])
		}
	}

	jobs, text := readWorkflow(t, releaseJobs)
	if strings.Contains(text, "secrets.") || strings.Contains(text, "secrets: inherit") {
		t.Errorf("release-jobs.yml names a secret: the rehearsal runs it on every push, and only release.yml's publish job may hold one")
	}
	for _, name := range jobNames(jobs) {
		if writes(jobs.Jobs[name]["permissions"]) {
			t.Errorf("release-jobs.yml's %s asks to write: only release.yml's github-release may", name)
		}
	}
	for _, want := range []string{"tests", "host-engines", "host-engines-macos", "cli", "packages", "packages-smoke", "stage", "apk-signing", "gate", "consumer-smoke", "device-check"} {
		if _, ok := jobs.Jobs[want]; !ok {
			t.Errorf("release-jobs.yml has no %s job", want)
		}
	}
}

// needsJob reports whether job needs want, itself or through the jobs it needs.
func needsJob(wf rawWorkflow, job, want string) bool {
	var needs []string
	switch n := wf.Jobs[job]["needs"].(type) {
	case string:
		needs = []string{n}
	case []any:
		for _, v := range n {
			if s, ok := v.(string); ok {
				needs = append(needs, s)
			}
		}
	}
	for _, n := range needs {
		if n == want || needsJob(wf, n, want) {
			return true
		}
	}
	return false
}

// TestRehearsalRunsOnMainPullRequestsAndByHand: the rehearsal's triggers.
func TestRehearsalRunsOnMainPullRequestsAndByHand(t *testing.T) {
	reh, _ := readWorkflow(t, rehearsal)
	push, _ := reh.On["push"].(map[string]any)
	if branches, _ := push["branches"].([]any); !slices.Equal(branches, []any{"main"}) {
		t.Errorf("the rehearsal runs on pushes to %v, not to main", push["branches"])
	}
	pr, _ := reh.On["pull_request"].(map[string]any)
	paths, _ := pr["paths"].([]any)
	for _, want := range []string{".github/workflows/**", "android/**", "ci/**", "scripts/**", "go.mod", ".gitattributes"} {
		if !slices.Contains(paths, any(want)) {
			t.Errorf("a pull request that touches %s does not run the rehearsal", want)
		}
	}
	if _, ok := reh.On["workflow_dispatch"]; !ok {
		t.Errorf("the rehearsal cannot be run by hand (workflow_dispatch)")
	}
}

// pipelineStep finds each step of ci/pipeline.sh that a workflow or a test runs.
var pipelineStep = regexp.MustCompile(`ci/pipeline\.sh ([a-z][a-z-]*)`)

// TestPipelineTestCoversTheWorkflowsSteps: every step of ci/pipeline.sh that a workflow runs is run
// by ci/pipeline_test.sh against fakes, and every other ci/ script by it or, for real, by
// ci/release-check.sh (make release-check, in make test).
func TestPipelineTestCoversTheWorkflowsSteps(t *testing.T) {
	testScript, err := os.ReadFile("../../ci/pipeline_test.sh")
	if err != nil {
		t.Fatal(err)
	}
	releaseCheck, err := os.ReadFile("../../ci/release-check.sh")
	if err != nil {
		t.Fatal(err)
	}
	tested := map[string]bool{}
	for _, m := range pipelineStep.FindAllStringSubmatch(string(testScript), -1) {
		tested[m[1]] = true
	}
	found := 0
	for _, file := range workflowFiles(t) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var code []string // the lines that are not comments
		for _, line := range strings.Split(string(text), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "#") {
				code = append(code, line)
			}
		}
		data := strings.Join(code, "\n")
		for _, m := range pipelineStep.FindAllStringSubmatch(data, -1) {
			found++
			if !tested[m[1]] {
				t.Errorf("%s runs ci/pipeline.sh %s, which ci/pipeline_test.sh never runs", file[len("../../"):], m[1])
			}
		}
		for _, script := range regexp.MustCompile(`ci/[\w-]+\.sh`).FindAllString(data, -1) {
			if script != "ci/pipeline.sh" && !strings.Contains(string(testScript), script) &&
				!regexp.MustCompile(`(?m)^\s*`+regexp.QuoteMeta(script)+`\s`).Match(releaseCheck) {
				t.Errorf("%s runs %s, which neither ci/pipeline_test.sh nor ci/release-check.sh runs", file[len("../../"):], script)
			}
		}
	}
	if found == 0 {
		t.Error("no workflow runs ci/pipeline.sh; the pattern no longer finds the steps")
	}
}

// TestReleasesBuildWithGoModsToolchain: go.mod names the Go toolchain, a release of at least its
// go line, and every workflow's setup-go takes the version from go.mod, where it reads the
// toolchain line (actions/setup-go v6 and newer).
func TestReleasesBuildWithGoModsToolchain(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	goLine := regexp.MustCompile(`(?m)^go (\d+\.\d+(?:\.\d+)?)$`).FindSubmatch(mod)
	toolchain := regexp.MustCompile(`(?m)^toolchain go(\d+\.\d+\.\d+)$`).FindSubmatch(mod)
	if goLine == nil || toolchain == nil {
		t.Fatalf("go.mod has no go line or no toolchain line (toolchain go1.X.Y): the release would build with the go line's release")
	}
	if !versionAtLeast(string(toolchain[1]), string(goLine[1])) {
		t.Errorf("go.mod's toolchain go%s is older than its go %s", toolchain[1], goLine[1])
	}
	for _, file := range workflowFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i, line := range lines {
			if !strings.Contains(line, "uses: actions/setup-go@") {
				continue
			}
			block := strings.Join(lines[i:min(i+4, len(lines))], "\n")
			if !strings.Contains(block, "go-version-file: go.mod") {
				t.Errorf("%s:%d: setup-go without go-version-file: go.mod would not build with go.mod's toolchain", file[len("../../"):], i+1)
			}
		}
	}
}

func versionAtLeast(got, want string) bool {
	g, w := strings.Split(got, "."), strings.Split(want, ".")
	for i := range max(len(g), len(w)) {
		var gi, wi int
		if i < len(g) {
			gi, _ = strconv.Atoi(g[i])
		}
		if i < len(w) {
			wi, _ = strconv.Atoi(w[i])
		}
		if gi != wi {
			return gi > wi
		}
	}
	return true
}

// TestPublishLeavesTheGitHubReleaseItsTime: the publish job's wait for Central (POLL_BUDGET) ends
// well before the job's timeout, so the job ends by itself, passing once Central publishes, and the
// GitHub release after it runs; a job cancelled at its timeout would never make it.
func TestPublishLeavesTheGitHubReleaseItsTime(t *testing.T) {
	rel, _ := readWorkflow(t, release)
	publish := rel.Jobs["publish"]
	timeout, _ := publish["timeout-minutes"].(int)
	budget := -1
	steps, _ := publish["steps"].([]any)
	for _, s := range steps {
		step, _ := s.(map[string]any)
		if run, _ := step["run"].(string); strings.Contains(run, "ci/publish-central.sh") {
			env, _ := step["env"].(map[string]any)
			budget, _ = strconv.Atoi(env["POLL_BUDGET"].(string))
		}
	}
	if budget <= 0 {
		t.Fatalf("release.yml's publish job runs ci/publish-central.sh without a POLL_BUDGET")
	}
	// Ten minutes for the checkout, the downloads, the APK signing, and the bundle's signing and upload.
	if budget+10*60 > timeout*60 {
		t.Errorf("publish waits up to %d s for Central in a job of %d minutes: leave it ten minutes more", budget, timeout)
	}
}

// publishing is what publishes: a command or step that uploads to Maven Central, npm, PyPI, the MCP
// Registry or a GitHub release, or that signs with the release key (sign-apks; the rehearsal signs
// with a throwaway key, sign-apks-throwaway). None may run in the rehearsal.
var publishing = []*regexp.Regexp{
	regexp.MustCompile(`\bnpm\s+publish\b`),
	regexp.MustCompile(`\buv\s+publish\b`),
	regexp.MustCompile(`\btwine\s+upload\b`),
	regexp.MustCompile(`registry/cmd/publisher\b|\bmcp-publisher\b|"\$publisher"\s+publish`),
	regexp.MustCompile(`\bgh\s+release\b|ci/pipeline\.sh\s+github-release\b`),
	regexp.MustCompile(`ci/publish-central\.sh\s+[^s\s]`), // "ci/publish-central.sh sign DIR" only signs
	regexp.MustCompile(`ci/pipeline\.sh\s+sign-apks\s`),
}

// building is what builds a release's artifacts: the CLI archives, the desktop packages, the Maven
// publications and the APKs.
var building = []*regexp.Regexp{
	regexp.MustCompile(`ci/release-binaries\.sh\b`),
	regexp.MustCompile(`ci/release-packages\.sh\b`),
	regexp.MustCompile(`ci/pipeline\.sh\s+(stage|apks)\b`),
	regexp.MustCompile(`(^|\s)make\s|gradlew|\bgo\s+build\b`),
}

// jobSteps are the steps of a job: each its uses, its run script and its with.
func jobSteps(j map[string]any) []map[string]any {
	var out []map[string]any
	steps, _ := j["steps"].([]any)
	for _, s := range steps {
		if step, ok := s.(map[string]any); ok {
			out = append(out, step)
		}
	}
	return out
}

// stepText is what a step runs: its name, its run script, and its inputs (an action's script:).
func stepText(step map[string]any) string {
	run, _ := step["run"].(string)
	name, _ := step["name"].(string)
	text := []string{name, run}
	with, _ := step["with"].(map[string]any)
	for _, k := range slices.Sorted(maps.Keys(with)) {
		if v, ok := with[k].(string); ok {
			text = append(text, v)
		}
	}
	return strings.Join(text, "\n")
}

// TestRehearsalPublishesNothing: the jobs the rehearsal runs on every push (release-jobs.yml) build
// every package a release publishes (the CLI archives, the npm, PyPI and Claude Desktop packages,
// the Maven publications, the APKs) and publish none of them: Maven Central, the GitHub release,
// npm, PyPI and the MCP Registry are release.yml's own jobs. Those jobs build nothing: they publish
// the artifacts that the shared jobs built and checked, so the rehearsal ran on the same bytes.
func TestRehearsalPublishesNothing(t *testing.T) {
	jobs, _ := readWorkflow(t, releaseJobs)
	var all []string
	uploaded := map[string]bool{}
	for _, name := range jobNames(jobs) {
		for _, step := range jobSteps(jobs.Jobs[name]) {
			text := stepText(step)
			all = append(all, text)
			for _, p := range publishing {
				if m := p.FindString(text); m != "" {
					t.Errorf("release-jobs.yml's %s runs %q, which publishes: the rehearsal runs every job of release-jobs.yml on every push", name, m)
				}
			}
			if uses, _ := step["uses"].(string); strings.HasPrefix(uses, "actions/upload-artifact@") {
				with, _ := step["with"].(map[string]any)
				if n, _ := with["name"].(string); n != "" {
					uploaded[n] = true
				}
			}
		}
	}
	joined := strings.Join(all, "\n")
	for _, want := range []string{"ci/release-binaries.sh", "ci/release-packages.sh", "ci/install-packages.sh", "ci/pipeline.sh stage",
		"ci/pipeline.sh apks", "ci/pipeline.sh sign-apks-throwaway", "ci/pipeline.sh gate", "ci/pipeline.sh consumer-smoke", "ci/pipeline.sh device-check"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no job of release-jobs.yml runs %s: the rehearsal would not build or check what the release publishes", want)
		}
	}

	rel, _ := readWorkflow(t, release)
	for _, name := range jobNames(rel) {
		if _, shared := rel.Jobs[name]["uses"]; shared {
			continue
		}
		for _, step := range jobSteps(rel.Jobs[name]) {
			text := stepText(step)
			for _, p := range building {
				if m := p.FindString(text); m != "" {
					t.Errorf("release.yml's %s runs %q: a job that publishes takes what the shared jobs built (and the rehearsal ran), and builds nothing", name, strings.TrimSpace(m))
				}
			}
			uses, _ := step["uses"].(string)
			with, _ := step["with"].(map[string]any)
			if n, _ := with["name"].(string); strings.HasPrefix(uses, "actions/download-artifact@") && !uploaded[n] && n != "apks" {
				t.Errorf("release.yml's %s downloads the artifact %q, which no job of release-jobs.yml uploads", name, n)
			}
		}
	}
}

// TestReleasingSaysTagOnlyAGreenRehearsal: RELEASING.md shows the rehearsal's state on main (its
// badge, linked to its runs) and says to tag only a commit whose rehearsal is green.
func TestReleasingSaysTagOnlyAGreenRehearsal(t *testing.T) {
	text, err := os.ReadFile("../../RELEASING.md")
	if err != nil {
		t.Fatal(err)
	}
	badge := regexp.MustCompile(`\[!\[[^\]]*\]\(https://github\.com/[\w.-]+/[\w.-]+/actions/workflows/rehearsal\.yml/badge\.svg[^)]*\)\]\(https://github\.com/[\w.-]+/[\w.-]+/actions/workflows/rehearsal\.yml[^)]*\)`)
	if !badge.Match(text) {
		t.Errorf("RELEASING.md has no badge of .github/workflows/rehearsal.yml linked to its runs")
	}
	if _, err := os.Stat(rehearsal); err != nil {
		t.Errorf("RELEASING.md's badge names rehearsal.yml: %v", err)
	}
	if !regexp.MustCompile(`(?i)tag only a commit whose rehearsal is green`).Match(text) {
		t.Errorf("RELEASING.md does not say \"Tag only a commit whose rehearsal is green\"")
	}
}

// runsPython finds a step that runs Python: pip, a virtual environment, or ci/pipeline.sh
// packages-smoke, which makes one.
var runsPython = regexp.MustCompile(`\bpython3?\s|\bpip\s|ci/pipeline\.sh\s+packages-smoke\b`)

// TestMacOSAndWindowsJobsSetUpTheirPython: a job on a macOS or Windows runner that runs Python sets
// it up with actions/setup-python: the runner images promise no python command there (macOS has
// python3 alone), and a release job must not fail on the image's choice.
func TestMacOSAndWindowsJobsSetUpTheirPython(t *testing.T) {
	found := 0
	for _, file := range []string{releaseJobs, release, "../../.github/workflows/build.yml"} {
		wf, _ := readWorkflow(t, file)
		for _, name := range jobNames(wf) {
			j := wf.Jobs[name]
			runners, _ := yaml.Marshal(map[string]any{"runs-on": j["runs-on"], "strategy": j["strategy"]})
			if !regexp.MustCompile(`(?i)macos|windows`).Match(runners) {
				continue
			}
			python, setup := false, false
			for _, step := range jobSteps(j) {
				if uses, _ := step["uses"].(string); strings.HasPrefix(uses, "actions/setup-python@") {
					setup = true
				}
				if runsPython.MatchString(stepText(step)) {
					python = true
					found++
				}
			}
			if python && !setup {
				t.Errorf("%s's %s runs Python on macOS or Windows without actions/setup-python", file[len("../../"):], name)
			}
		}
	}
	if found == 0 {
		t.Error("no job on macOS or Windows runs Python; the pattern no longer finds packages-smoke")
	}
}
