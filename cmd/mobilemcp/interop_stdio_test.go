package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// buildCLI builds the mobilemcp binary into a temporary directory, for the
// clients that spawn it as a desktop agent does.
func buildCLI(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mobilemcp")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runStdioInteropClient runs an official SDK's stdio client program, which
// spawns 'mobilemcp serve --stdio' itself and checks every value and the
// outbox. Without the SDK installed it skips, except under CI, which must
// never pass without it.
func runStdioInteropClient(t *testing.T, name, install string, ready func() error, client ...string) {
	t.Helper()
	if err := ready(); err != nil {
		msg := "the " + name + " stdio interop test needs " + install + " (make test does): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	bin := buildCLI(t)
	dataDir := t.TempDir()
	outbox := filepath.Join(dataDir, simphone.OutboxFile)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	args := append(client[1:], outbox, bin, "serve", "--stdio", "--data-dir", dataDir)
	out, err := exec.CommandContext(ctx, client[0], args...).CombinedOutput()
	t.Logf("%s stdio client:\n%s", name, out)
	if err != nil {
		t.Fatalf("the %s stdio client failed: %v", name, err)
	}
	records, err := simphone.ReadOutbox(outbox)
	if err != nil || len(records) != 1 {
		t.Errorf("the outbox has %d sends (%v); want exactly 1", len(records), err)
	}
}

// TestPythonSDKStdioClient spawns the real binary from the official Python
// SDK's stdio_client (interop/python/stdio_client.py).
func TestPythonSDKStdioClient(t *testing.T) {
	dir := "../../interop/python"
	python := filepath.Join(dir, ".venv", "bin", "python")
	ready := func() error {
		if _, err := os.Stat(python); err != nil {
			return err
		}
		return exec.Command(python, "-c", "import mcp.client.stdio").Run()
	}
	runStdioInteropClient(t, "Python SDK", dir+"/.venv with the mcp package; run 'scripts/deps.sh python'", ready,
		python, filepath.Join(dir, "stdio_client.py"))
}

// TestFastMCPStdioClient spawns the real binary from the fastmcp client's
// StdioTransport (interop/python/fastmcp_client.py), which speaks
// 2026-07-28 and pings.
func TestFastMCPStdioClient(t *testing.T) {
	dir := "../../interop/python"
	python := filepath.Join(dir, ".venv", "bin", "python")
	ready := func() error {
		if _, err := os.Stat(python); err != nil {
			return err
		}
		return exec.Command(python, "-c", "import fastmcp").Run()
	}
	runStdioInteropClient(t, "fastmcp", dir+"/.venv with the fastmcp package; run 'scripts/deps.sh python'", ready,
		python, filepath.Join(dir, "fastmcp_client.py"), "stdio")
}

// TestTypeScriptSDKStdioClient spawns the real binary from the official
// TypeScript SDK's StdioClientTransport (interop/ts/stdio_client.mjs).
func TestTypeScriptSDKStdioClient(t *testing.T) {
	dir := "../../interop/ts"
	ready := func() error {
		if _, err := exec.LookPath("node"); err != nil {
			return err
		}
		_, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
		return err
	}
	runStdioInteropClient(t, "TypeScript SDK", "node and 'npm ci' in interop/ts; run 'scripts/deps.sh npm'", ready,
		"node", filepath.Join(dir, "stdio_client.mjs"))
}
