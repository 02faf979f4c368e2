package mcpserver_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// pythonDir holds the Python interop client and its pinned requirements;
// 'make test' installs them in a virtual environment there
// (scripts/deps.sh python).
const pythonDir = "../interop/python"

// TestPythonSDKClient runs the official Python SDK client
// (interop/python/client.py) against the server, with a token, and then
// with a wrong token. The script checks every value itself and exits
// non-zero on any mismatch.
func TestPythonSDKClient(t *testing.T) {
	python := filepath.Join(pythonDir, ".venv", "bin", "python")
	_, err := os.Stat(python)
	if err == nil {
		err = exec.Command(python, "-c", "import mcp.client.streamable_http").Run()
	}
	if err != nil {
		msg := "the Python interop test needs " + pythonDir + "/.venv with the mcp package; run 'scripts/deps.sh python' (make test does): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg) // CI must never pass without the interop test
		}
		t.Skip(msg)
	}
	s := startServer(t, mcpserver.Options{Token: "python-interop-token"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, filepath.Join(pythonDir, "client.py"), s.url, "python-interop-token").CombinedOutput()
	t.Logf("python client.py:\n%s", out)
	if err != nil {
		t.Fatalf("the Python client failed: %v", err)
	}
	if n := s.sends(); n != 1 {
		t.Errorf("%d SMS sent, want 1", n)
	}
}
