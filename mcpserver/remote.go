package mcpserver

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/text"
)

// A SharedApp is another app's Mobile-MCP tool that a server serves next to
// its own capabilities (Server.Share): the gateway an app on a phone offers
// for every tool the user chose to share. Its capabilities become MCP tools
// with the same conversion as the server's own (and as 'mobilemcp tools'),
// each named by the package and the capability id in the alphabet model
// providers accept, such as "io_github_mobilemcp_notes-create_note" (see
// sharedToolName); each call is sent to the app with Call, and the app validates, asks for consent and keeps its reply
// store as it does for any caller.
type SharedApp struct {
	// Package is the app's package name, such as
	// "io.github.mobilemcp.notes". It is the namespace of its tools.
	Package string
	// Capabilities are the ones its descriptor declares.
	Capabilities []*capability.Capability
	// Call invokes capabilityID of the app with args (a JSON object) under
	// the Mobile-MCP request id requestID, and returns the reply JSON the
	// app sent, as the Mobile-MCP spec lays it out. requestID is derived
	// from the MCP client's own request id (sharedRequestID), the same for
	// every retry, so that the app's reply store answers a retry with the
	// first run's reply; it is "" when the client gave none, and then the
	// call makes a fresh one. It must return by ctx's deadline; an error
	// means the app could not be reached or did not answer.
	Call func(ctx context.Context, capabilityID, requestID string, args []byte) (reply []byte, err error)
	// Timeout bounds each call. Zero means the capability's own timeout
	// plus a few seconds for the reply's trip through Android, so that the
	// app's own timeout reply arrives first. It is at most
	// MaxSharedTimeout either way.
	Timeout time.Duration
}

// MaxSharedTimeout caps how long a call of a shared app's tool may take,
// whatever the app's descriptor says, so that the server's write deadline (set when it
// is built, before any remote exists) always outlasts it.
const MaxSharedTimeout = 2 * time.Minute

// remoteGrace is added to a remote capability's own timeout: the app
// answers timeout itself at its deadline, and that reply still has to
// travel back through Android.
const remoteGrace = 5 * time.Second

// maxToolName is the longest name a shared tool has: the limit of the
// tool names that model providers' function calling accepts
// (^[a-zA-Z0-9_-]{1,64}$, OpenAI's and Anthropic's), to which agent
// frameworks hand MCP tool names unchanged.
const maxToolName = 64

// maxSharedCapabilities is the most capabilities a shared app may declare:
// one app once put 903 tools, 8.6 MB, in the list that every agent reads,
// each call of tools/list carrying them to the model. A tool app has a
// handful of capabilities.
const maxSharedCapabilities = 32

// remoteSeparator separates the package from the capability id in a shared
// tool's name. Neither a package nor its part of the name ever holds it, so
// the first "-" of a name always ends the package's part, whatever "-" the
// capability id holds.
const remoteSeparator = "-"

// sharedToolName is the MCP tool name of capability capabilityID of the app
// packageName, in the alphabet model providers accept ([a-zA-Z0-9_-], at
// most 64 characters): the package with "_" for each ".", "-", and the
// capability id with "_" for each ".", such as
// "io_github_mobilemcp_notes-create_note".
//
// No two apps' capabilities share a name. A package without "_" keeps its
// name exactly: each "_" of its part stands for a ".", which a letter always
// follows. A package with a "_" of its own (which would meet the same
// package with a "." in its place), or whose name would be too long, keeps
// the start of its part and ends it with "_0x" and 16 hex digits of the
// SHA-256 of the whole package: "_" followed by a digit, which no package
// without "_" makes, so no app's exact name is another's shortened one; and
// 64 bits of hash leave no search for another package with the same start
// and hash. It fails for a package name that is not one, or a capability id
// that leaves no room for a package.
func sharedToolName(packageName, capabilityID string) (string, error) {
	if !validPackage(packageName) {
		return "", fmt.Errorf("mcpserver: %q is not an Android package name (letters, digits and _ in dot-separated segments, each starting with a letter)", packageName)
	}
	if !capability.ValidID(capabilityID) {
		return "", fmt.Errorf("mcpserver: capability id %q of %s is not a valid MCP tool name", capabilityID, packageName)
	}
	pkg, id := strings.ReplaceAll(packageName, ".", "_"), strings.ReplaceAll(capabilityID, ".", "_")
	if !strings.Contains(packageName, "_") && len(pkg)+len(remoteSeparator)+len(id) <= maxToolName {
		return pkg + remoteSeparator + id, nil
	}
	sum := sha256.Sum256([]byte(packageName))
	hash := "_0x" + hex.EncodeToString(sum[:8])
	keep := maxToolName - len(remoteSeparator) - len(id) - len(hash)
	if keep < 1 {
		return "", fmt.Errorf("mcpserver: capability id %q of %s is %d characters long; a shared tool's name needs it to be at most %d", capabilityID, packageName, len(capabilityID), maxToolName-len(remoteSeparator)-len(hash)-1)
	}
	return pkg[:min(keep, len(pkg))] + hash + remoteSeparator + id, nil
}

// validPackage reports whether name is an Android package name: at least
// two segments, each a letter followed by letters, digits or "_".
func validPackage(name string) bool {
	segments := strings.Split(name, ".")
	if len(segments) < 2 {
		return false
	}
	for _, s := range segments {
		if s == "" || !isLetter(s[0]) {
			return false
		}
		for i := 1; i < len(s); i++ {
			if c := s[i]; !isLetter(c) && !('0' <= c && c <= '9') && c != '_' {
				return false
			}
		}
	}
	return true
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// ToolNames are the names r's capabilities are served under, in their
// order (see sharedToolName).
func (r SharedApp) ToolNames() ([]string, error) {
	names := make([]string, len(r.Capabilities))
	for i, c := range r.Capabilities {
		var err error
		if names[i], err = sharedToolName(r.Package, c.ID); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// Check reports why r could not be served (see Server.Share) next to
// others, the apps shared already, without serving it: for the gateway
// while no server runs. An app of others with r's package is the one r
// replaces.
func (r SharedApp) Check(others []SharedApp) error {
	if _, err := r.tools(); err != nil {
		return err
	}
	served := make(map[string][]string, len(others))
	for _, o := range others {
		names, err := o.ToolNames()
		if err != nil {
			return err
		}
		served[o.Package] = names
	}
	names, _ := r.ToolNames() // r.tools made them
	return checkApart(r.Package, names, served)
}

// tools checks r and makes its MCP tools: the conversion of the server's
// own (newTool, which drops what the user cannot see from titles and
// descriptions), named by sharedToolName and titled with the app's
// package, so that no shared tool passes for the phone's own.
func (r SharedApp) tools() ([]*mcp.Tool, error) {
	if r.Call == nil {
		return nil, fmt.Errorf("mcpserver: remote %s has no Call", r.Package)
	}
	if n := len(r.Capabilities); n > maxSharedCapabilities {
		return nil, fmt.Errorf("mcpserver: %s declares %d capabilities; a shared app may declare at most %d", r.Package, n, maxSharedCapabilities)
	}
	names, err := r.ToolNames()
	if err != nil {
		return nil, err
	}
	tools := make([]*mcp.Tool, len(names))
	for i, c := range r.Capabilities {
		if err := checkVisibleNames(r.Package, c); err != nil {
			return nil, err
		}
		if tools[i], err = newTool(c); err != nil {
			return nil, err
		}
		tools[i].Name = names[i]
		tools[i].Title = r.Package + ": " + cmp.Or(tools[i].Title, c.ID)
		tools[i].Annotations.Title = tools[i].Title
	}
	return tools, nil
}

// checkVisibleNames fails when a param name or pattern of c holds a
// character a person does not see, or a blank space (see
// text.IndexUnseen). Titles and descriptions are cleaned of such
// characters (newTool), but a name is sent back to the app as it is, which
// expects it so, and a pattern is a regular expression the model reads
// whole: they must be what the user sees. pkg is the app's package, for
// the message.
func checkVisibleNames(pkg string, c *capability.Capability) error {
	for _, list := range []struct {
		kind   string
		params []capability.Param
	}{{"input", c.Input}, {"output", c.Output}} {
		for _, p := range list.params {
			for _, field := range []struct{ what, value string }{
				{fmt.Sprintf("%s param %q", list.kind, p.Name), p.Name},
				{fmt.Sprintf("the pattern of %s param %q", list.kind, p.Name), p.Pattern},
			} {
				if at := text.IndexUnseen(field.value); at >= 0 {
					r, _ := utf8.DecodeRuneInString(field.value[at:])
					return fmt.Errorf("mcpserver: %s of %s of %s has a character that is not shown (%U); a shared tool's names and patterns must be what the user sees", field.what, c.ID, pkg, r)
				}
			}
		}
	}
	return nil
}

// checkApart fails when one of names, the tools of the app pkg, is a tool
// name of another app in served (tool names by package). The app that has
// a name keeps it: a second app under it would get the first's calls, and
// removing it would remove the first's tool.
func checkApart(pkg string, names []string, served map[string][]string) error {
	for other, theirs := range served {
		if other == pkg {
			continue
		}
		for _, name := range names {
			if slices.Contains(theirs, name) {
				return fmt.Errorf("mcpserver: %s cannot be shared: its tool %s has the name of a tool of %s, which is shared already", pkg, name, other)
			}
		}
	}
	return nil
}

// Share serves r's capabilities as tools, in place of any r.Package
// had before, and returns their names. Clients see the change at their
// next tools/list. It fails, changing nothing, when a name cannot be made
// or would take the name of one of the server's own capabilities or of
// another app's tool, or r is over a limit (maxSharedCapabilities), or a
// param name or pattern holds a character that is not shown.
func (s *Server) Share(r SharedApp) ([]string, error) {
	tools, err := r.tools()
	if err != nil {
		return nil, err
	}
	names := make([]string, len(tools))
	for i, tool := range tools {
		names[i] = tool.Name
		if _, local := s.engine.Registry().Lookup(tool.Name); local {
			return nil, fmt.Errorf("mcpserver: %s of %s would be named %s, which this server's own capability is", r.Capabilities[i].ID, r.Package, tool.Name)
		}
	}
	engine, err := r.engine(names, s.opts.Logger)
	if err != nil {
		return nil, err
	}
	s.remoteMu.Lock()
	defer s.remoteMu.Unlock()
	if err := checkApart(r.Package, names, s.remotes); err != nil {
		return nil, err
	}
	if stale := slices.DeleteFunc(s.remotes[r.Package], func(n string) bool { return slices.Contains(names, n) }); len(stale) > 0 {
		s.mcp.RemoveTools(stale...)
	}
	for _, tool := range tools {
		s.mcp.AddTool(tool, s.toolHandler(engine, tool.Name))
	}
	s.remotes[r.Package] = names
	return slices.Clone(names), nil
}

// Unshare stops serving the tools of the app packageName. Removing
// one that is not served does nothing.
func (s *Server) Unshare(packageName string) {
	s.remoteMu.Lock()
	defer s.remoteMu.Unlock()
	if names := s.remotes[packageName]; len(names) > 0 {
		s.mcp.RemoveTools(names...)
	}
	delete(s.remotes, packageName)
}

// isRemote reports whether name is a remote tool's, for the call log.
func (s *Server) isRemote(name string) bool {
	s.remoteMu.Lock()
	defer s.remoteMu.Unlock()
	for _, names := range s.remotes {
		if slices.Contains(names, name) {
			return true
		}
	}
	return false
}

// engine is the engine r's tools run on: each capability under its tool
// name (names, in r's order), so that every message names the tool; with
// its deadline for the trip to the app (see SharedApp.Timeout); and with a
// handler that sends the call to the app. The calls go through the same
// pipeline as the server's own capabilities: the same argument checks,
// admission, timeout rules, error mapping and output check.
func (r SharedApp) engine(names []string, logger *slog.Logger) (*capability.Engine, error) {
	tools := make([]capability.Capability, len(r.Capabilities))
	for i, c := range r.Capabilities {
		tool := *c
		tool.ID = names[i]
		tool.Timeout = min(cmp.Or(r.Timeout, cmp.Or(c.Timeout, capability.DefaultTimeout)+remoteGrace), MaxSharedTimeout)
		tool.Validate = nil // the app's own; it runs there
		tool.Handler = r.handler(names[i], c)
		tools[i] = tool
	}
	reg, err := capability.NewRegistry(tools...)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %s: %w", r.Package, err)
	}
	// No reply store here: the app keeps its own, per caller, and each call
	// carries the request id sharedRequestID derives from the client's, so
	// the app answers a retry, through any gateway process, from its store.
	return capability.NewEngine(reg, capability.Options{Logger: logger}), nil
}

// handler sends a call of capability capabilityID, served as tool name, to
// the app. Whatever goes wrong on the way (the app cannot be reached,
// answers something that is not a reply to this call) is a platform_error
// naming the tool; a failure the app replies with keeps its message and
// its error_code, when that is one of Mobile-MCP's (appFailure); not
// answering by the deadline is the engine's timeout.
func (r SharedApp) handler(name string, c *capability.Capability) capability.Handler {
	call, capabilityID := r.Call, c.ID
	return func(ctx context.Context, args capability.Args) (capability.Result, error) {
		argsJSON, err := encodeArgs(c, args)
		if err != nil {
			return capability.Result{}, capability.Errorf(capability.CodeInternalError, "%s: encoding its arguments: %v", name, err)
		}
		requestID := sharedRequestID(capability.CallerOf(ctx).ID, capability.RequestID(ctx))
		data, err := call(ctx, capabilityID, requestID, argsJSON)
		switch {
		case errors.Is(err, context.DeadlineExceeded) || err == nil && ctx.Err() != nil:
			return capability.Result{}, context.DeadlineExceeded
		case err != nil:
			return capability.Result{}, capability.Errorf(capability.CodePlatformError, "%s could not be reached: %v", name, err)
		}
		reply, err := capability.DecodeReply(data)
		if err != nil {
			return capability.Result{}, capability.Errorf(capability.CodePlatformError, "%s answered with something that is not a Mobile-MCP reply: %v", name, err)
		}
		// The app's client library matches a reply to its call by the call's own reply channel
		// and request id; a reply that names no request or another capability is still never
		// passed on as this call's data.
		switch {
		case reply.ID == "":
			return capability.Result{}, capability.Errorf(capability.CodePlatformError, "%s answered with a reply that names no request, so it is not the reply to this call; nothing of it is passed on", name)
		case reply.CapabilityID != "" && reply.CapabilityID != capabilityID:
			return capability.Result{}, capability.Errorf(capability.CodePlatformError, "%s answered with a reply of %s, not %s; nothing of it is passed on", name, text.Excerpt(reply.CapabilityID), capabilityID)
		case reply.Failed():
			return capability.Result{}, appFailure(reply)
		}
		// What the app says reaches the model as the tool's result: none of
		// it may be hidden from the user.
		return capability.Result{Message: text.StripInvisible(reply.Message), Output: reply.Output}, nil
	}
}

// appFailure is the failure an app replied with, as the model reads it,
// in the result's text and _meta: the app's error_code when it is one of
// Mobile-MCP's, and platform_error for any other, which is words of the
// app's own, hidden text or not; and its message without what is not
// shown.
func appFailure(reply *capability.Reply) *capability.Error {
	code := reply.ErrorCode
	if !code.Known() {
		code = capability.CodePlatformError
	}
	return &capability.Error{Code: code, Message: text.StripInvisible(reply.Message)}
}

// sharedRequestID is the Mobile-MCP request id under which a shared tool's
// call goes to its app, for the MCP client caller (capability.Caller.ID)
// and the request id it gave in _meta (MetaRequestID); "" when it gave
// none. A retry of the call, through this server or one started after it,
// carries the same id, which the app's reply store answers with the first
// run's reply. The id is "mcp-" and the SHA-256 of both, in hex: every
// call reaches the app as the gateway's, so two clients that pick the same
// id get two ids, neither can name another's, and none is an id the
// gateway's own assistant calls use (the client library's UUIDs).
func sharedRequestID(caller, requestID string) string {
	if requestID == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(caller + "\x00" + requestID))
	return "mcp-" + hex.EncodeToString(sum[:])
}

// encodeArgs writes checked arguments as the JSON object the app gets, in
// the order its descriptor declares them, with the writer of the server's
// structured outputs.
func encodeArgs(c *capability.Capability, args capability.Args) ([]byte, error) {
	values := make([]capability.Value, 0, len(args))
	for _, p := range c.Input {
		if v, given := args[p.Name]; given {
			values = append(values, capability.Value{Name: p.Name, Value: v})
		}
	}
	return structuredContent(values)
}
