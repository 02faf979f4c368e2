package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// stdioConn is one MCP client session on a stdio server's pipes, shared by
// the load's clients: each call has an id of its own, and one reader hands
// each reply to the call with its id.
type stdioConn struct {
	writeMu sync.Mutex
	w       io.Writer

	mu      sync.Mutex
	nextID  int64
	waiting map[int64]chan []byte
	err     error // why the reader stopped
}

// dialStdio starts the reader and makes the 2025-11-25 handshake.
func dialStdio(w io.Writer, r io.Reader) (*stdioConn, error) {
	c := &stdioConn{w: w, waiting: map[int64]chan []byte{}}
	go c.read(r)
	reply, err := c.roundTrip(`"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpbench","version":"1"}}`)
	if err != nil {
		return nil, err
	}
	var init struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if err := json.Unmarshal(reply, &init); err != nil || init.Result.ProtocolVersion != "2025-11-25" {
		return nil, fmt.Errorf("initialize: %s", reply)
	}
	return c, c.write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
}

// read hands each line to the call waiting for its id.
func (c *stdioConn) read(r io.Reader) {
	lines := bufio.NewReaderSize(r, 64<<10)
	var err error
	for {
		var line []byte
		if line, err = lines.ReadBytes('\n'); err != nil {
			break
		}
		var reply struct {
			ID int64 `json:"id"`
		}
		if json.Unmarshal(line, &reply) != nil {
			continue
		}
		c.mu.Lock()
		ch := c.waiting[reply.ID]
		delete(c.waiting, reply.ID)
		c.mu.Unlock()
		if ch != nil {
			ch <- line
		}
	}
	c.mu.Lock()
	c.err = err
	for id, ch := range c.waiting {
		close(ch)
		delete(c.waiting, id)
	}
	c.mu.Unlock()
}

func (c *stdioConn) write(line []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.w.Write(line)
	return err
}

// roundTrip sends a request with rest after its id, and returns its reply.
func (c *stdioConn) roundTrip(rest string) ([]byte, error) {
	ch := make(chan []byte, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.nextID++
	id := c.nextID
	c.waiting[id] = ch
	c.mu.Unlock()
	if err := c.write([]byte(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) + `,` + rest + "}\n")); err != nil {
		return nil, err
	}
	select {
	case reply, ok := <-ch:
		if !ok {
			return nil, errors.New("the server closed its output")
		}
		return reply, nil
	case <-time.After(10 * time.Second):
		return nil, errors.New("no reply within 10s")
	}
}

// stdioCaller makes tools/call on a stdioConn.
type stdioCaller struct {
	conn   *stdioConn
	params string
}

func (s *stdioCaller) call() bool {
	reply, err := s.conn.roundTrip(`"method":"tools/call","params":` + s.params)
	return err == nil && answered(reply)
}

func (s *stdioCaller) close() {}
