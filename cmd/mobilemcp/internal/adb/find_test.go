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
