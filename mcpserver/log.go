package mcpserver

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// logCalls writes one line per tools/call: who called which tool, the
// outcome (ok, or the error_code) and how long it took. It never logs
// argument values, only their size: they hold phone numbers and message
// texts.
func (s *Server) logCalls(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		start := time.Now()
		res, err := next(ctx, method, req)
		tool, argBytes := "", 0
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok {
			tool, argBytes = p.Name, len(p.Arguments)
		}
		if _, known := s.engine.Registry().Lookup(tool); !known && !s.isRemote(tool) {
			tool = text.Excerpt(tool) // any length a client likes
		}
		s.opts.Logger.LogAttrs(ctx, slog.LevelInfo, "tools/call",
			slog.String("client", clientFrom(ctx)),
			slog.String("tool", tool),
			slog.String("outcome", outcome(res, err)),
			slog.Duration("duration", time.Since(start)),
			slog.Int("arg_bytes", argBytes))
		return res, err
	}
}

// outcome is "ok", the error_code of an isError result, or "rpc_error:
// <code>" when the call failed at the protocol level (an unknown tool).
func outcome(res mcp.Result, err error) string {
	if err != nil {
		var rpc *jsonrpc.Error
		if errors.As(err, &rpc) {
			return "rpc_error:" + strconv.FormatInt(rpc.Code, 10)
		}
		return "rpc_error"
	}
	r, ok := res.(*mcp.CallToolResult)
	if !ok || !r.IsError {
		return "ok"
	}
	if errors.Is(r.GetError(), errCancelled) {
		return "cancelled"
	}
	var cerr *capability.Error
	if errors.As(r.GetError(), &cerr) {
		return string(cerr.Code)
	}
	return "error"
}
