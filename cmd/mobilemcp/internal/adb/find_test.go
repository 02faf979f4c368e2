package adb

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// An MCP client started from a desktop menu has no shell PATH: adb is
// found in the Android SDK that the environment names, or where Android
// Studio installs it, or Homebrew's; PATH's comes first.
func TestFindLooksBeyondPATH(t *testing.T) {
	tool := func(t *testing.T, path string, mode os.FileMode) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	noPath := func(string) (string, error) { return "", exec.ErrNotFound }
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	home := t.TempDir()
	sdk := t.TempDir()
	studio := tool(t, filepath.Join(home, "Library", "Android", "sdk", "platform-tools", "adb"), 0o755)
	named := tool(t, filepath.Join(sdk, "platform-tools", "adb"), 0o755)
	linuxStudio := tool(t, filepath.Join(home, "Android", "Sdk", "platform-tools", "adb"), 0o755)
	local := t.TempDir()
	windows := tool(t, filepath.Join(local, "Android", "Sdk", "platform-tools", "adb.exe"), 0o644)
	for _, tt := range []struct {
		name     string
		lookPath func(string) (string, error)
		vars     map[string]string
		home     string
		goos     string
		want     string
	}{
		{"PATH's first", func(string) (string, error) { return "/usr/bin/adb", nil }, map[string]string{"ANDROID_HOME": sdk}, home, "darwin", "/usr/bin/adb"},
		{"$ANDROID_HOME's", noPath, map[string]string{"ANDROID_HOME": sdk}, home, "darwin", named},
		{"$ANDROID_SDK_ROOT's", noPath, map[string]string{"ANDROID_SDK_ROOT": sdk}, home, "linux", named},
		{"Android Studio's on macOS", noPath, nil, home, "darwin", studio},
		{"Android Studio's on Linux", noPath, nil, home, "linux", linuxStudio},
		{"Android Studio's on Windows", noPath, map[string]string{"LOCALAPPDATA": local}, home, "windows", windows},
	} {
		if got, err := find(tt.lookPath, env(tt.vars), tt.home, tt.goos); err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	// A file that is not executable is no adb, and none at all is ErrNoADB.
	empty := t.TempDir()
	tool(t, filepath.Join(empty, "Android", "Sdk", "platform-tools", "adb"), 0o644)
	if got, err := find(noPath, env(nil), empty, "linux"); !errors.Is(err, ErrNoADB) {
		t.Errorf("no adb anywhere: got %q, %v; want ErrNoADB", got, err)
	}
}

// A client may start servers with a scrubbed environment: no HOME, no
// ANDROID_HOME, adb not on PATH. Then the Android Studio candidate has no
// home to stand in, and must not become a path relative to the working
// directory, which is the project the client opened: an adb planted there
// is never found, nor one under a relative $ANDROID_HOME. The error says
// what was tried and how to point at adb.
func TestFindSkipsRelativeCandidates(t *testing.T) {
	project := t.TempDir()
	for _, planted := range []string{
		filepath.Join(project, "Android", "Sdk", "platform-tools", "adb"),
		filepath.Join(project, "sdk", "platform-tools", "adb"),
		filepath.Join(project, "Library", "Android", "sdk", "platform-tools", "adb"),
	} {
		if err := os.MkdirAll(filepath.Dir(planted), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(planted, []byte("#!/bin/sh\necho planted\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(project)
	noPath := func(string) (string, error) { return "", exec.ErrNotFound }
	for _, goos := range []string{"linux", "darwin"} {
		got, err := find(noPath, func(k string) string { return map[string]string{"ANDROID_SDK_ROOT": "sdk"}[k] }, "", goos)
		if !errors.Is(err, ErrNoADB) {
			t.Fatalf("%s with no HOME: found %q, %v; want ErrNoADB", goos, got, err)
		}
	}
	_, err := find(noPath, func(string) string { return "" }, "", "linux")
	want := "adb is not installed or not on PATH; install Android platform-tools (Debian/Ubuntu: apt-get install adb): " +
		"looked on PATH; skipped ~/Android/Sdk (no home directory); put adb on the PATH the MCP client gives its servers, " +
		"or set ANDROID_HOME to the Android SDK's absolute path (in the client's env for the server)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}

	// Through Find, as 'adb stdio' runs it.
	t.Setenv("PATH", t.TempDir())
	for _, v := range []string{"HOME", "ANDROID_HOME", "ANDROID_SDK_ROOT", "LOCALAPPDATA"} {
		t.Setenv(v, "")
	}
	if got, err := Find(); !errors.Is(err, ErrNoADB) {
		t.Errorf("Find with no HOME: found %q, %v; want ErrNoADB", got, err)
	}
	// A relative $ANDROID_HOME is named as skipped, and the absolute
	// candidates as tried.
	_, err = find(noPath, func(k string) string { return map[string]string{"ANDROID_HOME": "sdk"}[k] }, "/nonexistent/home", "darwin")
	want = "adb is not installed or not on PATH; install Android platform-tools (Debian/Ubuntu: apt-get install adb): " +
		"looked on PATH and at /nonexistent/home/Library/Android/sdk/platform-tools/adb, /opt/homebrew/bin/adb, /usr/local/bin/adb; " +
		"skipped $ANDROID_HOME=sdk (not an absolute path); put adb on the PATH the MCP client gives its servers, " +
		"or set ANDROID_HOME to the Android SDK's absolute path (in the client's env for the server)"
	if _, statErr := os.Stat("/opt/homebrew/bin/adb"); statErr == nil {
		t.Skip("this machine has Homebrew's adb")
	}
	if _, statErr := os.Stat("/usr/local/bin/adb"); statErr == nil {
		t.Skip("this machine has an adb in /usr/local/bin")
	}
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
