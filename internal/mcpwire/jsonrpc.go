package mcpwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
)

// IsArguments reports whether path is a tools/call's arguments, whose
// duplicated names the engine refuses, with the message every transport
// gives.
func IsArguments(path string) bool {
	return path == "params.arguments" || strings.HasSuffix(path, "].params.arguments")
}

// DuplicateError is the id and the message of the answer to a JSON-RPC
// message that gives the member at path twice. encoding/json, and so the
// SDK, would keep the last of the two: a call naming get_sms_subscriptions
// and then send_sms would run send_sms. The request's id is echoed unless
// it is the member given twice.
func DuplicateError(body []byte, path string) (json.RawMessage, string) {
	var id json.RawMessage
	if path != "id" {
		id = MessageID(body)
	}
	return id, fmt.Sprintf("Invalid Request: %s is given twice; send each member once", path)
}

// MessageID is the id of the JSON-RPC message body when it is a string or
// a number, else nil.
func MessageID(body []byte) json.RawMessage {
	var id json.RawMessage
	rawjson.ForEachMember(body, func(key, value []byte) {
		if string(key) == "id" && (value[0] == '"' || value[0] == '-' || value[0] >= '0' && value[0] <= '9') {
			id = value
		}
	})
	return id
}

// ErrorResponse is a JSON-RPC 2.0 error response with id (null when nil)
// as one line: what the server answers itself, before the SDK sees a
// message, over HTTP and over stdio. The SDK's encoder leaves out a null id, which
// JSON-RPC 2.0 requires on a parse error.
func ErrorResponse(id json.RawMessage, code int, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	var reply struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	reply.JSONRPC, reply.ID = "2.0", id
	reply.Error.Code, reply.Error.Message = code, message
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // messages show "<token>" as it is
	enc.Encode(reply)
	return buf.Bytes()
}
