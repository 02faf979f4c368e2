package main

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb"
	"github.com/mobilemcp/mobilemcp/cmd/mobilemcp/internal/adb/adbtest"
	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/mcpserver"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

const phoneToken = "tok3n-from-the-app"

// phoneServer plays the app's MCP server at the far end of the forward: the
// real server, on a free loopback port, with the app's kind of token. It
// returns the port.
func phoneServer(t *testing.T) int {
	t.Helper()
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{OutboxPath: filepath.Join(t.TempDir(), simphone.OutboxFile)})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := capability.NewRegistry(sms.Capabilities(phone)...)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(capability.NewEngine(reg, capability.Options{}), mcpserver.Options{Addr: "127.0.0.1:0", Token: phoneToken, Title: sms.ToolName})
	if err != nil {
		t.Fatal(err)
	}
	return serveUntilCleanup(t, srv).(*net.TCPAddr).Port
}

// switchedOff plays adb's forward when nothing listens on the phone: adb
// accepts the connection on the computer, then closes it.
func switchedOff(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return l.Addr().(*net.TCPAddr).Port
}

// phoneADB is a fake adb with one authorised device that has the app.
func phoneADB() *adbtest.Fake {
	return &adbtest.Fake{Outputs: map[string]string{
		"get-state": "device\n",
		"shell pm path 'io.github.mobilemcp.app'": "package:/data/app/~~x==/io.github.mobilemcp.app-1/base.apk\n",
		"forward": "",
	}}
}

func TestADBConnect(t *testing.T) {
	port := phoneServer(t)
	p := strconv.Itoa(port)
	c := newCLI(t)
	fake := phoneADB()
	c.adb = fake
	c.vars[tokenEnv] = phoneToken
	code, out, errOut := c.run("", "adb", "connect", "--port", p)
	url := "http://127.0.0.1:" + p + "/mcp"
	want := sms.ToolName + " answers at " + url + " with 2 tools:\n  get_sms_subscriptions\n  send_sms\n\n" +
		"The forward lasts until 'mobilemcp adb disconnect --port " + p + "' or the phone is unplugged.\n\n" + clientConfigs(url)
	if code != exitOK || out != want || errOut != "" {
		t.Errorf("exit %d\nstdout %s\nwant %s\nstderr %q", code, out, want, errOut)
	}
	wantCalls := []string{"get-state", "shell pm path 'io.github.mobilemcp.app'", "forward tcp:" + p + " tcp:" + p}
	if got := fake.Calls(); strings.Join(got, "|") != strings.Join(wantCalls, "|") {
		t.Errorf("adb ran %q; want %q", got, wantCalls)
	}
	// The configurations name the variable; the token itself is nowhere.
	if strings.Contains(out, phoneToken) || !strings.Contains(out, `"Authorization": "Bearer ${MOBILEMCP_TOKEN}"`) {
		t.Errorf("the output holds the token, or no Claude Code config naming $MOBILEMCP_TOKEN:\n%s", out)
	}
}

func TestADBConnectReadsTheTokenWithoutTheCommandLine(t *testing.T) {
	port := strconv.Itoa(phoneServer(t))
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(phoneToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, stdin string
		args        []string
		env         string
	}{
		{name: "a file", args: []string{"--token-file", file}, env: "not-this-one"},
		{name: "the environment", env: phoneToken, stdin: "not-this-one\n"},
		{name: "stdin", stdin: phoneToken + "\nmore lines\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			c.adb = phoneADB()
			if tt.env != "" {
				c.vars[tokenEnv] = tt.env
			}
			code, out, errOut := c.run(tt.stdin, append([]string{"adb", "connect", "--port", port}, tt.args...)...)
			if code != exitOK || !strings.HasPrefix(out, sms.ToolName+" answers at ") {
				t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
}

func TestADBConnectFailsClearly(t *testing.T) {
	on := strconv.Itoa(phoneServer(t))
	off := strconv.Itoa(switchedOff(t))
	getState := func(msg string) map[string]error {
		return map[string]error{"get-state": errors.New("adb get-state: exit status 1: " + msg)}
	}
	for _, tt := range []struct {
		name      string
		port      string
		token     string
		outputs   map[string]string
		errs      map[string]error
		args      []string
		want      string
		wantCalls []string // after get-state and pm path, when they ran
	}{
		{name: "no adb", errs: map[string]error{"": adb.ErrNoADB},
			want: "adb is not installed or not on PATH; install Android platform-tools (Debian/Ubuntu: apt-get install adb)"},
		{name: "no device", errs: getState("error: no devices/emulators found"),
			want: "no device is connected; plug in a phone with USB debugging on, or start an emulator, and check 'adb devices'"},
		{name: "several devices", errs: getState("error: more than one device/emulator"),
			want: "more than one device is connected; choose one with --serial (see 'adb devices')"},
		{name: "unauthorized", errs: getState("error: device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set"),
			want: "the device has not authorised this computer; accept the USB debugging prompt on the phone"},
		{name: "device offline", outputs: map[string]string{"get-state": "offline\n"},
			want: `the device is "offline", not ready; wait for it to boot or reconnect it`},
		{name: "app not installed", errs: map[string]error{"shell pm path": errors.New("adb shell pm path 'io.github.mobilemcp.app': exit status 1: ")},
			outputs: map[string]string{"shell pm path": ""},
			want:    "the app io.github.mobilemcp.app is not installed on the device; install it (adb install mobilemcp.apk), open it and turn on its MCP server"},
		{name: "no token", token: "-",
			want: "no token: the app shows one while its MCP server is on; set it with 'read -rs MOBILEMCP_TOKEN && export MOBILEMCP_TOKEN', or use --token-file"},
		{name: "a token with spaces", token: "two words",
			want: "the token has spaces or line breaks in it; the app's tokens have none, so copy it again"},
		{name: "port taken on the computer", errs: map[string]error{"forward": errors.New("adb forward tcp:9531 tcp:9531: exit status 1: error: cannot bind listener: Address already in use")},
			want: "forwarding port " + on + " to the device: adb forward tcp:9531 tcp:9531: exit status 1: error: cannot bind listener: Address already in use"},
		{name: "server switched off", port: off,
			want:      "the app's MCP server does not answer (",
			wantCalls: []string{"forward tcp:" + off + " tcp:" + off, "forward --remove tcp:" + off}},
		{name: "wrong token", token: "an-old-token",
			want:      "could not prove that it knows this token (HTTP 200), so the token was not sent. Either the token is not the one io.github.mobilemcp.app shows now",
			wantCalls: []string{"forward tcp:" + on + " tcp:" + on, "forward --remove tcp:" + on}},
		{name: "not a port", args: []string{"--port", "70000"}, want: "--port 70000 is not a TCP port (1 to 65535)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newCLI(t)
			fake := phoneADB()
			for k, v := range tt.outputs {
				fake.Outputs[k] = v
			}
			fake.Errors = tt.errs
			c.adb = fake
			switch tt.token {
			case "":
				c.vars[tokenEnv] = phoneToken
			case "-":
			default:
				c.vars[tokenEnv] = tt.token
			}
			port := tt.port
			if port == "" {
				port = on
			}
			args := append([]string{"adb", "connect", "--port", port}, tt.args...)
			code, out, errOut := c.run("", args...)
			if code == exitOK || out != "" || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stdout %q\nstderr %q\nwant %q", code, out, errOut, tt.want)
			}
			if tt.wantCalls != nil {
				calls := fake.Calls()
				if got := calls[min(2, len(calls)):]; strings.Join(got, "|") != strings.Join(tt.wantCalls, "|") {
					t.Errorf("adb ran %q; want %q after the checks", calls, tt.wantCalls)
				}
			}
		})
	}
}

// connectUnproven runs adb connect --port port with the app's token, and
// checks that it fails because the server there proved nothing.
func connectUnproven(t *testing.T, port int) {
	t.Helper()
	p := strconv.Itoa(port)
	c := newCLI(t)
	c.adb = phoneADB()
	c.vars[tokenEnv] = phoneToken
	code, out, errOut := c.run("", "adb", "connect", "--port", p)
	want := "mobilemcp adb connect: the server at http://127.0.0.1:" + p + "/mcp could not prove that it knows this token (HTTP 200), so the token was not sent."
	if code != exitFailure || out != "" || !strings.HasPrefix(errOut, want) {
		t.Errorf("exit %d, stdout %q\nstderr %q\nwant %q", code, out, errOut, want)
	}
}

// A program that took the port on the phone (the real server is off)
// accepts any token, as a server that wants it would. adb connect asks it to
// prove that it knows the token first, and so never sends it.
func TestADBConnectSendsNoTokenToAServerThatCannotProveItKnowsIt(t *testing.T) {
	var seen []string
	var mu sync.Mutex
	squatter := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.WriteHeader(http.StatusOK) // "proves" with an empty body, accepts everything
	}))
	defer squatter.Close()
	connectUnproven(t, squatter.Listener.Addr().(*net.TCPAddr).Port)
	mu.Lock()
	defer mu.Unlock()
	for _, r := range seen {
		if strings.Contains(r, phoneToken) {
			t.Errorf("the token reached the squatter: %s", r)
		}
	}
	if len(seen) != 1 || !strings.HasPrefix(seen[0], "GET /mcp/proof ") {
		t.Errorf("the squatter saw %q; want only the challenge", seen)
	}
}

// relay plays another app on the phone that listens on a port of its own
// and passes every connection on to the real server at port to, keeping a
// copy of what the client sends. It returns its port and that copy.
func relay(t *testing.T, to int) (int, func() string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var mu sync.Mutex
	var sent strings.Builder
	go func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(to))
			if err != nil {
				in.Close()
				continue
			}
			go func() {
				defer out.Close()
				buf := make([]byte, 4096)
				for {
					n, err := in.Read(buf)
					mu.Lock()
					sent.Write(buf[:n])
					mu.Unlock()
					if _, werr := out.Write(buf[:n]); err != nil || werr != nil {
						return
					}
				}
			}()
			go func() {
				defer in.Close()
				io.Copy(in, out)
			}()
		}
	}()
	return l.Addr().(*net.TCPAddr).Port, func() string {
		mu.Lock()
		defer mu.Unlock()
		return sent.String()
	}
}

// Another app listens on the port adb connect asks for, while the real
// server runs on its own port, and relays the challenge to it. The real
// server's proof is bound to the port it listens on, so the relay's
// answer does not prove the port asked for, and the token is not sent.
func TestADBConnectSendsNoTokenToARelayOfTheRealServer(t *testing.T) {
	port, seen := relay(t, phoneServer(t))
	connectUnproven(t, port)
	if strings.Contains(seen(), phoneToken) {
		t.Errorf("the token reached the relay:\n%s", seen())
	}
	if !strings.HasPrefix(seen(), "GET /mcp/proof?nonce=") || strings.Contains(seen(), "POST") {
		t.Errorf("the relay saw %q; want only the challenge", seen())
	}
}

func TestADBConnectQuotesTheAppForTheDeviceShell(t *testing.T) {
	c := newCLI(t)
	fake := &adbtest.Fake{Outputs: map[string]string{"-s R58M 1 get-state": "device\n"}}
	c.adb = fake
	c.vars[tokenEnv] = phoneToken
	code, _, errOut := c.run("", "adb", "connect", "--serial", "R58M 1", "--app", "x'; reboot; '")
	if code != exitFailure || !strings.Contains(errOut, "the app x'; reboot; ' is not installed") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if got, want := fake.Calls(), []string{"-s R58M 1 get-state", `-s R58M 1 shell pm path 'x'\''; reboot; '\'''`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("adb ran %q; want %q", got, want)
	}
}

func TestADBDisconnect(t *testing.T) {
	c := newCLI(t)
	fake := &adbtest.Fake{}
	c.adb = fake
	code, out, errOut := c.run("", "adb", "disconnect")
	if code != exitOK || out != "Removed the forward of port 9531.\n" || fake.Calls()[0] != "forward --remove tcp:9531" {
		t.Errorf("exit %d, stdout %q, stderr %q, adb ran %q", code, out, errOut, fake.Calls())
	}
	c.adb = &adbtest.Fake{Errors: map[string]error{"forward": errors.New("adb forward --remove tcp:9531: exit status 1: error: listener 'tcp:9531' not found")}}
	code, _, errOut = c.run("", "adb", "disconnect")
	if want := "mobilemcp adb disconnect: no forward of port 9531 to remove ('adb forward --list' shows the forwards)\n"; code != exitFailure || errOut != want {
		t.Errorf("exit %d, stderr %q; want %q", code, errOut, want)
	}
}
