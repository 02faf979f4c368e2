// Package smsapp is what only the SMS reference app adds to the engine that
// every tool app ships (intentbridge): the SMS capabilities over the app's
// Java platform, the MCP server (StartHTTP) and the gateway that serves the
// other apps' shared tools through it. From Java, after the bridge is open:
//
//	Smsapp.addSMS(tool, platform);          // before bridge.start(tool)
//	Server server = Smsapp.serverFor(bridge);
//	server.startHTTP("127.0.0.1:9531", token);
//
// Its surface uses only types gomobile can carry:
//
//   - AddSMS adds send_sms and get_sms_subscriptions to a Tool.
//   - ServerFor gives a Bridge's one Server: StartHTTP and StopHTTP, and
//     the gateway's SetRemoteCaller, SetRemoteTool and RemoveRemoteTool.
//
// gomobile binds it beside intentbridge for the SMS app alone, so a tool app
// built on the SDK carries no HTTP server, TLS, MCP SDK or SMS code (make
// size).
package smsapp

import (
	"log/slog"
	"sync"
	"time"

	"github.com/mobilemcp/mobilemcp/intentbridge"
	"github.com/mobilemcp/mobilemcp/mcpserver"
	"github.com/mobilemcp/mobilemcp/sms/javaplatform"
)

// Platform is what the SMS capabilities need of the phone, implemented in
// Java with SubscriptionManager and SmsManager. Both methods answer in JSON
// so that Java only moves strings; javaplatform.Platform documents the
// JSON.
type Platform interface {
	// SubscriptionsJSON returns the active subscriptions, or an error code
	// and message (see javaplatform.Platform).
	SubscriptionsJSON() (string, error)
	// SendSMS sends text to the E.164 number on the subscription and waits
	// up to timeoutMillis for the parts' sent results (see
	// javaplatform.Platform).
	SendSMS(subscriptionID int, to, text string, timeoutMillis int64) (string, error)
}

// AddSMS adds send_sms and get_sms_subscriptions, implemented in Go over
// p, to tool. The descriptor must declare them exactly as 'mobilemcp gen'
// writes them.
func AddSMS(tool *intentbridge.Tool, p Platform) {
	tool.AddGo(javaplatform.Capabilities(p)...)
}

// Server is a bridge's MCP server and gateway. It serves the engine of the
// bridge's started tool; ServerFor gives the one of each bridge.
type Server struct {
	bridge *intentbridge.Bridge

	mu   sync.Mutex  // guards http and the gateway's fields
	http *httpServer // the MCP server, while StartHTTP has it running

	// The gateway: other apps' tools the user shares over the MCP server
	// (SetRemoteTool), the way to call them and the bound on each call.
	remotes       map[string]mcpserver.SharedApp // by package
	caller        RemoteCaller
	remoteTimeout time.Duration
	// httpMu makes StartHTTP and StopHTTP take turns. StopHTTP holds it,
	// not mu, while it waits for calls in flight: SetRemoteTool takes mu
	// and must not wait for a stop.
	httpMu sync.Mutex
}

var (
	serversMu sync.Mutex
	servers   = map[*intentbridge.Bridge]*Server{}
)

// ServerFor returns bridge's one Server, made on first use. The server stops
// when the bridge closes.
func ServerFor(bridge *intentbridge.Bridge) *Server {
	serversMu.Lock()
	defer serversMu.Unlock()
	if s, ok := servers[bridge]; ok {
		return s
	}
	s := &Server{bridge: bridge, remotes: map[string]mcpserver.SharedApp{}}
	servers[bridge] = s
	bridge.OnClose(func() error {
		serversMu.Lock()
		delete(servers, bridge)
		serversMu.Unlock()
		return s.StopHTTP()
	})
	return s
}

// log is where the MCP server and the gateway log: the bridge's logger when
// it is an *slog.Logger, as the app's tests make it, and otherwise slog's
// default logger, which gomobile sends to logcat as the bridge's own does.
// The server needs slog, which the SMS app's engine carries; the tool
// engine's bridge logs without it.
func (s *Server) log() *slog.Logger {
	if l, ok := s.bridge.Logger().(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}
