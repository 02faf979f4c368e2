package mcpserver

import (
	"errors"
	"net"
	"sync"
)

// dualListener accepts on two listeners as one: the IPv4 and the IPv6
// loopback on the same port. Addr is the first's.
type dualListener struct {
	first, second net.Listener
	accepted      chan accepted
	done          chan struct{}
	closeOnce     sync.Once
}

type accepted struct {
	conn net.Conn
	err  error
}

func newDualListener(first, second net.Listener) *dualListener {
	d := &dualListener{first: first, second: second, accepted: make(chan accepted), done: make(chan struct{})}
	go d.pump(first)
	go d.pump(second)
	return d
}

// pump hands l's connections to Accept until l fails or d closes.
func (d *dualListener) pump(l net.Listener) {
	for {
		c, err := l.Accept()
		select {
		case d.accepted <- accepted{c, err}:
		case <-d.done:
			if c != nil {
				c.Close()
			}
			return
		}
		if errors.Is(err, net.ErrClosed) {
			return
		}
	}
}

func (d *dualListener) Accept() (net.Conn, error) {
	select {
	case a := <-d.accepted:
		return a.conn, a.err
	case <-d.done:
		return nil, net.ErrClosed
	}
}

func (d *dualListener) Close() error {
	var err error
	d.closeOnce.Do(func() {
		close(d.done)
		err = d.first.Close()
		if err2 := d.second.Close(); err == nil {
			err = err2
		}
	})
	return err
}

func (d *dualListener) Addr() net.Addr { return d.first.Addr() }
