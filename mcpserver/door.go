package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"
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
	out, end, ok := cleanValue(msg)
	if !ok {
		return cleanText(msg)
	}
	return append(out, msg[end:]...)
}

// mayHide reports whether data may hold a character the door removes: a
// byte outside ASCII, an escape (a hidden character may be written as
// \uXXXX, a control as \b, \f or \r), or an ASCII control other than
// tab and newline, DEL included, which JSON lets a string hold as it is.
// Most messages hold none.
func mayHide(data []byte) bool {
	for _, b := range data {
		if b >= utf8.RuneSelf || b == '\\' || b == 0x7f || (b < ' ' && b != '\t' && b != '\n') {
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

// cleanValue returns msg, one JSON value read token by token with
// encoding/json, without the spaces between its tokens, with every string
// filtered but a message's "id" member, and the index just past the value
// in msg: what follows is only space. It reports false when msg is not
// one valid JSON value. A message is what msg holds, or an element of a
// batch: an array that msg holds. A string that the filter leaves as it
// is stays as it was written; one it changes is written again as
// encoding/json writes it (rawjson.AppendString). Numbers stay as
// written, and so does a message's id.
func cleanValue(msg []byte) ([]byte, int, bool) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.UseNumber()
	out := make([]byte, 0, len(msg))
	var open []json.Delim // the arrays and objects the next token is in
	idName := false       // the token is a member name written "id"
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, 0, false
		}
		closing := tok == json.Delim(']') || tok == json.Delim('}')
		inObject := len(open) > 0 && open[len(open)-1] == '{'
		name := inObject && !closing && out[len(out)-1] != ':'
		if !closing && !name && len(open) > maxDoorDepth {
			return nil, 0, false
		}
		// A ',' before each value or name but the first in its array
		// or object.
		if !closing && len(open) > 0 && !bytes.ContainsAny(out[len(out)-1:], "[{:") {
			out = append(out, ',')
		}
		switch tok := tok.(type) {
		case json.Delim:
			out = append(out, byte(tok))
			if closing {
				open = open[:len(open)-1]
			} else {
				open = append(open, tok)
			}
		case string:
			// Only space and a ',' or ':' come between the last token
			// and the string.
			quoted := bytes.TrimLeft(msg[start:dec.InputOffset()], " \t\r\n,:")
			idName = name && string(quoted) == `"id"`
			out = cleanString(out, quoted, tok)
		case json.Number:
			out = append(out, tok...)
		case bool:
			out = strconv.AppendBool(out, tok)
		case nil:
			out = append(out, "null"...)
		}
		if name {
			out = append(out, ':')
			// A message's id is the client's; it goes back as it came.
			message := len(open) == 1 || len(open) == 2 && open[0] == '['
			if idName && message {
				var id json.RawMessage
				if err := dec.Decode(&id); err != nil {
					return nil, 0, false
				}
				out = append(out, id...)
			}
		}
		if len(open) == 0 {
			end := int(dec.InputOffset())
			_, err := dec.Token()
			return out, end, err == io.EOF
		}
	}
}

// cleanString appends the JSON string quoted, which decodes to s, to out,
// filtered: as written when the filter leaves it as it is, else as
// encoding/json writes it.
func cleanString(out, quoted []byte, s string) []byte {
	if mayHide(quoted) {
		if clean := text.StripInvisible(s); clean != s || !utf8.Valid(quoted) {
			return rawjson.AppendString(out, clean)
		}
	}
	return append(out, quoted...)
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
