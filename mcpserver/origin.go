package mcpserver

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// guardPages refuses, with 403, what a web page in the user's browser
// could send, before next sees anything: an Origin that origins does not
// allow (a cross-site request), and on a loopback listener a Host that is
// not loopback (DNS rebinding: a page whose own name now resolves to
// 127.0.0.1, which the browser treats as the page's own site). Every path
// the server answers stands behind it, /mcp and mcpwire.ProofPath alike; the
// tokens the server holds are then out of any page's reach.
func guardPages(origins originPolicy, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !origins.allows(origin) {
			// A browser page from another site must never reach a tool
			// that sends SMS, whatever else the request carries.
			refuse(w, http.StatusForbidden, fmt.Sprintf("Forbidden: Origin %q is not allowed", origin))
			return
		}
		if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && isLoopback(local.String()) && !isLoopback(r.Host) {
			refuse(w, http.StatusForbidden, fmt.Sprintf("Forbidden: invalid Host header %q", r.Host))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isLoopback reports whether hostport (a host with or without a port)
// names the loopback: localhost, or a loopback address.
func isLoopback(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// originPolicy decides which browser origins may call the server. The MCP
// transport rules say a server MUST validate Origin, because a web page the
// user visits can otherwise POST to a local server (DNS rebinding, or plain
// cross-site requests). Requests without an Origin header come from
// programs such as curl and SDK clients, not from pages, and pass.
type originPolicy struct {
	extra map[string]bool // normalised scheme://host[:port]
}

// newOriginPolicy checks and normalises the configured extra origins.
func newOriginPolicy(allowed []string) (originPolicy, error) {
	p := originPolicy{extra: make(map[string]bool, len(allowed))}
	for _, o := range allowed {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
			u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
			return originPolicy{}, fmt.Errorf("mcpserver: allowed origin %q must be scheme://host[:port], such as https://app.example.com", o)
		}
		p.extra[strings.ToLower(u.Scheme+"://"+u.Host)] = true
	}
	return p, nil
}

// allows reports whether a request with this Origin header may proceed:
// a loopback page on any port, or one of the configured origins. "null"
// (sandboxed frames, file: pages) is never allowed.
func (p originPolicy) allows(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" {
		return false
	}
	switch strings.ToLower(u.Hostname()) {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return p.extra[strings.ToLower(u.Scheme+"://"+u.Host)]
}
