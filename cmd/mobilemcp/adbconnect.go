package main

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/term"

	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
	"github.com/mobilemcp/mobilemcp/internal/osfile"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// Defaults of adb connect: the reference app, its server's port, and the
// variable the token is read from and that the printed configs name.
const (
	gatewayApp  = "io.github.mobilemcp.app"
	gatewayPort = 9531
	tokenEnv    = "MOBILEMCP_TOKEN"
	// maxTokenBytes bounds reading a token; the app's are 43 characters.
	maxTokenBytes = 4 << 10
	// connectTimeout bounds the check that the server answers.
	connectTimeout = 15 * time.Second
)

const adbConnectHelp = `Makes the MCP server of the mobilemcp app on the phone reachable from this
computer over USB, checks that it answers, and prints the configuration of
common MCP clients.

The app serves MCP on the phone's loopback only (127.0.0.1:PORT and [::1]:PORT), so no
other device on the network can reach it. This command:
  1. checks adb, the device and that the app is installed;
  2. runs 'adb forward tcp:PORT tcp:PORT';
  3. asks the server to prove it knows the token (an answer to a random
     challenge and the port, keyed by the token) and sends the token only
     then, so another app holding the port, or passing it on to the
     server's own port, never gets it;
  4. sends MCP initialize and tools/list with the token the app shows;
  5. prints the tools and the client configurations.

The token is read, first found first, from:
  --token-file FILE        a file holding it;
  $` + tokenEnv + `         set it without echo or history: read -rs ` + tokenEnv + ` && export ` + tokenEnv + `
  the terminal             a prompt that does not echo what you type;
  stdin                    when it is not a terminal (a pipe from a password manager).
It never goes on the command line, where other users see it in the process
list and the shell keeps it in its history. The printed configurations name
$` + tokenEnv + ` instead of holding it, except where the client cannot read it.

When the server does not answer, the forward is removed again.
'mobilemcp adb disconnect' removes it when you are done.`

func runADBConnect(e *env, args []string) int {
	fs := newFlags(e, "adb connect", "[--serial S] [--port N] [--token-file FILE]", adbConnectHelp)
	serial := fs.String("serial", "", "the device's `serial` (see 'adb devices'); needed when several are connected")
	port := fs.Int("port", gatewayPort, "the `port` of the app's MCP server, forwarded to the same port here")
	tokenFile := fs.String("token-file", "", "read the token from `file` instead of $"+tokenEnv+" or a prompt")
	app := fs.String("app", gatewayApp, "the `package` of the app that serves MCP")
	code, done := parseNoArgs(e, fs, args)
	if done {
		return code
	}
	if code, ok := checkPort(e, fs, *port); !ok {
		return code
	}
	if *tokenFile != "" {
		if code, ok := checkExists(e, fs, "--token-file", *tokenFile); !ok {
			return code
		}
	}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "mobilemcp adb connect: %v\n", err)
		return exitFailure
	}
	ctx := e.ctx
	d := e.device(*serial)
	if err := d.CheckConnected(ctx); err != nil {
		return fail(err)
	}
	installed, err := d.HasPackage(ctx, *app)
	if err != nil {
		return fail(err)
	}
	if !installed {
		return fail(fmt.Errorf("the app %s is not installed on the device; install it (adb install mobilemcp.apk), open it and turn on its MCP server", *app))
	}
	token, err := readToken(e, *tokenFile)
	if err != nil {
		return fail(err)
	}
	if err := d.Forward(ctx, *port); err != nil {
		return fail(err)
	}
	url := "http://127.0.0.1:" + strconv.Itoa(*port) + mcpserver.Path
	err = proveServer(ctx, url, *port, token, *app)
	var title string
	var tools []string
	if err == nil {
		title, tools, err = checkServer(ctx, url, token, *app)
	}
	if err != nil {
		if rmErr := d.RemoveForward(ctx, *port); rmErr != nil {
			fmt.Fprintf(e.stderr, "mobilemcp adb connect: %v\n", rmErr)
		}
		return fail(err)
	}
	fmt.Fprintf(e.stdout, "%s answers at %s with %d tools:\n", title, url, len(tools))
	for _, t := range tools {
		fmt.Fprintf(e.stdout, "  %s\n", t)
	}
	fmt.Fprintf(e.stdout, "\nThe forward lasts until 'mobilemcp adb disconnect%s' or the phone is unplugged.\n\n", portFlag(*port))
	fmt.Fprint(e.stdout, clientConfigs(url))
	return exitOK
}

func runADBDisconnect(e *env, args []string) int {
	fs := newFlags(e, "adb disconnect", "[--serial S] [--port N]", "Removes the forward 'mobilemcp adb connect' made.")
	serial := fs.String("serial", "", "the device's `serial` (see 'adb devices'); needed when several are connected")
	port := fs.Int("port", gatewayPort, "the forwarded `port`")
	code, done := parseNoArgs(e, fs, args)
	if done {
		return code
	}
	if code, ok := checkPort(e, fs, *port); !ok {
		return code
	}
	if err := e.device(*serial).RemoveForward(e.ctx, *port); err != nil {
		fmt.Fprintf(e.stderr, "mobilemcp adb disconnect: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(e.stdout, "Removed the forward of port %d.\n", *port)
	return exitOK
}

// checkPort returns a usage error when port, the --port flag, is not a TCP
// port.
func checkPort(e *env, fs *flag.FlagSet, port int) (code int, ok bool) {
	if port < 1 || port > 65535 {
		return usageError(e, fs, "--port %d is not a TCP port (1 to 65535)", port), false
	}
	return exitOK, true
}

// portFlag is the --port flag to repeat in advice, or "" for the default.
func portFlag(port int) string {
	if port == gatewayPort {
		return ""
	}
	return " --port " + strconv.Itoa(port)
}

// readToken reads the token from file, $MOBILEMCP_TOKEN, a prompt without
// echo on a terminal, or else a line of stdin, in that order.
func readToken(e *env, file string) (string, error) {
	var token string
	switch {
	case file != "":
		data, err := osfile.ReadFile(file, maxTokenBytes)
		if err != nil {
			return "", fmt.Errorf("reading the token: %w", err)
		}
		token = string(data)
	case e.getenv(tokenEnv) != "":
		token = e.getenv(tokenEnv)
	default:
		if f, ok := e.stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
			fmt.Fprint(e.stderr, "Token the app shows (typing is not echoed): ")
			data, err := term.ReadPassword(int(f.Fd()))
			fmt.Fprintln(e.stderr)
			if err != nil {
				return "", fmt.Errorf("reading the token: %w", err)
			}
			token = string(data)
			break
		}
		line, err := bufio.NewReader(io.LimitReader(e.stdin, maxTokenBytes)).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("reading the token from stdin: %w", err)
		}
		token = line
	}
	token = strings.TrimSpace(token)
	if token == "" {
		return "", fmt.Errorf("no token: the app shows one while its MCP server is on; set it with 'read -rs %s && export %s', or use --token-file", tokenEnv, tokenEnv)
	}
	if strings.ContainsAny(token, " \t\r\n") {
		return "", errors.New("the token has spaces or line breaks in it; the app's tokens have none, so copy it again")
	}
	return token, nil
}

// proveServer asks the server at url to prove that it knows token before
// the token is sent anywhere: it answers a fresh random challenge with
// mcpwire.Proof for port, the one asked for. Another app holding the
// port on the phone (while the real server is off) cannot, and then gets
// nothing; nor can one that passes the challenge on to the real server on
// another port, whose answer is for that port.
func proveServer(ctx context.Context, url string, port int, token, app string) error {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	challenge := make([]byte, 32)
	rand.Read(challenge)
	nonce := hex.EncodeToString(challenge)
	proofURL := strings.TrimSuffix(url, mcpserver.Path) + mcpwire.ProofPath + "?nonce=" + nonce
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, proofURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	switch {
	case err != nil && ctx.Err() != nil:
		return fmt.Errorf("the server did not answer within %s; check the phone", connectTimeout)
	case err != nil:
		return fmt.Errorf("the app's MCP server does not answer (%v); open %s, turn its MCP server on, and run this again", err, app)
	}
	defer resp.Body.Close()
	proof, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	if resp.StatusCode == http.StatusOK && hmac.Equal(proof, []byte(mcpwire.Proof(token, nonce, port))) {
		return nil
	}
	return fmt.Errorf("the server at %s could not prove that it knows this token (HTTP %d), so the token was not sent. "+
		"Either the token is not the one %s shows now (it makes a new one each time its server is turned on: copy it again), "+
		"or another app on the phone is holding the MCP port (the app says so when it cannot start its server)", url, resp.StatusCode, app)
}

// checkServer speaks MCP to url as a client does, with the 2025-11-25
// handshake (initialize) and tools/list, and returns the server's title
// and tool names. Its errors say what to do about the usual causes.
func checkServer(ctx context.Context, url, token, app string) (title string, tools []string, err error) {
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	seen := &statusRecorder{next: http.DefaultTransport, token: token}
	client := mcp.NewClient(&mcp.Implementation{Name: "mobilemcp-adb-connect", Version: mcpserver.Version()}, nil)
	session, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: seen}, MaxRetries: -1, DisableStandaloneSSE: true},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err == nil {
		defer session.Close()
		var list *mcp.ListToolsResult
		if list, err = session.ListTools(ctx, nil); err == nil {
			for _, t := range list.Tools {
				tools = append(tools, t.Name)
			}
			return session.InitializeResult().ServerInfo.Title, tools, nil
		}
	}
	switch status := seen.last(); {
	case status == http.StatusUnauthorized:
		return "", nil, errors.New("the server refused the token (401); copy it again from the app, which makes a new one each time its server is turned on")
	case status == 0 && ctx.Err() != nil:
		return "", nil, fmt.Errorf("the server did not answer within %s; check the phone", connectTimeout)
	case status == 0:
		return "", nil, fmt.Errorf("the app's MCP server does not answer (%v); open %s, turn its MCP server on, and run this again", err, app)
	}
	return "", nil, fmt.Errorf("the server at %s does not answer MCP initialize (HTTP %d): %v", url, seen.last(), err)
}

// statusRecorder sends the token with every request and keeps the last
// HTTP status, which tells a refused token from a server that is off.
type statusRecorder struct {
	next   http.RoundTripper
	token  string
	status int
}

func (s *statusRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := s.next.RoundTrip(req)
	if err == nil && req.Method == http.MethodPost {
		s.status = resp.StatusCode
	}
	return resp, err
}

func (s *statusRecorder) last() int { return s.status }

// clientConfigs is the configuration of the common MCP clients for url,
// as docs/desktop.md shows it. Each names $MOBILEMCP_TOKEN rather than holding
// the token, except Claude Desktop's, which cannot read the environment.
func clientConfigs(url string) string {
	return `Each client reads the token from $` + tokenEnv + ` in its environment (start it from a shell where
you ran: read -rs ` + tokenEnv + ` && export ` + tokenEnv + `), except where it says otherwise.

Claude Code, in .mcp.json at the project's root:
{
  "mcpServers": {
    "phone": {
      "type": "http",
      "url": "` + url + `",
      "headers": { "Authorization": "Bearer ${` + tokenEnv + `}" }
    }
  }
}

VS Code, in .vscode/mcp.json (VS Code asks for the token once and keeps it):
{
  "inputs": [{ "type": "promptString", "id": "phone-token", "description": "Token the mobilemcp app shows", "password": true }],
  "servers": {
    "phone": {
      "type": "http",
      "url": "` + url + `",
      "headers": { "Authorization": "Bearer ${input:phone-token}" }
    }
  }
}

Cursor, in ~/.cursor/mcp.json:
{
  "mcpServers": {
    "phone": {
      "url": "` + url + `",
      "headers": { "Authorization": "Bearer ${env:` + tokenEnv + `}" }
    }
  }
}

Claude Desktop, in claude_desktop_config.json, through mcp-remote (it keeps the token in that file:
replace <token> with it there, in an editor):
{
  "mcpServers": {
    "phone": {
      "command": "npx",
      "args": ["-y", "mcp-remote", "` + url + `", "--header", "Authorization:${AUTH_HEADER}"],
      "env": { "AUTH_HEADER": "Bearer <token>" }
    }
  }
}
`
}
