package capability

import (
	"bytes"
	"encoding/json"
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
	ID           string
	CapabilityID string
	Status       Status
	Message      string
	ErrorCode    Code // set on failure only
	Output       []Value
	// Shape is the layout the request came in; JSON answers in the same one.
	Shape Shape
}

// failure builds a failure reply that echoes what is known of the request.
func failure(req Request, err *Error) *Reply {
	return &Reply{
		ID:           req.ID,
		CapabilityID: req.CapabilityID,
		Status:       StatusFailure,
		Message:      err.Message,
		ErrorCode:    err.Code,
		Shape:        req.Shape,
	}
}

// Failed reports whether the reply is a failure.
func (r *Reply) Failed() bool { return r.Status != StatusSuccess }

type (
	wireResponse struct {
		ID         *string            `json:"id"`
		Capability *wireOutCapability `json:"capability,omitempty"`
		Status     Status             `json:"status"`
		Message    string             `json:"message"`
		ErrorCode  Code               `json:"error_code,omitempty"`
	}
	wireOutCapability struct {
		ID     string  `json:"id"`
		Output []Value `json:"output,omitempty"`
	}
	wireResponseEnvelope struct {
		Envelope struct {
			Version  string        `json:"version"`
			Response *wireResponse `json:"response"`
		} `json:"mobile-mcp-response"`
	}
)

func (r *Reply) wire() *wireResponse {
	w := &wireResponse{Status: r.Status, Message: r.Message, ErrorCode: r.ErrorCode}
	if r.ID != "" {
		w.ID = &r.ID
	}
	if r.CapabilityID != "" {
		w.Capability = &wireOutCapability{ID: r.CapabilityID, Output: r.Output}
	}
	return w
}

// SpecJSON encodes the reply in the specification's layout:
// {"mobile-mcp-response":{"version":"1.0","response":{...}}}.
func (r *Reply) SpecJSON() []byte {
	var env wireResponseEnvelope
	env.Envelope.Version = SpecVersion
	env.Envelope.Response = r.wire()
	return r.encode(&env, (*Reply).SpecJSON)
}

// FlatJSON encodes the reply in the prototype's flat layout: the inner
// response object, with id, status and message at the top.
func (r *Reply) FlatJSON() []byte {
	return r.encode(r.wire(), (*Reply).FlatJSON)
}

// JSON encodes the reply in the layout the request came in.
func (r *Reply) JSON() []byte {
	if r.Shape == ShapePrototype {
		return r.FlatJSON()
	}
	return r.SpecJSON()
}

// encode marshals v. If an output value cannot be encoded (a handler bug),
// the reply becomes an internal_error without output, so the caller still
// gets exactly one well-formed reply.
func (r *Reply) encode(v any, again func(*Reply) []byte) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // messages are read by people and LLMs, not embedded in HTML
	if err := enc.Encode(v); err != nil {
		broken := failure(Request{ID: r.ID, CapabilityID: r.CapabilityID, Shape: r.Shape},
			Errorf(CodeInternalError, "%s produced an output that cannot be encoded as JSON: %v", r.CapabilityID, err))
		return again(broken)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
