package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// tsDir holds the TypeScript interop client and its pinned dependencies;
// 'make test' installs them with npm ci (scripts/deps.sh npm).
const tsDir = "../interop/ts"

// TestTypeScriptSDKClient runs the official TypeScript SDK client
// (interop/ts/client.mjs) against the server, with a token.
func TestTypeScriptSDKClient(t *testing.T) {
	node := "node"
	ready := func() error {
		var err error
		if node, err = exec.LookPath("node"); err != nil {
			return err
		}
		_, err = os.Stat(filepath.Join(tsDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
		return err
	}
	runInteropClient(t, "TypeScript SDK", "node and "+tsDir+"/node_modules; run 'scripts/deps.sh npm'", ready,
		"ts-interop-token", node, filepath.Join(tsDir, "client.mjs"))
}
