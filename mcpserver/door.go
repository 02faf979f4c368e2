package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// The door: every byte the server writes toward a client, over HTTP
// (doorWriter) and over stdio (lineDoor), passes one filter where it is
// written out, whatever made it: the SDK's tools/list, a tool's result, a
// shared app's reply quoted in the gateway's own words, a JSON-RPC error,
// a refusal of the server's own. A model reads all of it. In a JSON body
// every string, member names included, loses its invisible characters and
// gets a plain space for each blank space (text.StripInvisible); only the
// JSON-RPC id, the client's own, goes back as it came, so that the client
// can match the answer to its request. Any other body is text, filtered
// whole. So a new source of text cannot forget the filter: there is no way
// out around it.

// cleanJSON returns msg, a JSON value (a JSON-RPC message, or a batch of
// them), with every string filtered (see the door), but the "id" member
// of a message. A msg that is not valid JSON is filtered as text.
func cleanJSON(msg []byte) []byte {
	if !mayHide(msg) {
		return msg
	}
	out, i, ok := cleanValue(msg, skipSpace(msg, 0), make([]byte, 0, len(msg)), 0, true)
	if !ok || skipSpace(msg, i) != len(msg) {
		return cleanText(msg)
	}
	return append(out, msg[i:]...)
}

// mayHide reports whether data may hold a character the door removes: a
// byte outside ASCII, or an escape (a hidden character may be written as
// \uXXXX, a control as \b, \f or \r). Most messages hold neither.
func mayHide(data []byte) bool {
	for _, b := range data {
		if b >= utf8.RuneSelf || b == '\\' {
			return true
		}
	}
	return false
}

// cleanText returns data, text, without its invisible characters (see
// text.StripInvisible); bytes that are not UTF-8 become U+FFFD.
func cleanText(data []byte) []byte {
	if !mayHide(data) {
		return data
	}
	return []byte(text.StripInvisible(string(bytes.ToValidUTF8(data, []byte("\uFFFD")))))
}

// maxDoorDepth bounds the nesting cleanValue follows, as encoding/json
// bounds what it decodes; the SDK never writes deeper.
const maxDoorDepth = 10000

// cleanValue appends the value that starts at msg[i] to out, with its
// strings filtered, and returns out and the index just past the value. It
// reports false when msg is not valid JSON there. depth is how deep the
// value is; message reports that it is a JSON-RPC message, or a batch of
// them: the whole of what is written, or an element of a batch.
func cleanValue(msg []byte, i int, out []byte, depth int, message bool) ([]byte, int, bool) {
	if i >= len(msg) || depth > maxDoorDepth {
		return out, i, false
	}
	switch msg[i] {
	case '"':
		return cleanString(msg, i, out)
	case '[', '{':
		obj := msg[i] == '{'
		closing := byte(']')
		if obj {
			closing = '}'
		}
		out = append(out, msg[i])
		i = skipSpace(msg, i+1)
		if i < len(msg) && msg[i] == closing {
			return append(out, closing), i + 1, true
		}
		for {
			var ok bool
			verbatim := false
			if obj {
				if i >= len(msg) || msg[i] != '"' {
					return out, i, false
				}
				end := endOfString(msg, i)
				if end < 0 {
					return out, i, false
				}
				// A message's id is the client's; it goes back as it came.
				verbatim = message && string(msg[i:end]) == `"id"`
				if out, i, ok = cleanString(msg, i, out); !ok {
					return out, i, false
				}
				i = skipSpace(msg, i)
				if i >= len(msg) || msg[i] != ':' {
					return out, i, false
				}
				out = append(out, ':')
				i = skipSpace(msg, i+1)
			}
			if verbatim {
				end := skipJSON(msg, i)
				if end < 0 {
					return out, i, false
				}
				out, i = append(out, msg[i:end]...), end
			} else if out, i, ok = cleanValue(msg, i, out, depth+1, message && depth == 0 && !obj); !ok {
				return out, i, false
			}
			i = skipSpace(msg, i)
			switch {
			case i < len(msg) && msg[i] == ',':
				out = append(out, ',')
				i = skipSpace(msg, i+1)
			case i < len(msg) && msg[i] == closing:
				return append(out, closing), i + 1, true
			default:
				return out, i, false
			}
		}
	}
	end := skipJSON(msg, i)
	if end < 0 {
		return out, i, false
	}
	return append(out, msg[i:end]...), end, true
}

// cleanString appends the string that starts at msg[i] to out, filtered,
// and returns out and the index just past it.
func cleanString(msg []byte, i int, out []byte) ([]byte, int, bool) {
	end := endOfString(msg, i)
	if end < 0 {
		return out, i, false
	}
	quoted := msg[i:end]
	if !mayHide(quoted) {
		return append(out, quoted...), end, true
	}
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return out, i, false
	}
	if clean := text.StripInvisible(s); clean != s || !utf8.Valid(quoted) {
		return rawjson.AppendString(out, clean), end, true
	}
	return append(out, quoted...), end, true
}

// endOfString returns the index just past the string that starts at
// msg[i], or -1 when it does not end.
func endOfString(msg []byte, i int) int {
	for i++; i < len(msg); i++ {
		switch msg[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipJSON returns the index just past the value that starts at msg[i],
// or -1 when it is not valid JSON.
func skipJSON(msg []byte, i int) int {
	dec := json.NewDecoder(bytes.NewReader(msg[i:]))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return -1
	}
	return i + int(dec.InputOffset())
}

func skipSpace(msg []byte, i int) int {
	for i < len(msg) && (msg[i] == ' ' || msg[i] == '\t' || msg[i] == '\n' || msg[i] == '\r') {
		i++
	}
	return i
}

// doorWriter holds an HTTP answer back until its handler returns (finish),
// then writes it filtered: a JSON body by cleanJSON, any other by
// cleanText. An event stream, which stays open, is filtered and passed on
// a line at a time (each event's data is one JSON-RPC message).
type doorWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
	stream bool // passing an event stream on
}

// guardDoor passes every answer of next through the door.
func guardDoor(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := &doorWriter{ResponseWriter: w}
		defer d.finish()
		next.ServeHTTP(d, r)
	})
}

func (d *doorWriter) WriteHeader(code int) {
	if d.status != 0 {
		return
	}
	d.status = code
	if mediaType(d.Header()) == "text/event-stream" {
		d.stream = true
		d.Header().Del("Content-Length")
		d.ResponseWriter.WriteHeader(code)
	}
}

func (d *doorWriter) Write(p []byte) (int, error) {
	if d.status == 0 {
		if d.Header().Get("Content-Type") == "" {
			d.Header().Set("Content-Type", http.DetectContentType(p))
		}
		d.WriteHeader(http.StatusOK)
	}
	d.body.Write(p)
	if d.stream {
		return len(p), d.passLines()
	}
	return len(p), nil
}

// passLines writes the event stream's whole lines held so far, each
// event's data filtered.
func (d *doorWriter) passLines() error {
	for {
		line, err := d.body.ReadBytes('\n')
		if err != nil { // no whole line left: keep the rest
			rest := append([]byte(nil), line...)
			d.body.Reset()
			d.body.Write(rest)
			return nil
		}
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			line = append([]byte("data:"), cleanJSON(bytes.TrimRight(data, "\r\n"))...)
			line = append(line, '\n')
		} else {
			line = cleanText(line)
		}
		if _, err := d.ResponseWriter.Write(line); err != nil {
			return err
		}
	}
}

// Flush passes a flush on for an event stream; any other answer is sent
// whole when its handler returns.
func (d *doorWriter) Flush() {
	if f, ok := d.ResponseWriter.(http.Flusher); ok && d.stream {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (d *doorWriter) Unwrap() http.ResponseWriter { return d.ResponseWriter }

// finish writes what was held, filtered.
func (d *doorWriter) finish() {
	switch {
	case d.stream:
		d.ResponseWriter.Write(cleanText(d.body.Bytes()))
		return
	case d.status == 0:
		return // nothing was written: net/http answers 200 with no body
	}
	body := d.body.Bytes()
	if mediaType(d.Header()) == "application/json" {
		body = cleanJSON(body)
	} else {
		body = cleanText(body)
	}
	d.Header().Del("Content-Length")
	d.ResponseWriter.WriteHeader(d.status)
	d.ResponseWriter.Write(body)
}

// mediaType is the media type of h's Content-Type, in lower case.
func mediaType(h http.Header) string {
	t, _, _ := mime.ParseMediaType(h.Get("Content-Type"))
	return t
}

// lineDoor passes each line a stdio transport writes through cleanJSON:
// the transport writes one whole line at a time.
type lineDoor struct{ out io.Writer }

func (l lineDoor) Write(p []byte) (int, error) {
	line, whole := bytes.CutSuffix(p, []byte("\n"))
	clean := append([]byte(nil), cleanJSON(line)...)
	if whole {
		clean = append(clean, '\n')
	}
	if _, err := l.out.Write(clean); err != nil {
		return 0, err
	}
	return len(p), nil
}
