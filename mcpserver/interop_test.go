package mcpserver_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// runInteropClient runs an official MCP SDK's client program against a
// server with the given token, once ready() finds it installed, and checks
// that it sent the one SMS it sends. The program checks every value itself
// and exits non-zero on any mismatch. Without its installation the test
// skips, except under CI, which must never pass without it.
func runInteropClient(t *testing.T, name, install string, ready func() error, token string, command ...string) {
	t.Helper()
	if err := ready(); err != nil {
		msg := "the " + name + " interop test needs " + install + " (make test does): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	s := startServer(t, mcpserver.Options{Token: token})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, command[0], append(command[1:], s.url, token)...).CombinedOutput()
	t.Logf("%s client:\n%s", name, out)
	if err != nil {
		t.Fatalf("the %s client failed: %v", name, err)
	}
	if n := s.sends(); n != 1 {
		t.Errorf("%d SMS sent, want 1", n)
	}
}
