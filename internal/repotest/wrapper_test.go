package repotest

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const (
	wrapperDir        = "../../android/gradle/wrapper"
	wrapperJar        = wrapperDir + "/gradle-wrapper.jar"
	wrapperProperties = wrapperDir + "/gradle-wrapper.properties"
)

// publishedWrapperJars is the SHA-256 that Gradle publishes for the wrapper jar of each version
// (https://services.gradle.org/distributions/gradle-VERSION-wrapper.jar.sha256, the list that
// gradle/actions/wrapper-validation checks against). To move to another Gradle, run its
// `gradle wrapper --gradle-version VERSION` in android/, and add its published line here.
var publishedWrapperJars = map[string]string{
	"8.11.1": "2db75c40782f5e8ba1fc278a5574bab070adccb2d21ca5a6e5ed840888448046",
}

// gradleVersion is the version of the distribution that gradle-wrapper.properties names.
func gradleVersion(t *testing.T) string {
	t.Helper()
	props, err := os.ReadFile(wrapperProperties)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^distributionUrl=.*/gradle-([0-9][0-9A-Za-z.-]*)-(?:bin|all)\.zip\s*$`).FindSubmatch(props)
	if m == nil {
		t.Fatalf("android/gradle/wrapper/gradle-wrapper.properties has no distributionUrl naming a Gradle distribution")
	}
	return string(m[1])
}

// TestWrapperJarIsTheGradleVersionOfItsProperties: the committed gradle-wrapper.jar is the one
// Gradle published for the version gradle-wrapper.properties names, so that the wrapper that starts
// the build and the build it downloads are one release (a newer wrapper's gradlew calls its jar in
// a way an older jar does not answer, and the other way round).
func TestWrapperJarIsTheGradleVersionOfItsProperties(t *testing.T) {
	version := gradleVersion(t)
	jar, err := os.ReadFile(wrapperJar)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(jar)
	got := hex.EncodeToString(sum[:])
	want, ok := publishedWrapperJars[version]
	switch {
	case !ok:
		t.Fatalf("gradle-wrapper.properties names Gradle %s, whose published wrapper checksum this test does not hold: add it from https://services.gradle.org/distributions/gradle-%s-wrapper.jar.sha256", version, version)
	case got != want:
		t.Fatalf("android/gradle/wrapper/gradle-wrapper.jar has SHA-256 %s, not %s, the one Gradle publishes for %s, the version gradle-wrapper.properties names: run `gradle wrapper --gradle-version %s` with Gradle %s in android/",
			got, want, version, version, version)
	}
}

// TestGradlewRunsFromACRLFCheckout: a checkout with core.autocrlf=true, as on the Windows runners
// that build the consumer app, still has gradlew with LF line endings, runs it, and gets to the
// wrapper's download of the pinned Gradle (blocked here, so it fails after that line); the batch
// file has CRLF, as cmd.exe needs. It checks the committed .gitattributes on the wrapper's files.
func TestGradlewRunsFromACRLFCheckout(t *testing.T) {
	for _, tool := range []string{"git", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("no %s: make deps installs it", tool)
			}
			t.Skipf("no %s", tool)
		}
	}
	tmp := t.TempDir()
	src, dst := filepath.Join(tmp, "src"), filepath.Join(tmp, "checkout")
	files := []string{".gitattributes", "android/gradlew", "android/gradlew.bat",
		"android/gradle/wrapper/gradle-wrapper.jar", "android/gradle/wrapper/gradle-wrapper.properties"}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("../..", f))
		if os.IsNotExist(err) && f == ".gitattributes" {
			continue // then the checkout decides the line endings alone
		}
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(filepath.Join("../..", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(src, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, f), data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git(src, "init", "-q")
	git(src, "add", "-A")
	git(src, "commit", "-q", "-m", "wrapper")
	git(tmp, "-c", "core.autocrlf=true", "clone", "-q", src, dst)

	gradlew, err := os.ReadFile(filepath.Join(dst, "android/gradlew"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(gradlew), "\r") {
		t.Errorf("a core.autocrlf=true checkout gives android/gradlew CRLF line endings, which bash and sh cannot run: .gitattributes must say \"android/gradlew text eol=lf\"")
	}
	bat, err := os.ReadFile(filepath.Join(dst, "android/gradlew.bat"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(bat), "\n"); lines == 0 || strings.Count(string(bat), "\r\n") != lines {
		t.Errorf("android/gradlew.bat has %d CRLF line endings of %d lines in a checkout: .gitattributes must say \"*.bat text eol=crlf\"",
			strings.Count(string(bat), "\r\n"), lines)
	}

	// The wrapper starts, reads its properties and asks for the distribution: through a proxy that
	// refuses, so the download fails at once here.
	version := gradleVersion(t)
	cmd := exec.Command("./gradlew", "--version")
	cmd.Dir = filepath.Join(dst, "android")
	cmd.Env = append(os.Environ(), "GRADLE_USER_HOME="+filepath.Join(tmp, "gradle-home"),
		"JAVA_OPTS=-Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=9 -Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=9")
	out, err := cmd.CombinedOutput()
	want := "Downloading https://services.gradle.org/distributions/gradle-" + version + "-bin.zip"
	if !strings.Contains(string(out), want) {
		t.Errorf("./gradlew --version in a core.autocrlf=true checkout printed no %q (%v):\n%s", want, err, out)
	}
}
