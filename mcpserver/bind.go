package mcpserver

import (
	"fmt"
	"net"
	"strings"
)

// checkBind refuses to serve beyond this machine without a token: anyone
// on the network could otherwise send SMS from the phone. Loopback is an IP
// in 127.0.0.0/8 or ::1, or "localhost"; an empty host, 0.0.0.0 and :: mean
// every interface, and a host name counts as loopback only when every
// address it resolves to is loopback.
func checkBind(addr, token string) error {
	host, err := checkAddr(addr)
	if err != nil {
		return err
	}
	if token != "" || isLoopbackHost(host) {
		return nil
	}
	return fmt.Errorf("mcpserver: refusing to listen on %s without a token: it is not a loopback address, so other machines could call the tools; set a token (--token or $MOBILEMCP_TOKEN) or bind 127.0.0.1", addr)
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	addrs, err := net.LookupHost(host)
	if err != nil || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if ip := net.ParseIP(a); ip == nil || !ip.IsLoopback() {
			return false
		}
	}
	return true
}

// checkAddr returns the host of addr, or what keeps net.Listen from taking
// it: no host:port, or a port that is neither 0 to 65535 nor a service
// name.
func checkAddr(addr string) (host string, err error) {
	host, port, err := net.SplitHostPort(addr)
	if err == nil {
		if _, lookupErr := net.LookupPort("tcp", port); lookupErr != nil {
			err = fmt.Errorf("the port %s is not 0 to 65535 or a service name", port)
		}
	}
	if err != nil {
		return "", fmt.Errorf("mcpserver: address %q: %v; use host:port, such as %s", addr, err, DefaultAddr)
	}
	return host, nil
}
