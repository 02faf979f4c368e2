package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/capability"
	"github.com/mobilemcp/mobilemcp/ratelimit"
)

// MetaErrorCode is the _meta key of a failed result's error_code, the same
// code the Intent transport sends. The text content starts with it too.
const MetaErrorCode = "io.github.mobilemcp/error_code"

// MetaRequestID is the _meta key under which a client may give tools/call a
// request id of its own choosing. A call that repeats the id of one the same
// client made within the reply store's window gets the original result, and
// nothing runs again: a client that retries a send_sms after a timeout
// cannot send twice. JSON-RPC ids cannot serve, because every client session
// starts counting them again from zero.
const MetaRequestID = "io.github.mobilemcp/request_id"

// toolHandler runs capability c for tools/call. Every failure, from bad
// arguments to a panic, becomes an isError result the model can read; a Go
// error would reach the client as a JSON-RPC error with code 0.
func (s *Server) toolHandler(c *capability.Capability) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		defer func() {
			// The engine recovers its handlers already. This catches the
			// rest: the SDK recovers nothing, and a panic on its goroutine
			// would end the whole process.
			if p := recover(); p != nil {
				s.opts.Logger.Error("recovered panic", "tool", c.ID, "panic", p, "stack", string(debug.Stack()))
				res = failed(capability.Errorf(capability.CodeInternalError, "%s failed with an internal error: %v", c.ID, p))
			}
		}()
		args, cerr := capability.DecodeArgs(req.Params.Arguments)
		if cerr != nil {
			return failed(cerr), nil
		}
		// The engine admits the call in its one order, after the arguments
		// are checked and a retried request id is answered from the store.
		ctx = capability.WithAdmission(ctx, s.admit)
		var result capability.Result
		if raw, given := req.Params.Meta[MetaRequestID]; given {
			reply, cerr := s.invoke(ctx, c, raw, args)
			if cerr != nil {
				return failed(cerr), nil
			}
			result = capability.Result{Message: reply.Message, Output: reply.Output}
		} else if result, cerr = s.engine.Call(ctx, c.ID, args); cerr != nil {
			return failed(cerr), nil
		}
		structured, err := structuredContent(result.Output)
		if err != nil {
			return failed(capability.Errorf(capability.CodeInternalError, "%s produced an output that cannot be encoded as JSON: %v", c.ID, err)), nil
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: result.Message}},
			StructuredContent: structured,
		}, nil
	}
}

// admit limits each client's calls of capabilities that change something.
// Only calls that would run count: the engine asks after it has refused
// invalid arguments and answered retries from the reply store.
func (s *Server) admit(ctx context.Context, c *capability.Capability) error {
	if !c.ChangesState() {
		return nil
	}
	if wait, ok := s.limiter.Allow(clientFrom(ctx)); !ok {
		return capability.Errorf(capability.CodeRateLimited,
			"%s is limited to %s per client; retry in %s", c.ID, s.opts.RateLimit, ratelimit.RetryIn(wait))
	}
	return nil
}

// invoke runs c under the client's request id, through the reply store.
func (s *Server) invoke(ctx context.Context, c *capability.Capability, rawID any, args map[string]json.RawMessage) (*capability.Reply, *capability.Error) {
	id, ok := rawID.(string)
	if !ok || id == "" || len(id) > capability.MaxIDLength {
		return nil, capability.Errorf(capability.CodeInvalidRequest, "_meta %q must be a non-empty string of at most %d bytes", MetaRequestID, capability.MaxIDLength)
	}
	// Ids are per client, and MCP clients are kept apart from Android apps.
	ctx = capability.WithCaller(ctx, "mcp:"+clientFrom(ctx))
	reply := s.engine.Invoke(ctx, capability.Request{ID: id, CapabilityID: c.ID, Args: args})
	if reply.Failed() {
		return nil, &capability.Error{Code: reply.ErrorCode, Message: reply.Message}
	}
	return reply, nil
}

// failed is an isError result. The text is "error_code: message", because
// the code cannot travel in structuredContent: the official TypeScript
// client checks structuredContent against the tool's outputSchema even on
// an error result, and rejects the whole result when it does not match.
func failed(err error) *mcp.CallToolResult {
	e := capability.AsError(err, capability.CodeInternalError)
	res := &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: e.Error()}},
		Meta:    mcp.Meta{MetaErrorCode: string(e.Code)},
	}
	res.SetError(e) // sets IsError, and lets the call log read the code
	return res
}

// structuredContent writes the output values as one JSON object, in their
// declared order, with the encoder the Intent replies use. Values are
// encoded here rather than by the SDK, so that a value that cannot be
// encoded is this call's failure, not a broken reply.
func structuredContent(values []capability.Value) (json.RawMessage, error) {
	buf := make([]byte, 0, 256)
	buf = append(buf, '{')
	for i, v := range values {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = capability.AppendJSONString(buf, v.Name)
		buf = append(buf, ':')
		var err error
		if buf, err = capability.AppendJSONValue(buf, v.Value); err != nil {
			return nil, fmt.Errorf("output %s: %w", v.Name, err)
		}
	}
	return append(buf, '}'), nil
}
