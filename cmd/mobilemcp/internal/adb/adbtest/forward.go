package adbtest

import (
	"errors"
	"io"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A relay is one forward: a listener on this computer's loopback whose
// connections reach a port of the device.
type relay struct {
	l          net.Listener
	devicePort int
	mu         sync.Mutex
	conns      []net.Conn
}

// forward plays "forward tcp:0 tcp:P", "forward tcp:N tcp:P", "forward
// --remove tcp:N" and "forward --list" when f.Forward is set; ok is false
// for any other invocation.
func (f *Fake) forward(args []string) (out string, err error, ok bool) {
	if f.Forward == nil {
		return "", nil, false
	}
	if len(args) >= 2 && args[0] == "-s" {
		args = args[2:]
	}
	if len(args) == 0 || args[0] != "forward" {
		return "", nil, false
	}
	joined := strings.Join(args, " ")
	switch {
	case len(args) == 2 && args[1] == "--list":
		var lines []string
		for _, port := range f.Forwards() {
			lines = append(lines, "emulator-5554 tcp:"+strconv.Itoa(port)+" tcp:"+strconv.Itoa(f.forwardOf(port)))
		}
		return strings.Join(lines, "\n"), nil, true
	case len(args) == 3 && args[1] == "--remove":
		port, _ := strconv.Atoi(strings.TrimPrefix(args[2], "tcp:"))
		f.mu.Lock()
		r := f.forwards[port]
		delete(f.forwards, port)
		f.mu.Unlock()
		if r == nil {
			return "", errors.New("adb " + joined + ": exit status 1: adb: error: listener '" + args[2] + "' not found"), true
		}
		r.close()
		return "", nil, true
	case len(args) == 3 && strings.HasPrefix(args[1], "tcp:") && strings.HasPrefix(args[2], "tcp:"):
		local, err1 := strconv.Atoi(strings.TrimPrefix(args[1], "tcp:"))
		remote, err2 := strconv.Atoi(strings.TrimPrefix(args[2], "tcp:"))
		if err1 != nil || err2 != nil {
			return "", errors.New("adb " + joined + ": exit status 1: adb: error: cannot parse the forward"), true
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(local))
		if err != nil {
			return "", errors.New("adb " + joined + ": exit status 1: adb: error: cannot bind listener: " + err.Error()), true
		}
		r := &relay{l: l, devicePort: remote}
		port := l.Addr().(*net.TCPAddr).Port
		f.mu.Lock()
		if f.forwards == nil {
			f.forwards = map[int]*relay{}
		}
		f.forwards[port] = r
		f.mu.Unlock()
		go r.serve(f.Forward)
		if local == 0 {
			return strconv.Itoa(port) + "\n", nil, true // adb prints the port it chose
		}
		return "", nil, true
	}
	return "", errors.New("adb " + joined + ": exit status 1: adb: usage: the fake knows forward tcp:N tcp:P, --remove and --list"), true
}

// serve relays each connection to where the device's port answers, or,
// like adbd when nothing listens there, closes it.
func (r *relay) serve(where func(int) string) {
	for {
		c, err := r.l.Accept()
		if err != nil {
			return
		}
		addr := where(r.devicePort)
		var d net.Conn
		if addr != "" {
			d, err = net.Dial("tcp", addr)
		}
		if addr == "" || err != nil {
			c.Close()
			continue
		}
		r.mu.Lock()
		r.conns = append(r.conns, c, d)
		r.mu.Unlock()
		go func() { io.Copy(d, c); d.Close() }()
		go func() { io.Copy(c, d); c.Close() }()
	}
}

func (r *relay) close() {
	r.l.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
}

// Forwards are the local ports forwarded now, in order.
func (f *Fake) Forwards() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ports []int
	for p := range f.forwards {
		ports = append(ports, p)
	}
	slices.Sort(ports)
	return ports
}

func (f *Fake) forwardOf(port int) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r := f.forwards[port]; r != nil {
		return r.devicePort
	}
	return 0
}

// Unplug takes the device away, as pulling its cable does: every
// invocation fails with adb's "no devices", and the forwards and their
// connections are gone.
func (f *Fake) Unplug() {
	f.mu.Lock()
	f.unplug = true
	forwards := f.forwards
	f.forwards = nil
	f.mu.Unlock()
	for _, r := range forwards {
		r.close()
	}
}

// Plug brings the device back, without forwards.
func (f *Fake) Plug() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.unplug = false
}

func (f *Fake) unplugged() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.unplug
}
