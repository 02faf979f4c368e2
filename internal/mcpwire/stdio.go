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
// In and Out, for the go-sdk's server. The SDK's own stdio transport ends
// the session at the first line it cannot decode, and buffers a line of up
// to 16 MiB; this one reads each line within MaxLineBytes, answers a line
// that is not JSON with a JSON-RPC parse error (-32700), and one that is
// too long, not a JSON-RPC message, or gives a member twice with Invalid
// Request (-32600), and keeps serving. Each line is decoded once, here, and
// handed to the SDK decoded.
//
// It also keeps to what each protocol version says: a batch is answered
// after initialize has agreed on 2025-03-26, the one version with batches,
// and refused with Invalid Request otherwise; ping is answered in every
// version, 2026-07-28 included; and the reply to a request the client
// cancelled (notifications/cancelled) is not sent.
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

	conn *lineConn // the connection Connect made
}

// Connect implements mcp.Transport. It starts reading In, until it ends.
func (t *LineTransport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxLineBytes
	if limit <= 0 {
		limit = DefaultMaxLineBytes
	}
	t.conn = &lineConn{
		out:      t.Out,
		incoming: make(chan lines),
		stopping: make(chan struct{}),
		closed:   make(chan struct{}),
		calls:    map[jsonrpc.ID]*callInFlight{},
	}
	go t.conn.readLines(t.In, limit)
	return t.conn, nil
}

// Stop ends the session as the end of In would: what was read is served,
// and the SDK is told of the end once every call has its answer. A server
// stops so on SIGINT or SIGTERM; closing the session instead would cancel
// the calls in flight.
func (t *LineTransport) Stop() {
	if t.conn != nil {
		t.conn.stopOnce.Do(func() { close(t.conn.stopping) })
	}
}

// lineConn is the connection of a LineTransport. Its reader goroutine reads,
// checks and decodes the lines; Read, which the SDK calls from one
// goroutine, hands their messages on in order and keeps the books on the
// calls in flight; Write, called from any goroutine, writes the SDK's
// messages.
type lineConn struct {
	out   io.Writer
	outMu sync.Mutex // one line a Write

	incoming chan lines    // from the reader goroutine
	stopping chan struct{} // closed by Stop
	stopOnce sync.Once
	closed   chan struct{} // closed by Close
	once     sync.Once
	queue    []jsonrpc.Message // the rest of a batch, for Read

	mu       sync.Mutex
	version  string        // the protocol version initialize agreed on
	initID   jsonrpc.ID    // the initialize request whose answer says it
	initDone chan struct{} // closed when that answer is written
	calls    map[jsonrpc.ID]*callInFlight
	idle     chan struct{} // closed when the last call is answered
}

// lines is what the reader goroutine hands to Read: the messages of a
// line, or the error that ended the input (io.EOF at its end).
type lines struct {
	n     int // the line number
	msgs  []jsonrpc.Message
	batch bool
	err   error
}

// callInFlight is a request handed to the SDK that has no answer yet.
type callInFlight struct {
	cancelled bool          // by the client: its answer is not sent
	batch     *batchReplies // the batch it came in, if any
}

// batchReplies collects the answers to the calls of one batch, which are
// sent together, in the order of the calls (JSON-RPC 2.0 allows any).
type batchReplies struct {
	index   map[jsonrpc.ID]int
	replies []*jsonrpc.Response // nil: not answered yet, or cancelled
	left    int
}

// readLines reads the lines of in, answers those that are not JSON-RPC
// messages, and hands the messages of the others to Read.
func (c *lineConn) readLines(in io.Reader, limit int) {
	r := bufio.NewReaderSize(in, 64<<10)
	for n := 1; ; n++ {
		line, size, err := readLine(r, limit)
		if err != nil && !errors.Is(err, io.EOF) {
			c.handOn(lines{err: err})
			return
		}
		if size > 0 || len(bytes.TrimSpace(line)) > 0 {
			if msgs, batch, refusal := decodeLine(n, line, size, limit); refusal != nil {
				c.writeLine(refusal)
			} else if !c.handOn(lines{n: n, msgs: msgs, batch: batch}) {
				return
			}
		}
		if err != nil {
			c.handOn(lines{err: io.EOF})
			return
		}
	}
}

// handOn gives l to Read, unless the connection is closed first.
func (c *lineConn) handOn(l lines) bool {
	select {
	case c.incoming <- l:
		return true
	case <-c.closed:
		return false
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

// decodeLine decodes line n, a JSON-RPC message or a batch of them, or
// returns the answer to a line the SDK must not see. size is set when the
// line was longer than limit, and line is then nil.
func decodeLine(n int, line []byte, size, limit int) (msgs []jsonrpc.Message, batch bool, refusal []byte) {
	if size > 0 {
		return nil, false, ErrorResponse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"Invalid Request: line %d is %d bytes, more than the %d a message may have; it was not read", n, size, limit))
	}
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return nil, false, ErrorResponse(nil, jsonrpc.CodeParseError, fmt.Sprintf("Parse error: line %d is not JSON: %v", n, err))
	}
	if path := rawjson.Duplicate(line, IsArguments); path != "" {
		id, message := DuplicateError(line, path)
		return nil, false, ErrorResponse(id, jsonrpc.CodeInvalidRequest, message)
	}
	raws := []json.RawMessage{line}
	if trimmed := bytes.TrimSpace(line); trimmed[0] == '[' {
		raws = nil
		if json.Unmarshal(trimmed, &raws) != nil || len(raws) == 0 {
			return nil, false, ErrorResponse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: line %d is an empty batch", n))
		}
		batch = true
	}
	msgs = make([]jsonrpc.Message, len(raws))
	for i, m := range raws {
		if trimmed := bytes.TrimSpace(m); trimmed[0] != '{' {
			return nil, false, ErrorResponse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
				"Invalid Request: line %d is not a JSON-RPC 2.0 message, which is an object such as {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", n))
		}
		msg, err := decodeMessage(m)
		if err != nil {
			return nil, false, ErrorResponse(MessageID(m), jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid Request: line %d is not a JSON-RPC 2.0 message: %v", n, err))
		}
		msgs[i] = msg
	}
	return msgs, batch, nil
}

// decodeMessage decodes one JSON-RPC message by the rules of the SDK's
// jsonrpc.DecodeMessage, with its errors for a wrong version tag and a bad
// id, but through encoding/json: the SDK's decoder allocates a 32 KiB
// buffer for every message, and collecting those was a large part of the
// server's CPU. data is an object that json.Valid has accepted and that
// gives no member twice; members are matched by their exact names, as the
// SDK matches them (encoding/json alone would also take "Method").
func decodeMessage(data []byte) (jsonrpc.Message, error) {
	var tag, id, method, params, result, failure json.RawMessage
	rawjson.ForEachMember(data, func(key, value []byte) {
		switch string(key) {
		case "jsonrpc":
			tag = value
		case "id":
			id = value
		case "method":
			method = value
		case "params":
			params = value
		case "result":
			result = value
		case "error":
			failure = value
		}
	})
	var version string
	var rawID any
	for _, m := range []struct {
		raw json.RawMessage
		to  any
	}{{tag, &version}, {id, &rawID}} {
		if m.raw != nil {
			if err := json.Unmarshal(m.raw, m.to); err != nil {
				return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
			}
		}
	}
	if version != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", version, "2.0")
	}
	msgID, err := jsonrpc.MakeID(rawID)
	if err != nil {
		return nil, err
	}
	if method != nil {
		var name string
		if err := json.Unmarshal(method, &name); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		return &jsonrpc.Request{ID: msgID, Method: name, Params: params}, nil
	}
	if !msgID.IsValid() {
		return nil, errors.New("it has neither a method nor an id")
	}
	if failure != nil && string(failure) != "null" {
		// A client answers the server's own requests with an error rarely, so
		// the SDK's decoder reads it: its field names match case-sensitively,
		// which encoding/json's do not ("dAtA" would read as "data").
		return jsonrpc.DecodeMessage(data)
	}
	return &jsonrpc.Response{ID: msgID, Result: result}, nil
}

// Read implements mcp.Connection: the next message for the SDK. At the end
// of the input, or after Stop, it reports io.EOF once every call has its
// answer: the SDK drops the requests it has not started when its input
// ends, so a client that writes a call and closes stdin at once would get
// nothing done.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if len(c.queue) > 0 {
			msg := c.queue[0]
			c.queue = c.queue[1:]
			return msg, nil
		}
		var l lines
		select {
		case l = <-c.incoming:
		case <-c.stopping:
			return nil, c.drained()
		case <-c.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		switch {
		case errors.Is(l.err, io.EOF):
			return nil, c.drained()
		case l.err != nil:
			return nil, l.err
		case l.batch:
			// A client may write the lines after initialize before its
			// answer: the batch waits for the version it agrees on.
			c.awaitInitialize()
			if refusal := c.takeBatch(l.n, l.msgs); refusal != nil {
				c.writeLine(refusal)
				continue
			}
			c.queue = l.msgs
		default:
			req, ok := l.msgs[0].(*jsonrpc.Request)
			if ok && isPing(req) {
				// The SDK refuses ping in 2026-07-28.
				c.writeLine(append(PingResult(idJSON(req.ID)), '\n'))
				continue
			}
			if ok {
				c.take(req)
			}
			c.queue = l.msgs
		}
	}
}

// take keeps the books on req, a message handed to the SDK: a call in
// flight, the initialize whose answer agrees on the version, or a
// cancellation of a call in flight.
func (c *lineConn) take(req *jsonrpc.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case req.IsCall():
		if c.add(req.ID, nil) && req.Method == "initialize" {
			c.initID, c.initDone = req.ID, make(chan struct{})
		}
	case req.Method == "notifications/cancelled":
		var params struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &params) != nil {
			return // the SDK logs it
		}
		id, err := jsonrpc.MakeID(params.RequestID)
		// initialize cannot be cancelled (the spec's lifecycle).
		if call := c.calls[id]; err == nil && call != nil && id != c.initID {
			call.cancelled = true
		}
	}
}

// awaitInitialize waits for the answer to the initialize in flight, if
// any, or for the connection to close.
func (c *lineConn) awaitInitialize() {
	c.mu.Lock()
	done := c.initDone
	if !c.initID.IsValid() {
		done = nil
	}
	c.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-c.closed:
		}
	}
}

// takeBatch keeps the books on the calls of batch line n, or returns the
// refusal of a batch the agreed version does not allow, or whose calls
// share an id with each other or with a call in flight: their answers
// could not be told apart.
func (c *lineConn) takeBatch(n int, msgs []jsonrpc.Message) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != BatchVersion {
		return ErrorResponse(nil, jsonrpc.CodeInvalidRequest, BatchRefusal(fmt.Sprintf("line %d", n), c.version, "line"))
	}
	b := &batchReplies{index: map[jsonrpc.ID]int{}}
	for _, m := range msgs {
		if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
			if _, dup := b.index[req.ID]; dup || c.calls[req.ID] != nil {
				return ErrorResponse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf(
					"Invalid Request: line %d is a batch that uses the id %s of another call in it or in flight; give each call an id of its own", n, idJSON(req.ID)))
			}
			b.index[req.ID] = len(b.index)
		}
	}
	if len(b.index) == 0 {
		return nil // notifications only: nothing to answer
	}
	b.replies = make([]*jsonrpc.Response, len(b.index))
	b.left = len(b.index)
	for id := range b.index {
		c.add(id, b)
	}
	return nil
}

// add records the call id in flight and reports true, unless a call with
// that id is in flight already (the SDK refuses the second one without an
// answer); c.mu is held.
func (c *lineConn) add(id jsonrpc.ID, b *batchReplies) bool {
	if c.calls[id] != nil {
		return false
	}
	if len(c.calls) == 0 {
		c.idle = make(chan struct{})
	}
	c.calls[id] = &callInFlight{batch: b}
	return true
}

// drained waits until no call is in flight, or the connection is closed,
// and returns io.EOF.
func (c *lineConn) drained() error {
	c.mu.Lock()
	idle := c.idle
	if len(c.calls) == 0 {
		idle = nil
	}
	c.mu.Unlock()
	if idle != nil {
		select {
		case <-idle:
		case <-c.closed:
		}
	}
	return io.EOF
}

// Write implements mcp.Connection: it writes msg on a line of its own,
// unless it answers a call the client cancelled, or one of a batch whose
// other calls have not been answered yet.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return c.encode(msg)
	}
	c.mu.Lock()
	if c.initID.IsValid() && resp.ID == c.initID {
		c.initID = jsonrpc.ID{}
		defer close(c.initDone) // once the version is set
		var result struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if resp.Error == nil && json.Unmarshal(resp.Result, &result) == nil {
			c.version = result.ProtocolVersion
		}
	}
	call := c.calls[resp.ID]
	if call == nil {
		c.mu.Unlock()
		return c.encode(msg) // not a call in the books: the SDK's own answer
	}
	send, batch := !call.cancelled, []*jsonrpc.Response(nil)
	if b := call.batch; b != nil {
		if send {
			b.replies[b.index[resp.ID]] = resp
		}
		send = false
		if b.left--; b.left == 0 {
			batch = b.replies
		}
	}
	c.mu.Unlock()
	var err error
	switch {
	case send:
		err = c.encode(msg)
	case batch != nil:
		err = c.encodeBatch(batch)
	}
	// Answered once it is written, so that the end of the input is passed
	// on after the last answer has gone out.
	c.answered(resp.ID)
	return err
}

// answered records that the call id has its answer.
func (c *lineConn) answered(id jsonrpc.ID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.calls[id]; !ok {
		return
	}
	delete(c.calls, id)
	if len(c.calls) == 0 {
		close(c.idle)
	}
}

// encode writes msg as one line, with the SDK's encoder.
func (c *lineConn) encode(msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeLine(append(data, '\n'))
}

// encodeBatch writes the answers to a batch as one line: a JSON array of
// them, leaving out those of cancelled calls, or nothing if all were.
func (c *lineConn) encodeBatch(replies []*jsonrpc.Response) error {
	var raws []json.RawMessage
	for _, r := range replies {
		if r == nil {
			continue
		}
		data, err := jsonrpc.EncodeMessage(r)
		if err != nil {
			return fmt.Errorf("encoding a message: %w", err)
		}
		raws = append(raws, data)
	}
	if len(raws) == 0 {
		return nil
	}
	data, err := json.Marshal(raws)
	if err != nil {
		return err
	}
	return c.writeLine(append(data, '\n'))
}

// writeLine writes one whole line, which ends in a newline.
func (c *lineConn) writeLine(line []byte) error {
	c.outMu.Lock()
	defer c.outMu.Unlock()
	_, err := c.out.Write(line)
	return err
}

// Close implements mcp.Connection. In and Out stay open: they belong to the
// caller.
func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection: stdio has no sessions.
func (c *lineConn) SessionID() string { return "" }

// isPing reports whether req is a ping that expects an answer.
func isPing(req *jsonrpc.Request) bool { return req.Method == "ping" && req.IsCall() }

// idJSON is id as JSON.
func idJSON(id jsonrpc.ID) json.RawMessage {
	data, _ := json.Marshal(id.Raw())
	return data
}

// ClientGone reports whether err, from a stdio session, only says that its
// client went away: a broken or closed pipe. That ends the session, and is
// no failure of the server.
func ClientGone(err error) bool {
	return errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE)
}
