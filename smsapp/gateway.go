package smsapp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/descriptor"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/internal/nopanic"
	"github.com/mobilemcp/mobilemcp/mcpserver"
)

// RemoteCaller invokes other apps' Mobile-MCP tools for the gateway: the
// MCP server (StartHTTP) serves the tools the user shared (SetRemoteTool)
// and calls them through it. The app implements it with the client
// library, as the app itself, so each tool's own validation, consent and
// reply store apply and its consent prompt names the app.
type RemoteCaller interface {
	// Call invokes capability of the app packageName with argsJSON (a
	// JSON object) under the Mobile-MCP request id requestID, and returns
	// the reply JSON the tool sent (its mobile-mcp-response extra),
	// failures included. requestID is derived from the MCP client's own
	// and is the same for each retry, so the tool's reply store answers a
	// retry with the first run's reply; it is "" when the client gave
	// none, and then the call takes a fresh id. It returns an error when
	// the tool cannot be reached or gives no reply within timeoutMillis.
	Call(packageName, capability, requestID, argsJSON string, timeoutMillis int64) (string, error)
}

// SetRemoteCaller makes c the way the gateway calls other apps' tools. Set
// it before sharing any (SetRemoteTool).
func (s *Server) SetRemoteCaller(c RemoteCaller) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.caller = c
}

// SetRemoteTimeoutMillis bounds every call of a shared tool to
// timeoutMillis, for tools shared from now on; zero or less means each
// capability's own timeout plus a few seconds for the reply's trip through
// Android.
func (s *Server) SetRemoteTimeoutMillis(timeoutMillis int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.remoteTimeout = time.Duration(max(timeoutMillis, 0)) * time.Millisecond
}

// SetRemoteTool records another app's Mobile-MCP tool: the app
// packageName, whose descriptor is descriptorJSON (its
// mobile.mcp.tool.capabilities resource, which the app walks as agents
// read it, as the JSON tree of descriptor.DecodeTree), and whether the
// user shares it. A shared tool's capabilities are served by the MCP server,
// now if it runs and whenever it starts, as tools named
// "<packageName>-<capability id>" (see mcpserver.SharedApp); one that is
// not shared is not served. Calling it again, as after an update, replaces
// what the app had. It fails, changing nothing, when the descriptor has
// lint errors or is over a limit (maxSharedDescriptorBytes, and those of
// mcpserver.SharedApp.Check), when a tool name would be another shared
// app's, or when no caller was set.
func (s *Server) SetRemoteTool(packageName, descriptorJSON string, shared bool) (err error) {
	defer nopanic.Into(&err, "smsapp: SetRemoteTool")
	if !shared {
		s.RemoveRemoteTool(packageName)
		return nil
	}
	if err := checkSharedDescriptor(packageName, len(descriptorJSON)); err != nil {
		return err
	}
	root, err := descriptor.DecodeTree([]byte(descriptorJSON))
	if err != nil {
		return fmt.Errorf("smsapp: %s cannot be shared: %w", packageName, err)
	}
	// Its patterns are checked, as lint checks them: the gateway hands
	// them to MCP clients.
	file, err := descriptor.Check(packageName, root, &descriptor.ReadOptions{Pattern: xmlfile.CheckPattern})
	if err != nil {
		return fmt.Errorf("smsapp: %s cannot be shared: %w", packageName, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.caller == nil {
		return errors.New("smsapp: SetRemoteTool needs a RemoteCaller; call SetRemoteCaller first")
	}
	r := mcpserver.SharedApp{Package: packageName, Capabilities: file.Capabilities(), Call: remoteCall(s.caller, packageName), Timeout: s.remoteTimeout}
	if err := r.Check(slices.Collect(maps.Values(s.remotes))); err != nil {
		return err
	}
	if s.http != nil {
		if _, err := s.http.srv.Share(r); err != nil {
			return err
		}
	}
	s.remotes[packageName] = r
	return nil
}

// RemoveRemoteTool stops serving the tools of the app packageName, as when
// it was uninstalled or the user stopped sharing it. Removing one that is
// not served does nothing.
func (s *Server) RemoveRemoteTool(packageName string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.remotes, packageName)
	if s.http != nil {
		s.http.srv.Unshare(packageName)
	}
}

// serveRemotes gives a new MCP server every shared tool. s.mu is held.
func (s *Server) serveRemotes(srv *mcpserver.Server) {
	for pkg, r := range s.remotes {
		if _, err := srv.Share(r); err != nil {
			// SetRemoteTool checked it; a tool that now fails is left out
			// rather than keeping the server from starting.
			s.log().Error("smsapp: a shared tool cannot be served", "package", pkg, "error", err)
		}
	}
}

// maxSharedDescriptorBytes is the most a shared app's descriptor may hold:
// one app once put 903 tools, 8.6 MB, in the list that every agent reads.
// A tool app's descriptor holds a few kilobytes.
const maxSharedDescriptorBytes = 64 << 10

// checkSharedDescriptor fails when the descriptor of the app packageName,
// of size bytes, is larger than a shared app's may be
// (maxSharedDescriptorBytes). It is checked before the descriptor is read.
func checkSharedDescriptor(packageName string, size int) error {
	if size > maxSharedDescriptorBytes {
		return fmt.Errorf("smsapp: the descriptor of %s is %d bytes; a shared app's may be at most %d", packageName, size, maxSharedDescriptorBytes)
	}
	return nil
}

// javaGrace is how long Java's wait outlasts the call's deadline: the
// engine's own timeout, which names the tool, is then the one reported,
// rather than Java's, which may fire a moment earlier on a busy phone.
const javaGrace = time.Second

// remoteCall calls the app packageName through c. The Java call blocks its
// goroutine, which cannot be interrupted, so the result is awaited until
// ctx's deadline only; Java's own timeout, javaGrace later, ends the call
// soon after.
func remoteCall(c RemoteCaller, packageName string) func(ctx context.Context, capabilityID, requestID string, args []byte) ([]byte, error) {
	return func(ctx context.Context, capabilityID, requestID string, args []byte) ([]byte, error) {
		wait := mcpserver.MaxSharedTimeout
		if deadline, ok := ctx.Deadline(); ok {
			wait = time.Until(deadline)
		}
		timeout := (max(wait, 0) + javaGrace).Milliseconds()
		type result struct {
			reply string
			err   error
		}
		done := make(chan result, 1)
		go func() {
			var r result
			defer func() {
				if p := recover(); p != nil {
					r.err = fmt.Errorf("the call failed with an internal error: %v", p)
				}
				done <- r
			}()
			r.reply, r.err = c.Call(packageName, capabilityID, requestID, string(args), timeout)
		}()
		select {
		case r := <-done:
			return []byte(r.reply), r.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
