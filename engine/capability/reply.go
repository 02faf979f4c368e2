package capability

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// Status is the outcome of an invocation as the spec names it.
type Status string

// The two statuses of the Mobile-MCP response.
const (
	StatusSuccess Status = "success"
	StatusFailure Status = "failure"
)

// Reply is the outcome of one request, ready to encode in either layout.
type Reply struct {
	// ID echoes the request id. It is "" when the request had no usable id,
	// and is then encoded as null.
	ID string
	// CapabilityID echoes the capability the request named, or "" when
	// none could be read.
	CapabilityID string
	// Status is success or failure.
	Status Status
	// Message is the outcome for people and models: the result's message,
	// or what was wrong.
	Message string
	// ErrorCode is set on failure only: the wire format's error_code.
	ErrorCode Code
	// RetryAfter is how long a rate_limited caller should wait, encoded as
	// retry_after_ms (whole milliseconds, rounded up) when it is above zero:
	// a mobilemcp extension beside error_code, which spec clients ignore.
	RetryAfter time.Duration
	// Output holds a success's output values, in their declared order.
	Output []Value
	// Shape is the layout the request came in; JSON answers in the same one.
	Shape Shape
	// Replayed reports a stored reply to an earlier request with the same
	// id: the capability did not run again. It is not part of the wire format.
	Replayed bool
	// Cancelled reports that the call's caller cancelled it before it did
	// anything (Call.Cancelled); the reply is a timeout nobody reads, and is
	// not kept. It is not part of the wire format.
	Cancelled bool
}

// failure builds a failure reply that echoes what is known of the request.
func failure(req Request, err *Error) *Reply {
	return &Reply{
		ID:           req.ID,
		CapabilityID: req.CapabilityID,
		Status:       StatusFailure,
		Message:      err.Message,
		ErrorCode:    err.Code,
		RetryAfter:   err.RetryAfter,
		Shape:        req.Shape,
	}
}

// Failed reports whether the reply is a failure.
func (r *Reply) Failed() bool { return r.Status != StatusSuccess }

// SpecJSON encodes the reply in the specification's layout:
// {"mobile-mcp-response":{"version":"1.0","response":{...}}}.
func (r *Reply) SpecJSON() []byte {
	return r.encode(true)
}

// FlatJSON encodes the reply in the prototype's flat layout: the inner
// response object, with id, status and message at the top.
func (r *Reply) FlatJSON() []byte {
	return r.encode(false)
}

// JSON encodes the reply in the layout the request came in.
func (r *Reply) JSON() []byte {
	return r.encode(r.Shape != ShapePrototype)
}

// encode writes the reply by hand: replies are on every transport's hot
// path, and the envelope is fixed, so only output values need reflection.
// If an output value cannot be encoded (a handler bug), the reply becomes an
// internal_error without output, so the caller still gets exactly one
// well-formed reply.
func (r *Reply) encode(envelope bool) []byte {
	buf := make([]byte, 0, 256+len(r.Message))
	if envelope {
		buf = append(buf, `{"mobile-mcp-response":{"version":"`+SpecVersion+`","response":`...)
	}
	buf = append(buf, `{"id":`...)
	if r.ID == "" {
		buf = append(buf, "null"...)
	} else {
		buf = rawjson.AppendString(buf, r.ID)
	}
	if r.CapabilityID != "" {
		buf = append(buf, `,"capability":{"id":`...)
		buf = rawjson.AppendString(buf, r.CapabilityID)
		if len(r.Output) > 0 {
			buf = append(buf, `,"output":[`...)
			for i, v := range r.Output {
				if i > 0 {
					buf = append(buf, ',')
				}
				var err error
				if buf, err = appendValue(buf, v); err != nil {
					broken := failure(Request{ID: r.ID, CapabilityID: r.CapabilityID, Shape: r.Shape},
						Errorf(CodeInternalError, "%s produced an output that cannot be encoded as JSON: %v", r.CapabilityID, err))
					return broken.encode(envelope)
				}
			}
			buf = append(buf, ']')
		}
		buf = append(buf, '}')
	}
	buf = append(buf, `,"status":`...)
	buf = rawjson.AppendString(buf, string(r.Status))
	buf = append(buf, `,"message":`...)
	buf = rawjson.AppendString(buf, r.Message)
	if r.ErrorCode != "" {
		buf = append(buf, `,"error_code":`...)
		buf = rawjson.AppendString(buf, string(r.ErrorCode))
	}
	if r.RetryAfter > 0 {
		buf = append(buf, `,"retry_after_ms":`...)
		buf = strconv.AppendInt(buf, RetryAfterMillis(r.RetryAfter), 10)
	}
	buf = append(buf, '}')
	if envelope {
		buf = append(buf, "}}"...)
	}
	return buf
}

// DecodeReply parses a reply in either layout. Output values stay as raw
// JSON. It is what an agent, the adb tool and the reply store use to
// read replies back.
func DecodeReply(data []byte) (*Reply, error) {
	type wireReply struct {
		ID         *string `json:"id"`
		Capability *struct {
			ID     string `json:"id"`
			Output []struct {
				Name  string          `json:"name"`
				Type  Type            `json:"type"`
				Value json.RawMessage `json:"value"`
			} `json:"output"`
		} `json:"capability"`
		Status    Status `json:"status"`
		Message   string `json:"message"`
		ErrorCode Code   `json:"error_code"`
		// RetryAfterMillis is retry_after_ms, or 0.
		RetryAfterMillis int64 `json:"retry_after_ms"`
	}
	var env struct {
		Envelope *struct {
			Version  string    `json:"version"`
			Response wireReply `json:"response"`
		} `json:"mobile-mcp-response"`
		wireReply
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("reply is not valid JSON: %w", err)
	}
	w, shape := env.wireReply, ShapePrototype
	if env.Envelope != nil {
		w, shape = env.Envelope.Response, ShapeSpec
	}
	if w.Status != StatusSuccess && w.Status != StatusFailure {
		return nil, fmt.Errorf("reply has status %s; want %q or %q", text.Quote(string(w.Status)), StatusSuccess, StatusFailure)
	}
	r := &Reply{Status: w.Status, Message: w.Message, ErrorCode: w.ErrorCode, Shape: shape,
		RetryAfter: time.Duration(max(w.RetryAfterMillis, 0)) * time.Millisecond}
	if w.ID != nil {
		r.ID = *w.ID
	}
	if w.Capability != nil {
		r.CapabilityID = w.Capability.ID
		for _, v := range w.Capability.Output {
			r.Output = append(r.Output, Value{Name: v.Name, Type: v.Type, Value: v.Value})
		}
	}
	return r, nil
}

// appendValue writes one output value as {"name":..,"type":..,"value":..}.
func appendValue(buf []byte, v Value) ([]byte, error) {
	buf = append(buf, `{"name":`...)
	buf = rawjson.AppendString(buf, v.Name)
	buf = append(buf, `,"type":`...)
	buf = rawjson.AppendString(buf, string(v.Type))
	buf = append(buf, `,"value":`...)
	buf, err := rawjson.AppendValue(buf, v.Value)
	if err != nil {
		return buf, err
	}
	return append(buf, '}'), nil
}
