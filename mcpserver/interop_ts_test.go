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

// tsDir holds the TypeScript interop client and its pinned dependencies;
// 'make test' installs them with npm ci (scripts/deps.sh npm).
const tsDir = "../interop/ts"

// TestTypeScriptSDKClient runs the official TypeScript SDK client
// (interop/ts/client.mjs) against the server, with a token. The script
// checks every value itself and exits non-zero on any mismatch.
func TestTypeScriptSDKClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(tsDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		msg := "the TypeScript interop test needs node and " + tsDir + "/node_modules; run 'scripts/deps.sh npm' (make test does): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg) // CI must never pass without the interop test
		}
		t.Skip(msg)
	}
	s := startServer(t, mcpserver.Options{Token: "ts-interop-token"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, filepath.Join(tsDir, "client.mjs"), s.url, "ts-interop-token").CombinedOutput()
	t.Logf("node client.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("the TypeScript client failed: %v", err)
	}
	if n := s.sends(); n != 1 {
		t.Errorf("%d SMS sent, want 1", n)
	}
}
