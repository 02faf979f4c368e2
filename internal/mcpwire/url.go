package mcpwire

import (
	"net"
	"strconv"
)

// Path is the MCP server's one endpoint, as the Android SMS MCP server's
// transcripts use it.
const Path = "/mcp"

// DefaultMaxLineBytes bounds one message, a request body or a stdio line,
// unless told otherwise: far above any real tools/call (send_sms arguments
// are a few hundred bytes) and far below what could hurt.
const DefaultMaxLineBytes = 64 << 10

// URL is the MCP endpoint for a listener's address. A listener on every
// interface shows as 0.0.0.0, the conventional spelling, rather than the
// "[::]" a dual-stack listener reports.
func URL(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		return "http://" + net.JoinHostPort("0.0.0.0", strconv.Itoa(tcp.Port)) + Path
	}
	return "http://" + addr.String() + Path
}
