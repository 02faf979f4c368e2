// Package adb drives a Mobile-MCP tool on a real phone through the Android
// Debug Bridge: it finds Mobile-MCP services, starts one with a request in an
// Intent extra and reads the reply the tool logs when a request has no
// callback.
//
// adb itself is behind the Runner interface, so everything here is tested
// without a device.
package adb

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// Names shared with the Android app. They are repeated from intentbridge,
// which is built for gomobile and is not imported by host tools.
const (
	// ServiceAction marks Mobile-MCP services.
	ServiceAction = "mobile.mcp.SERVICE"
	// RequestExtra is the Intent extra that carries the request JSON.
	RequestExtra = "mobile-mcp-request"
	// ResponseExtra is the key of the reply JSON, in an Intent or a Bundle.
	ResponseExtra = "mobile-mcp-response"
	// LogTag is the logcat tag under which the app logs a reply to a
	// request that came without a callback, as one line of JSON.
	LogTag = "MobileMCP"
)

// Runner runs the adb binary. The real one is Exec; tests substitute their own.
type Runner interface {
	// Output runs adb with args to completion and returns its stdout. A
	// failure's error includes what adb printed on stderr.
	Output(ctx context.Context, args ...string) ([]byte, error)
	// Stream starts adb with args and returns its stdout, which ends when ctx
	// is done or adb exits. Closing it stops adb.
	Stream(ctx context.Context, args ...string) (io.ReadCloser, error)
}

// ErrNoADB is returned when the adb binary cannot be found.
var ErrNoADB = errors.New("adb is not installed or not on PATH; install Android platform-tools (Debian/Ubuntu: apt-get install adb)")

// ErrSeveralDevices is CheckConnected's error when adb sees several devices
// and none was chosen.
var ErrSeveralDevices = errors.New("more than one device is connected; choose one with --serial (see 'adb devices')")

// Exec runs the adb that Find finds.
type Exec struct{}

// Find returns the adb to run: the one on PATH, else the platform-tools' of
// the Android SDK that $ANDROID_HOME or $ANDROID_SDK_ROOT names, else of the
// SDK where Android Studio puts it, else Homebrew's. An MCP client started
// from a desktop menu (Claude Desktop on macOS, say) runs its servers
// without the shell's PATH, which is where adb usually is. Only absolute
// paths are tried beyond PATH: a relative one would be taken from the
// working directory, which is the project a coding client opened. When
// none is found, the error (an ErrNoADB) says what was tried and how to
// point at adb.
func Find() (string, error) {
	home, _ := os.UserHomeDir()
	return find(exec.LookPath, os.Getenv, home, runtime.GOOS)
}

func find(lookPath func(string) (string, error), getenv func(string) string, home, goos string) (string, error) {
	// exec.LookPath refuses a match in the working directory (exec.ErrDot).
	if path, err := lookPath("adb"); err == nil {
		return path, nil
	}
	exe := "adb"
	// A candidate SDK: its directory, and where the directory came from.
	type sdk struct{ dir, from string }
	var sdks []sdk
	for _, v := range []string{"ANDROID_HOME", "ANDROID_SDK_ROOT"} {
		if dir := getenv(v); dir != "" {
			sdks = append(sdks, sdk{dir, "$" + v + "=" + dir})
		}
	}
	var others []string
	switch goos {
	case "darwin":
		sdks = append(sdks, sdk{homeDir(home, "Library", "Android", "sdk"), "~/Library/Android/sdk"})
		others = []string{"/opt/homebrew/bin/adb", "/usr/local/bin/adb"}
	case "windows":
		exe = "adb.exe"
		if dir := getenv("LOCALAPPDATA"); dir != "" {
			sdks = append(sdks, sdk{filepath.Join(dir, "Android", "Sdk"), `%LOCALAPPDATA%\Android\Sdk`})
		}
	default:
		sdks = append(sdks, sdk{homeDir(home, "Android", "Sdk"), "~/Android/Sdk"})
	}
	var candidates, skipped []string
	for _, s := range sdks {
		switch {
		case s.dir == "":
			skipped = append(skipped, s.from+" (no home directory)")
		case !filepath.IsAbs(s.dir):
			skipped = append(skipped, s.from+" (not an absolute path)")
		default:
			candidates = append(candidates, filepath.Join(s.dir, "platform-tools", exe))
		}
	}
	candidates = append(candidates, others...)
	for _, path := range candidates {
		if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && (goos == "windows" || info.Mode()&0o111 != 0) {
			return path, nil
		}
	}
	tried := "looked on PATH"
	if len(candidates) > 0 {
		tried += " and at " + strings.Join(candidates, ", ")
	}
	if len(skipped) > 0 {
		tried += "; skipped " + strings.Join(skipped, ", ")
	}
	return "", fmt.Errorf("%w: %s; put adb on the PATH the MCP client gives its servers, "+
		"or set ANDROID_HOME to the Android SDK's absolute path (in the client's env for the server)", ErrNoADB, tried)
}

// homeDir joins elem to home, or is "" without a home directory (a
// relative path would be taken from the working directory).
func homeDir(home string, elem ...string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(append([]string{home}, elem...)...)
}

// Output implements Runner.
func (Exec) Output(ctx context.Context, args ...string) ([]byte, error) {
	path, err := Find()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, path, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("adb %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// Stream implements Runner.
func (Exec) Stream(ctx context.Context, args ...string) (io.ReadCloser, error) {
	path, err := Find()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, path, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &streamCloser{ReadCloser: out, cmd: cmd}, nil
}

type streamCloser struct {
	io.ReadCloser
	cmd *exec.Cmd
}

func (s *streamCloser) Close() error {
	s.cmd.Process.Kill()
	s.ReadCloser.Close()
	s.cmd.Wait()
	return nil
}

// Device is one phone, or whichever single phone adb sees when Serial is "".
type Device struct {
	Runner Runner
	Serial string
}

// args prefixes adb arguments with the device selection.
func (d *Device) args(rest ...string) []string {
	if d.Serial == "" {
		return rest
	}
	return append([]string{"-s", d.Serial}, rest...)
}

// CheckConnected returns a readable error when adb is missing, no device is
// attached, or the device is not ready (unauthorized, offline).
func (d *Device) CheckConnected(ctx context.Context) error {
	out, err := d.Runner.Output(ctx, d.args("get-state")...)
	if err != nil {
		if errors.Is(err, ErrNoADB) {
			return err
		}
		msg := err.Error()
		switch {
		case strings.Contains(msg, "no devices"), strings.Contains(msg, "not found"):
			if d.Serial != "" {
				return fmt.Errorf("no device %q is connected; see 'adb devices'", d.Serial)
			}
			return errors.New("no device is connected; plug in a phone with USB debugging on, or start an emulator, and check 'adb devices'")
		case strings.Contains(msg, "more than one"):
			return ErrSeveralDevices
		case strings.Contains(msg, "unauthorized"):
			return errors.New("the device has not authorised this computer; accept the USB debugging prompt on the phone")
		}
		return err
	}
	if state := strings.TrimSpace(string(out)); state != "device" {
		return fmt.Errorf("the device is %q, not ready; wait for it to boot or reconnect it", state)
	}
	return nil
}

// Services lists the components that declare the Mobile-MCP intent filter,
// as package/class names.
func (d *Device) Services(ctx context.Context) ([]string, error) {
	out, err := d.Runner.Output(ctx, d.args("shell", "cmd package query-services --components -a "+ServiceAction)...)
	if err != nil {
		return nil, err
	}
	var services []string
	scanner := bufio.NewScanner(strings.NewReader(string(out)))
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		// Component lines look like "pkg/.Class" or "pkg/pkg.Class"; anything
		// else ("No services found.") is commentary.
		if strings.Contains(line, "/") && !strings.ContainsAny(line, " \t") {
			services = append(services, line)
		}
	}
	return services, scanner.Err()
}

// ResolveTool picks the Mobile-MCP service that want names among the
// services found on the device (Services). want may be a component
// ("pkg/.Class"), a package, or a short name: the last part of the package
// or the service class's name, in any case ("notes" for
// io.github.mobilemcp.notes). An empty want picks the only service there
// is. The error says what is installed, so the user can choose.
func ResolveTool(services []string, want string) (string, error) {
	if len(services) == 0 {
		return "", errors.New("no Mobile-MCP tool is installed on the device ('adb discover' lists them)")
	}
	installed := "the Mobile-MCP tools on the device are " + strings.Join(services, ", ")
	if want == "" {
		if len(services) == 1 {
			return services[0], nil
		}
		return "", fmt.Errorf("choose a tool with --tool, by package or short name: %s", installed)
	}
	var matches []string
	for _, s := range services {
		if matchesTool(s, want) {
			matches = append(matches, s)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return "", fmt.Errorf("no Mobile-MCP tool on the device is %q; %s", want, installed)
	}
	return "", fmt.Errorf("%q names several tools (%s); name one by its package or component", want, strings.Join(matches, ", "))
}

// matchesTool reports whether want names the service component.
func matchesTool(component, want string) bool {
	pkg, class, _ := strings.Cut(component, "/")
	if strings.HasPrefix(class, ".") {
		class = pkg + class
	}
	switch {
	case want == component || want == pkg+"/"+class || want == pkg:
		return true
	case strings.Contains(want, "/") || strings.Contains(want, "."):
		return false // a component or package, and not this one
	}
	return strings.EqualFold(want, pkg[strings.LastIndexByte(pkg, '.')+1:]) ||
		strings.EqualFold(want, class[strings.LastIndexByte(class, '.')+1:])
}

// HasPackage reports whether the app pkg is installed on the device.
func (d *Device) HasPackage(ctx context.Context, pkg string) (bool, error) {
	_, err := d.PackagePath(ctx, pkg)
	if errors.Is(err, ErrNotInstalled) {
		return false, nil
	}
	return err == nil, err
}

// Forward makes localhost:port on this computer reach localhost:port on
// the device (adb forward), where an app's server listens on the phone's
// loopback only.
func (d *Device) Forward(ctx context.Context, port int) error {
	spec := "tcp:" + strconv.Itoa(port)
	if _, err := d.Runner.Output(ctx, d.args("forward", spec, spec)...); err != nil {
		return fmt.Errorf("forwarding port %d to the device: %w", port, err)
	}
	return nil
}

// RemoveForward removes the forward of localhost:port that Forward made.
func (d *Device) RemoveForward(ctx context.Context, port int) error {
	spec := "tcp:" + strconv.Itoa(port)
	if _, err := d.Runner.Output(ctx, d.args("forward", "--remove", spec)...); err != nil {
		if strings.Contains(err.Error(), "not found") {
			return fmt.Errorf("no forward of port %d to remove ('adb forward --list' shows the forwards)", port)
		}
		return fmt.Errorf("removing the forward of port %d: %w", port, err)
	}
	return nil
}
