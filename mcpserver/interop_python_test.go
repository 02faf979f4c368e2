package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// pythonDir holds the Python interop client and its pinned requirements;
// 'make test' installs them in a virtual environment there
// (scripts/deps.sh python).
const pythonDir = "../interop/python"

// TestPythonSDKClient runs the official Python SDK client
// (interop/python/client.py) against the server, with a token, and then
// with a wrong token.
func TestPythonSDKClient(t *testing.T) {
	python := filepath.Join(pythonDir, ".venv", "bin", "python")
	ready := func() error {
		if _, err := os.Stat(python); err != nil {
			return err
		}
		return exec.Command(python, "-c", "import mcp.client.streamable_http").Run()
	}
	runInteropClient(t, "Python SDK", pythonDir+"/.venv with the mcp package; run 'scripts/deps.sh python'", ready,
		"python-interop-token", python, filepath.Join(pythonDir, "client.py"))
}

// TestFastMCPClient runs the fastmcp client (interop/python/fastmcp_client.py),
// which speaks 2026-07-28 and pings, against the server with a token.
func TestFastMCPClient(t *testing.T) {
	python := filepath.Join(pythonDir, ".venv", "bin", "python")
	ready := func() error {
		if _, err := os.Stat(python); err != nil {
			return err
		}
		return exec.Command(python, "-c", "import fastmcp").Run()
	}
	runInteropClient(t, "fastmcp", pythonDir+"/.venv with the fastmcp package; run 'scripts/deps.sh python'", ready,
		"fastmcp-interop-token", python, filepath.Join(pythonDir, "fastmcp_client.py"), "http")
}
