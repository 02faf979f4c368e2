package mcpserver_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mobilemcp/mobilemcp/internal/mcpwire"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// ipv6Loopback skips the test where this machine has no [::1].
func ipv6Loopback(t *testing.T) {
	t.Helper()
	l, err := net.Listen("tcp", "[::1]:0")
	if errors.Is(err, syscall.EADDRNOTAVAIL) || errors.Is(err, syscall.EAFNOSUPPORT) {
		t.Skip("no IPv6 loopback on this machine")
	}
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
}

// The loopback, given as 127.0.0.1 or as localhost, is listened on in
// both families: a client that resolves localhost to [::1] first reaches
// this server, and no other program can take that address's port.
func TestTheLoopbackIsListenedOnInBothFamilies(t *testing.T) {
	ipv6Loopback(t)
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "LocalHost:0"} {
		l, err := mcpserver.Listen(mcpserver.Options{Addr: addr})
		if err != nil {
			t.Fatal(err)
		}
		port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Write([]byte("ours"))
				c.Close()
			}
		}()
		for _, dial := range []string{"127.0.0.1:" + port, "[::1]:" + port} {
			c, err := net.Dial("tcp", dial)
			if err != nil {
				t.Errorf("listening on %s, %s: %v", addr, dial, err)
				continue
			}
			got, _ := io.ReadAll(c)
			c.Close()
			if string(got) != "ours" {
				t.Errorf("listening on %s, %s answered %q", addr, dial, got)
			}
		}
		l.Close()
	}
}

// Another program listening on [::1] at the port first (a squatting app,
// which adb's forward may reach first) keeps the server from starting, and
// the error says so.
func TestAPortHeldOnTheIPv6LoopbackKeepsTheServerFromStarting(t *testing.T) {
	ipv6Loopback(t)
	squatter, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Fatal(err)
	}
	defer squatter.Close()
	port := strconv.Itoa(squatter.Addr().(*net.TCPAddr).Port)
	l, err := mcpserver.Listen(mcpserver.Options{Addr: "127.0.0.1:" + port})
	if err == nil {
		l.Close()
		t.Fatal("the server started beside another program on [::1]")
	}
	if !strings.HasPrefix(err.Error(), "mcpserver: another program (on a phone, another app) holds [::1]:"+port+", so the server did not start; stop it, or use another port: ") {
		t.Errorf("error %q", err)
	}
	// Nothing is left listening on the IPv4 side either.
	if c, err := net.Dial("tcp", "127.0.0.1:"+port); err == nil {
		c.Close()
		t.Error("127.0.0.1 was left bound")
	}
}

func TestTheServerProvesItKnowsItsToken(t *testing.T) {
	s := startServer(t, mcpserver.Options{Token: "phone-token"})
	base := strings.TrimSuffix(s.url, mcpserver.Path)
	nonce := strings.Repeat("ab", 32)
	get := func(url string) (int, string) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	_, p, _ := net.SplitHostPort(s.host)
	port, _ := strconv.Atoi(p)
	if status, body := get(base + mcpwire.ProofPath + "?nonce=" + nonce); status != 200 || body != mcpwire.Proof("phone-token", nonce, port) {
		t.Errorf("HTTP %d %q; want the proof", status, body)
	}
	if mcpwire.Proof("phone-token", nonce, port) == mcpwire.Proof("another-token", nonce, port) {
		t.Error("two tokens give one proof")
	}
	if mcpwire.Proof("phone-token", nonce, port) == mcpwire.Proof("phone-token", nonce, port+1) {
		t.Error("two ports give one proof")
	}
	for _, bad := range []string{"", "xyz", strings.Repeat("a", 31), strings.Repeat("a", 129)} {
		if status, _ := get(base + mcpwire.ProofPath + "?nonce=" + bad); status != http.StatusBadRequest {
			t.Errorf("nonce %q: HTTP %d, want 400", bad, status)
		}
	}
}

// A web page that rebinds its own name to the loopback, or posts from its
// own origin, reads the proof no more than it reaches /mcp: the same Host
// and Origin checks stand in front of both, and answer 403.
func TestTheProofIsBehindTheHostAndOriginChecks(t *testing.T) {
	s := startServer(t, mcpserver.Options{Token: "phone-token"})
	url := strings.TrimSuffix(s.url, mcpserver.Path) + mcpwire.ProofPath + "?nonce=" + strings.Repeat("ab", 32)
	for _, tt := range []struct {
		name, header, value, want string
	}{
		{"a rebound name", "Host", "attacker.example:9531", "Forbidden: invalid Host header \"attacker.example:9531\"\n"},
		{"another site's page", "Origin", "https://attacker.example", "Forbidden: Origin \"https://attacker.example\" is not allowed\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, url, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.header == "Host" {
				req.Host = tt.value
			} else {
				req.Header.Set(tt.header, tt.value)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != http.StatusForbidden || string(body) != tt.want {
				t.Errorf("HTTP %d %q; want 403 %q", resp.StatusCode, body, tt.want)
			}
		})
	}
}
