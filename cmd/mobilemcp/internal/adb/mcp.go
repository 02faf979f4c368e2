package adb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mobilemcp/mobilemcp/internal/text"
)

// MCPProviderAuthority is the authority of the SMS app's shell-only MCP
// provider in the app pkg: it tells adb's shell about the app's MCP server,
// its token included, under the same protection as the Tool SDK's
// shell-only provider (android.permission.DUMP and the shell's or root's
// uid), and never starts the server.
func MCPProviderAuthority(pkg string) string {
	return pkg + ".mobilemcp.mcp"
}

// MCPServerExtra is the key of the provider's answer in the result Bundle.
const MCPServerExtra = "mobile-mcp-server"

// MCPServer is what the app's MCP provider says of its MCP server.
type MCPServer struct {
	// On is whether the server runs; the user turns it on in the app.
	On bool `json:"on"`
	// Port is where it listens on the phone's loopback.
	Port int `json:"port"`
	// Token is the bearer token it requires, while it runs.
	Token string `json:"token,omitempty"`
	// Error is why its last start failed, if it did.
	Error string `json:"error,omitempty"`
}

// ErrNoMCPProvider is MCPServer's error for an app without the MCP
// provider: an app older than this command, or not the SMS app.
var ErrNoMCPProvider = errors.New("the app has no shell-only MCP provider")

// MCPServerCommand is the device command line that asks the app pkg's MCP
// provider about its server.
func MCPServerCommand(pkg string) string {
	return "content call --uri " + ShellQuote("content://"+MCPProviderAuthority(pkg)) + " --method server"
}

// MCPServer asks the app pkg about its MCP server through its shell-only
// provider: whether it runs, its port and its token. The token comes back
// on adb's stdout, never on a command line or in a file.
func (d *Device) MCPServer(ctx context.Context, pkg string) (*MCPServer, error) {
	out, err := d.Runner.Output(ctx, d.args("shell", MCPServerCommand(pkg))...)
	if err != nil {
		return nil, err
	}
	printed := strings.TrimSpace(string(out))
	body, err := bundleValue(printed, MCPServerExtra)
	switch {
	case err != nil && strings.Contains(printed, "Could not find provider"):
		return nil, ErrNoMCPProvider
	case err != nil:
		return nil, fmt.Errorf("content call to %s: %w", MCPProviderAuthority(pkg), err)
	}
	var s MCPServer
	if err := json.Unmarshal([]byte(body), &s); err != nil {
		return nil, fmt.Errorf("the MCP provider of %s answered something that is not its server's state: %v", pkg, err)
	}
	if s.On && (s.Port < 1 || s.Port > 65535 || s.Token == "") {
		return nil, fmt.Errorf("the MCP provider of %s says its server is on, but gives no port or token", pkg)
	}
	return &s, nil
}

// bundleValue is the one value, under key, of the Bundle that 'content
// call' prints as Result: Bundle[{key=VALUE}].
func bundleValue(printed, key string) (string, error) {
	prefix := "Result: Bundle[{" + key + "="
	i := strings.Index(printed, prefix)
	if i < 0 {
		first, _, _ := strings.Cut(printed, "\n")
		return "", errors.New(text.Excerpt(first))
	}
	body, ok := strings.CutSuffix(printed[i+len(prefix):], "}]")
	if !ok {
		return "", fmt.Errorf("a result that is not one value: %s", text.Excerpt(printed))
	}
	return body, nil
}

// ForwardAny makes a free local port reach devicePort on the device (adb
// forward tcp:0), and returns the local port. adb picks the port, so two
// programs forwarding to one phone never take each other's.
func (d *Device) ForwardAny(ctx context.Context, devicePort int) (int, error) {
	out, err := d.Runner.Output(ctx, d.args("forward", "tcp:0", "tcp:"+strconv.Itoa(devicePort))...)
	if err != nil {
		return 0, fmt.Errorf("forwarding a local port to port %d of the device: %w", devicePort, err)
	}
	port, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil || port < 1 || port > 65535 {
		return 0, fmt.Errorf("adb forward tcp:0 printed %q, not the port it chose", text.Excerpt(strings.TrimSpace(string(out))))
	}
	return port, nil
}
