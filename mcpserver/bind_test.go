package mcpserver

import (
	"testing"
)

func TestIsLoopbackHost(t *testing.T) {
	tests := []struct {
		host string
		want bool
	}{
		{"127.0.0.1", true},
		{"127.8.9.10", true},
		{"::1", true},
		{"localhost", true},
		{"LOCALHOST", true},
		{"", false}, // every interface
		{"0.0.0.0", false},
		{"::", false},
		{"192.168.0.11", false},
		{"::ffff:192.168.0.11", false},
		{"no-such-host.invalid", false},
	}
	for _, tt := range tests {
		if got := isLoopbackHost(tt.host); got != tt.want {
			t.Errorf("isLoopbackHost(%q) = %v, want %v", tt.host, got, tt.want)
		}
	}
}

func TestCheckBind(t *testing.T) {
	tests := []struct {
		addr, token, err string
	}{
		{addr: "127.0.0.1:9531"},
		{addr: "localhost:0"},
		{addr: "0.0.0.0:9531", token: "t"},
		{addr: "0.0.0.0:9531", err: "mcpserver: refusing to listen on 0.0.0.0:9531 without a token: it is not a loopback address, so other machines could call the tools; set a token (--token or $MOBILEMCP_TOKEN) or bind 127.0.0.1"},
		{addr: "9531", err: `mcpserver: address "9531": address 9531: missing port in address; use host:port, such as 127.0.0.1:9531`},
	}
	for _, tt := range tests {
		err := checkBind(tt.addr, tt.token)
		if (err == nil && tt.err != "") || (err != nil && err.Error() != tt.err) {
			t.Errorf("checkBind(%q, %q) = %v, want %q", tt.addr, tt.token, err, tt.err)
		}
	}
}
