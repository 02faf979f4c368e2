package mcpserver_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/mcpserver"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// heldPhone is the simulated phone with a hold that the test lets go of:
// in the SIM list, which send_sms reads before it sends, or at the radio,
// inside the send.
type heldPhone struct {
	*simphone.Phone
	at        string        // "subscriptions" or "send"
	reached   chan struct{} // closed when a call reaches the hold
	release   chan struct{} // closed by the test to let it go on
	cancelled atomic.Bool   // the held call saw its caller cancel it
	once      sync.Once
}

func newHeldPhone(at string) *heldPhone {
	return &heldPhone{at: at, reached: make(chan struct{}), release: make(chan struct{})}
}

// on is the platform for startServerOn.
func (p *heldPhone) on(phone *simphone.Phone) sms.Platform {
	p.Phone = phone
	return p
}

func (p *heldPhone) Subscriptions(ctx context.Context) ([]sms.Subscription, error) {
	if p.at == "subscriptions" {
		p.hold(ctx)
	}
	return p.Phone.Subscriptions(ctx)
}

func (p *heldPhone) Send(ctx context.Context, msg sms.Message) ([]sms.PartResult, error) {
	if p.at == "send" {
		p.hold(ctx)
	}
	return p.Phone.Send(ctx, msg)
}

// hold waits for the release, watching for the call's cancellation, which
// the SDK passes on from a goroutine of its own.
func (p *heldPhone) hold(ctx context.Context) {
	p.once.Do(func() { close(p.reached) })
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.release:
			return
		case <-tick.C:
			if capability.Cancelled(ctx) {
				p.cancelled.Store(true)
			}
		}
	}
}

// waitReached waits for a call to reach the hold.
func (p *heldPhone) waitReached(t *testing.T) {
	t.Helper()
	select {
	case <-p.reached:
	case <-time.After(10 * time.Second):
		t.Fatalf("no call reached the phone's %s", p.at)
	}
}

// releaseCancelled lets the held call go on once it has seen that its
// caller cancelled it.
func (p *heldPhone) releaseCancelled(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !p.cancelled.Load(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the held call did not see the cancellation")
		}
	}
	close(p.release)
}

// sendCall is a tools/call of send_sms with JSON-RPC id 2.
const sendCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}`

// endReading closes stdin, and returns every line the server wrote after
// that and what ServeStdio returned.
func (c *stdioSession) endReading() ([]string, error) {
	c.t.Helper()
	c.in.Close()
	var lines []string
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			break
		}
		lines = append(lines, strings.TrimSuffix(line, "\n"))
	}
	select {
	case err := <-c.served:
		return lines, err
	case <-time.After(10 * time.Second):
		c.t.Fatal("ServeStdio did not return after stdin ended")
		return nil, nil
	}
}

// cancelAndPing cancels the call with id 2, then pings: the ping's answer
// shows that the server has read the cancellation.
func cancelAndPing(t *testing.T, c *stdioSession) {
	t.Helper()
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"the user pressed stop"}}`)
	c.send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if got, want := c.reply(), `{"jsonrpc":"2.0","id":3,"result":{}}`; got != want {
		t.Fatalf("the ping after the cancellation:\n got %s\nwant %s", got, want)
	}
}

// A send cancelled while it waits for the SIM list, before it reaches the
// radio, is not made, and gets no reply.
func TestStdioCancelledBeforeThePlatformSendsNothing(t *testing.T) {
	phone := newHeldPhone("subscriptions")
	s := startServerOn(t, mcpserver.Options{}, phone.on)
	c := serveStdio(t, s)
	c.send(stdioInit)
	c.reply()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(sendCall)
	phone.waitReached(t)
	cancelAndPing(t, c)
	phone.releaseCancelled(t)
	rest, err := c.endReading()
	if err != nil {
		t.Errorf("ServeStdio after EOF: %v", err)
	}
	if len(rest) > 0 {
		t.Errorf("the cancelled call was answered: %s", strings.Join(rest, "\n"))
	}
	if n := s.sends(); n != 0 {
		t.Errorf("the outbox has %d sends; want none: the call was cancelled before the send", n)
	}
	if log := s.log.String(); !strings.Contains(log, "msg=tools/call client=stdio tool=send_sms outcome=cancelled") {
		t.Errorf("the call log does not say the call was cancelled: %s", log)
	}
}

// A send already with the radio when it is cancelled finishes and is on
// record, but its reply is not sent.
func TestStdioCancelledAtTheRadioFinishesWithoutAReply(t *testing.T) {
	phone := newHeldPhone("send")
	s := startServerOn(t, mcpserver.Options{}, phone.on)
	c := serveStdio(t, s)
	c.send(stdioInit)
	c.reply()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(sendCall)
	phone.waitReached(t)
	cancelAndPing(t, c)
	phone.releaseCancelled(t)
	rest, err := c.endReading()
	if err != nil {
		t.Errorf("ServeStdio after EOF: %v", err)
	}
	if len(rest) > 0 {
		t.Errorf("the cancelled call was answered: %s", strings.Join(rest, "\n"))
	}
	if n := s.sends(); n != 1 {
		t.Errorf("the outbox has %d sends; want the one that was with the radio", n)
	}
	if log := s.log.String(); !strings.Contains(log, "msg=tools/call client=stdio tool=send_sms outcome=ok") {
		t.Errorf("the call log does not have the send: %s", log)
	}
}

// In 2026-07-28 a client cancels a call over HTTP by closing its request:
// a send that has not reached the radio is not made, one that has is.
func TestHTTP20260728ClosingTheRequestCancelsIt(t *testing.T) {
	for _, tt := range []struct {
		at      string
		sends   int
		outcome string
	}{
		{"subscriptions", 0, "outcome=cancelled"},
		{"send", 1, "outcome=ok"},
	} {
		t.Run(tt.at, func(t *testing.T) {
			phone := newHeldPhone(tt.at)
			s := startServerOn(t, mcpserver.Options{}, phone.on)
			ctx, cancel := context.WithCancel(context.Background())
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, strings.NewReader(
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{`+meta2026+`,"name":"send_sms","arguments":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}`))
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
				"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "send_sms"} {
				req.Header.Set(k, v)
			}
			done := make(chan error, 1)
			go func() {
				resp, err := s.client.Do(req)
				if err == nil {
					resp.Body.Close()
				}
				done <- err
			}()
			phone.waitReached(t)
			cancel()
			if err := <-done; err == nil {
				t.Fatal("the cancelled request got a reply")
			}
			phone.releaseCancelled(t)
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(s.log.String(), "tool=send_sms") && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := s.sends(); n != tt.sends {
				t.Errorf("the outbox has %d sends; want %d", n, tt.sends)
			}
			if log := s.log.String(); !strings.Contains(log, "tool=send_sms "+tt.outcome) {
				t.Errorf("the call log does not say %s: %s", tt.outcome, log)
			}
		})
	}
}

// Stopping the server (its context ends on SIGINT or SIGTERM) is no
// cancellation: a send with the radio finishes, is answered and recorded,
// and then ServeStdio returns.
func TestStdioStopLetsTheCallsInFlightFinish(t *testing.T) {
	phone := newHeldPhone("send")
	s := startServerOn(t, mcpserver.Options{}, phone.on)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.srv.ServeStdio(ctx, inR, outW); outW.Close() }()
	c := &stdioSession{t: t, in: inW, out: bufio.NewReader(outR), served: served}
	c.send(stdioInit)
	c.reply()
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	c.send(sendCall)
	phone.waitReached(t)
	stop()
	close(phone.release)
	if got := c.reply(); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"SMS sent to +33785880347"}]`) {
		t.Errorf("the send in flight: %s", got)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return after its context ended")
	}
	if n := s.sends(); n != 1 {
		t.Errorf("the outbox has %d sends; want the one in flight", n)
	}
}
