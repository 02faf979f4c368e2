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
		if c.Annotations.Destructive {
			// Every call counts, valid or not: the limit protects the
			// phone from a client that floods it, whatever it sends.
			if wait, ok := s.limiter.Allow(clientFrom(ctx)); !ok {
				return failed(capability.Errorf(capability.CodeRateLimited,
					"%s is limited to %s per client; retry in %d seconds", c.ID, s.opts.RateLimit, ratelimit.RetryAfter(wait))), nil
			}
		}
		result, cerr := s.engine.Call(ctx, c.ID, args)
		if cerr != nil {
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

// failed is an isError result. The text is "error_code: message", because
// the code cannot travel in structuredContent: the official TypeScript
// client checks structuredContent against the tool's outputSchema even on
// an error result, and rejects the whole result when it does not match.
func failed(err *capability.Error) *mcp.CallToolResult {
	res := &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}},
		Meta:    mcp.Meta{MetaErrorCode: string(err.Code)},
	}
	res.SetError(err) // sets IsError, and lets the call log read the code
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
