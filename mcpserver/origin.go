package mcpserver

import (
	"fmt"
	"net/url"
	"strings"
)

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
