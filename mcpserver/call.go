package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/ratelimit"
	"github.com/mobilemcp/mobilemcp/internal/rawjson"
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

// MetaRetryAfterMillis is the _meta key of a rate_limited result's wait in
// whole milliseconds, as a Mobile-MCP reply's retry_after_ms: a client can
// wait without reading the text.
const MetaRetryAfterMillis = "io.github.mobilemcp/retry_after_ms"

// toolHandler runs capability id of engine for tools/call: the server's
// own capabilities on its engine, and a shared app's on the engine of its
// remote tools (see Share), through the engine's one pipeline. Every
// failure, from bad arguments to a panic, becomes an isError result the
// model can read; a Go error would reach the client as a JSON-RPC error
// with code 0.
func (s *Server) toolHandler(engine *capability.Engine, id string) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		defer func() {
			// The engine recovers its own panics. This catches the rest:
			// the SDK recovers nothing, and a panic on its goroutine would
			// end the whole process.
			if p := recover(); p != nil {
				s.opts.Logger.Error("recovered panic", "tool", id, "panic", p, "stack", string(debug.Stack()))
				res = failed(capability.Errorf(capability.CodeInternalError, "%s failed with an internal error: %v", id, p))
			}
		}()
		// A client that cancels the call (notifications/cancelled, or in
		// 2026-07-28 over HTTP by closing its request) stops it while it has
		// not reached the platform, with nothing done. Once the platform has
		// it, it runs to its end, as it does when the client just goes away:
		// a send cut short could leave the radio's work half done and
		// unrecorded. The engine's own deadline for the capability bounds it.
		cancelled := cancelledBy(ctx)
		ctx = context.WithoutCancel(ctx)
		requestID, cerr := requestIDFrom(req.Params.Meta)
		if cerr != nil {
			return failed(cerr), nil
		}
		// The engine decodes the arguments as it decodes a Mobile-MCP
		// request's: the same layouts, refused the same way. Request ids
		// are per client, and MCP clients are kept apart from Android
		// apps. The token proved the client.
		caller := capability.Caller{ID: "mcp:" + clientFrom(ctx), Vouched: true}
		reply := engine.Do(ctx, capability.NewToolCall(requestID, id, req.Params.Arguments, caller, s.admit).WithCancelled(cancelled))
		if reply.Cancelled {
			// Nobody reads it: the transport drops the reply to a cancelled
			// request. The call log says what happened.
			res := failed(&capability.Error{Code: reply.ErrorCode, Message: reply.Message})
			res.SetError(errCancelled)
			return res, nil
		}
		if reply.Failed() {
			return failed(&capability.Error{Code: reply.ErrorCode, Message: reply.Message, RetryAfter: reply.RetryAfter}), nil
		}
		structured, err := structuredContent(reply.Output)
		if err != nil {
			return failed(capability.Errorf(capability.CodeInternalError, "%s produced an output that cannot be encoded as JSON: %v", id, err)), nil
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: reply.Message}},
			StructuredContent: structured,
		}, nil
	}
}

// errCancelled marks the result of a call its client cancelled before it
// did anything, for the call log.
var errCancelled = errors.New("cancelled by the client")

// cancelledBy reports, once asked, whether the client cancelled the request
// whose context is ctx. The SDK cancels a request's context when its client
// cancels it, with no cause; it also cancels the calls in flight when the
// connection breaks, with the error as the cause, and that is no
// cancellation: a call then runs to its end as before.
func cancelledBy(ctx context.Context) func() bool {
	return func() bool { return ctx.Err() != nil && context.Cause(ctx) == context.Canceled }
}

// admit limits each client's calls of capabilities that change something.
// Only calls that would run count: the engine asks after it has refused
// invalid arguments and answered retries from the reply store.
func (s *Server) admit(ctx context.Context, _ capability.Caller, c *capability.Capability) error {
	if !c.ChangesState() {
		return nil
	}
	if wait, ok := s.limiter.Allow(clientFrom(ctx)); !ok {
		return capability.RateLimited(wait, "%s is limited to %s %s; retry in %s", c.ID, s.opts.RateLimit, sharedBy(clientFrom(ctx)), ratelimit.RetryIn(wait))
	}
	return nil
}

// sharedBy says who shares the budget of client: the limit is per client,
// and a client is every caller on loopback, or every holder of the token,
// or the one program on stdio.
func sharedBy(client string) string {
	switch client {
	case "loopback":
		return "shared by every client on this computer"
	case "token":
		return "shared by every client that holds the token"
	case stdioClient:
		return "for this client"
	}
	return "per client"
}

// requestIDFrom reads the request id a client may give in _meta
// (MetaRequestID), or "" when it gives none.
func requestIDFrom(meta mcp.Meta) (string, *capability.Error) {
	raw, given := meta[MetaRequestID]
	if !given {
		return "", nil
	}
	id, ok := raw.(string)
	if !ok || id == "" || len(id) > capability.MaxIDLength {
		return "", capability.Errorf(capability.CodeInvalidRequest, "_meta %q must be a non-empty string of at most %d bytes", MetaRequestID, capability.MaxIDLength)
	}
	return id, nil
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
	if e.RetryAfter > 0 {
		res.Meta[MetaRetryAfterMillis] = capability.RetryAfterMillis(e.RetryAfter)
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
		buf = rawjson.AppendString(buf, v.Name)
		buf = append(buf, ':')
		var err error
		if buf, err = rawjson.AppendValue(buf, v.Value); err != nil {
			return nil, fmt.Errorf("output %s: %w", v.Name, err)
		}
	}
	return append(buf, '}'), nil
}
