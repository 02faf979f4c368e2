package mcpwire

import (
	"net"
	"testing"
)

func TestURL(t *testing.T) {
	tests := []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 9531}, "http://127.0.0.1:9531/mcp"},
		{&net.TCPAddr{IP: net.ParseIP("::1"), Port: 9531}, "http://[::1]:9531/mcp"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 9531}, "http://0.0.0.0:9531/mcp"},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 80}, "http://0.0.0.0:80/mcp"},
	}
	for _, tt := range tests {
		if got := URL(tt.addr); got != tt.want {
			t.Errorf("URL(%v) = %s, want %s", tt.addr, got, tt.want)
		}
	}
}
