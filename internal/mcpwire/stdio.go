package mcpwire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
)

// LineTransport is MCP's stdio transport (newline-delimited JSON-RPC) on
// In and Out, with the go-sdk's own connection behind a guard. The SDK
// ends the session at the first line it cannot decode, and buffers a line
// of up to 16 MiB; the guard reads each line within MaxLineBytes, answers
// a line that is not JSON with a JSON-RPC parse error (-32700), and one
// that is too long, not a JSON-RPC message, or gives a member twice with
// Invalid Request (-32600), and keeps serving. Only the lines that pass
// reach the SDK.
type LineTransport struct {
	// In is where the client's messages arrive, one a line (the server's
	// standard input).
	In io.Reader
	// Out is where the server's messages go, one a line (its standard
	// output).
	Out io.Writer
	// MaxLineBytes bounds one line; zero means DefaultMaxLineBytes. The
	// rest of a longer line is read and dropped, never kept.
	MaxLineBytes int
}

// Connect implements mcp.Transport. It starts the guard, which reads In
// until it ends.
func (t *LineTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	calls := newCallsInFlight()
	out := &lockedWriter{w: t.Out, written: calls.answered}
	pr, pw := io.Pipe()
	inner, err := (&mcp.IOTransport{Reader: pr, Writer: nopCloser{out}, MaxLineLength: -1}).Connect(ctx)
	if err != nil {
		return nil, err
	}
	limit := t.MaxLineBytes
	if limit <= 0 {
		limit = DefaultMaxLineBytes
	}
	closed := make(chan struct{})
	go func() {
		err := guardLines(t.In, &sdkWriter{w: pw, calls: calls}, out, limit)
		// The SDK drops the requests it has not started when its input
		// ends, so a client that writes a call and closes stdin at once
		// would get nothing done: the end is passed on once every call
		// has its answer.
		calls.wait(closed)
		pw.CloseWithError(err)
	}()
	return &pipeConn{Connection: inner, pipe: pr, closed: closed}, nil
}

// pipeConn closes the guard's pipe with the SDK's connection, so that a
// guard blocked on handing over a line ends too.
type pipeConn struct {
	mcp.Connection
	pipe      *io.PipeReader
	closed    chan struct{}
	closeOnce sync.Once
}

func (c *pipeConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	c.pipe.Close()
	return c.Connection.Close()
}

// callsInFlight counts the calls handed to the SDK that have no answer yet,
// by id.
type callsInFlight struct {
	mu      sync.Mutex
	pending map[string]int
	idle    chan struct{} // closed while nothing is pending
}

func newCallsInFlight() *callsInFlight {
	idle := make(chan struct{})
	close(idle)
	return &callsInFlight{pending: map[string]int{}, idle: idle}
}

// sent records the calls (requests with an id) of line, a message or batch.
func (c *callsInFlight) sent(line []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range messageIDs(line, true) {
		if len(c.pending) == 0 {
			c.idle = make(chan struct{})
		}
		c.pending[id]++
	}
}

// answered records the responses of line, a message or batch.
func (c *callsInFlight) answered(line []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range messageIDs(line, false) {
		if c.pending[id] > 1 {
			c.pending[id]--
		} else if c.pending[id] == 1 {
			delete(c.pending, id)
			if len(c.pending) == 0 {
				close(c.idle)
			}
		}
	}
}

// wait returns when no call is pending, or closed is.
func (c *callsInFlight) wait(closed <-chan struct{}) {
	c.mu.Lock()
	idle := c.idle
	c.mu.Unlock()
	select {
	case <-idle:
	case <-closed:
	}
}

// messageIDs are the ids of the requests (calls true) or the responses
// (calls false) in line, a JSON-RPC message or batch.
func messageIDs(line []byte, calls bool) []string {
	messages := []json.RawMessage{line}
	if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 && trimmed[0] == '[' {
		json.Unmarshal(trimmed, &messages)
	}
	var ids []string
	for _, m := range messages {
		var id []byte
		request := false
		rawjson.ForEachMember(m, func(key, value []byte) {
			switch string(key) {
			case "id":
				id = value
			case "method":
				request = true
			}
		})
		if id != nil && string(id) != "null" && request == calls {
			ids = append(ids, string(id))
		}
	}
	return ids
}

// sdkWriter hands lines to the SDK and records the calls among them.
type sdkWriter struct {
	w     io.Writer
	calls *callsInFlight
}

func (s *sdkWriter) Write(p []byte) (int, error) {
	s.calls.sent(p)
	return s.w.Write(p)
}

// guardLines copies the lines of in that are JSON-RPC messages to sdk, one
// line each, and answers every other line on out itself. It returns nil
// at the end of in.
func guardLines(in io.Reader, sdk io.Writer, out *lockedWriter, limit int) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for n := 1; ; n++ {
		line, size, err := readLine(r, limit)
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if size > 0 || len(bytes.TrimSpace(line)) > 0 {
			if reply := checkLine(n, line, size, limit); reply != nil {
				if _, werr := out.writeOwn(reply); werr != nil {
					return werr
				}
			} else if _, werr := sdk.Write(append(line, '\n')); werr != nil {
				return werr
			}
		}
		if err != nil {
			return nil // io.EOF
		}
	}
}

// readLine reads one line of r without its line ending. A line longer than
// limit is read to its end but not kept: line is nil and size says how
// long it was. err is io.EOF at the end of r (with the last line, if it
// had no line ending).
func readLine(r *bufio.Reader, limit int) (line []byte, size int, err error) {
	var last2 [2]byte // the line ending of a line too long to keep
	for {
		chunk, err := r.ReadSlice('\n')
		size += len(chunk)
		if n := len(chunk); n >= 2 {
			last2 = [2]byte{chunk[n-2], chunk[n-1]}
		} else if n == 1 {
			last2 = [2]byte{last2[1], chunk[0]}
		}
		if size <= limit+2 { // room for "\r\n"
			line = append(line, chunk...)
		} else {
			line = nil
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if size <= limit+2 {
			line = bytes.TrimRight(line, "\r\n")
			size = len(line)
		}
		if size > limit {
			line = nil
			if last2[1] == '\n' {
				size--
				if last2[0] == '\r' {
					size--
				}
			}
		} else {
			size = 0 // within the limit: line says it all
		}
		return line, size, err
	}
}

// checkLine returns the answer to line n, which the SDK must not see, or
// nil when it may: a JSON-RPC message, or a batch of them. size is set
// when the line was longer than limit, and line is then nil.
func checkLine(n int, line []byte, size, limit int) []byte {
	if size > 0 {
		return ErrorResponse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"Invalid Request: line %d is %d bytes, more than the %d a message may have; it was not read", n, size, limit))
	}
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return ErrorResponse(nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: line %d is not JSON: %v", n, err))
	}
	if path := rawjson.Duplicate(line, IsArguments); path != "" {
		id, message := DuplicateError(line, path)
		return ErrorResponse(id, jsonrpc.CodeInvalidRequest, message)
	}
	messages := []json.RawMessage{line}
	if trimmed := bytes.TrimSpace(line); trimmed[0] == '[' {
		if json.Unmarshal(trimmed, &messages) != nil || len(messages) == 0 {
			return ErrorResponse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: line %d is an empty batch", n))
		}
	}
	for _, m := range messages {
		if trimmed := bytes.TrimSpace(m); trimmed[0] != '{' {
			return ErrorResponse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
				"Invalid Request: line %d is not a JSON-RPC 2.0 message, which is an object such as {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", n))
		}
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return ErrorResponse(MessageID(m), jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: line %d is not a JSON-RPC 2.0 message: %v", n, err))
		}
	}
	return nil
}

// lockedWriter makes the SDK's messages and the guard's answers whole
// lines of their own: each is one Write.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	written func(line []byte) // told of each line, once written
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, err := l.w.Write(p)
	l.mu.Unlock()
	if l.written != nil {
		l.written(p)
	}
	return n, err
}

// writeOwn writes an answer of the guard's, which answers no call the SDK
// has.
func (l *lockedWriter) writeOwn(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// ClientGone reports whether err, from a stdio session, only says that its
// client went away: a broken or closed pipe. That ends the session, and is
// no failure of the server.
func ClientGone(err error) bool {
	return errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE)
}
