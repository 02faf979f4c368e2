package adb

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Install installs (or replaces, keeping the app's data) the APK at path on
// the device.
func (d *Device) Install(ctx context.Context, path string) error {
	out, err := d.Runner.Output(ctx, d.args("install", "-r", path)...)
	if err != nil {
		return err
	}
	// adb install prints "Success", or "Failure [REASON]" and may still exit 0
	// on old versions.
	for _, line := range strings.Split(string(out), "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "Failure") {
			return fmt.Errorf("installing %s: %s", path, line)
		}
	}
	return nil
}

// PackagePath returns the path of pkg's base APK on the device.
func (d *Device) PackagePath(ctx context.Context, pkg string) (string, error) {
	out, err := d.Runner.Output(ctx, d.args("shell", "pm path "+ShellQuote(pkg))...)
	// One "package:/data/app/.../base.apk" line per APK, base first; split
	// APKs follow.
	for _, line := range strings.Split(string(out), "\n") {
		if path, ok := strings.CutPrefix(strings.TrimSpace(line), "package:"); ok && strings.HasSuffix(path, "/base.apk") {
			return path, nil
		}
	}
	// pm path prints nothing and exits 1 for a package that is not there;
	// any other failure (adb lost the device) is the error.
	if err != nil && !strings.Contains(err.Error(), "exit status 1") {
		return "", err
	}
	return "", fmt.Errorf("%s is %w on the device (pm path printed %q)", pkg, ErrNotInstalled, strings.TrimSpace(string(out)))
}

// ErrNotInstalled is the error PackagePath wraps for an app that is not on
// the device.
var ErrNotInstalled = errors.New("not installed")

// ReadFile returns the bytes of the file at path on the device (exec-out,
// which, unlike shell, passes binary output through unchanged).
func (d *Device) ReadFile(ctx context.Context, path string) ([]byte, error) {
	out, err := d.Runner.Output(ctx, d.args("exec-out", "cat "+ShellQuote(path))...)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s on the device is empty or unreadable", path)
	}
	return out, nil
}

// ABI returns the device's primary ABI, such as arm64-v8a.
func (d *Device) ABI(ctx context.Context) (string, error) {
	out, err := d.Runner.Output(ctx, d.args("shell", "getprop ro.product.cpu.abi")...)
	if err != nil {
		return "", err
	}
	abi := strings.TrimSpace(string(out))
	if abi == "" {
		return "", errors.New("the device does not name its ABI (getprop ro.product.cpu.abi printed nothing)")
	}
	return abi, nil
}

// SDK returns the device's Android API level (ro.build.version.sdk).
func (d *Device) SDK(ctx context.Context) (int, error) {
	out, err := d.Runner.Output(ctx, d.args("shell", "getprop ro.build.version.sdk")...)
	if err != nil {
		return 0, err
	}
	level, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		return 0, fmt.Errorf("the device's API level is unreadable: getprop ro.build.version.sdk printed %q", strings.TrimSpace(string(out)))
	}
	return level, nil
}

// GrantedPermissions returns the permissions dumpsys package lists as
// granted to pkg (install and runtime permissions alike).
func (d *Device) GrantedPermissions(ctx context.Context, pkg string) (map[string]bool, error) {
	out, err := d.Runner.Output(ctx, d.args("shell", "dumpsys package "+ShellQuote(pkg))...)
	if err != nil {
		return nil, err
	}
	granted := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		// "      android.permission.FOREGROUND_SERVICE: granted=true"
		name, state, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if ok && strings.HasPrefix(state, "granted=true") && !strings.ContainsAny(name, " \t") {
			granted[name] = true
		}
	}
	return granted, nil
}
