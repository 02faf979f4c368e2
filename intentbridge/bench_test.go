package intentbridge

import "testing"

// BenchmarkHandleGetSubscriptions is Bridge.Handle for get_sms_subscriptions
// with a Go stand-in for the Java platform: the Go share of what
// 'make bench-android' times across JNI with a real Java one.
func BenchmarkHandleGetSubscriptions(b *testing.B) {
	bridge, err := OpenBridge("")
	if err != nil {
		b.Fatal(err)
	}
	defer bridge.Close()
	if err := bridge.Start(smsTool(&fakeJava{Subs: seedSubs})); err != nil {
		b.Fatal(err)
	}
	benchmarkHandle(b, bridge, `{"mobile-mcp-request":{"version":"1.0","request":{"id":"bench","capability":{"id":"get_sms_subscriptions","args":{}}}}}`)
}

// listNotesDescriptor declares one read-only capability, as the notes
// sample does; 'make bench-android' serves the same one.
const listNotesDescriptor = `<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
  <capability id="list_notes" description="Lists every note, oldest first." version="1.0"
      mcp:title="List notes" mcp:readOnly="true" mcp:destructive="false" mcp:idempotent="true" mcp:openWorld="false">
    <output>
      <param name="count" type="integer" description="How many notes there are."/>
      <param name="notes" type="array" description="The notes, each with id, title and body."/>
    </output>
  </capability>
</mobile-mcp-capabilities>
`

// handlerFunc is a Handler written in Go.
type handlerFunc func(argsJSON, requestID, callerPackage string, timeoutMillis int64) (string, error)

func (f handlerFunc) Handle(argsJSON, requestID, callerPackage string, timeoutMillis int64) (string, error) {
	return f(argsJSON, requestID, callerPackage, timeoutMillis)
}

// BenchmarkHandleJavaHandler is Bridge.Handle for list_notes with a Go
// stand-in for the Java handler that answers what the sample handler of
// 'make bench-android' answers: the Go share of that benchmark's second
// figure.
func BenchmarkHandleJavaHandler(b *testing.B) {
	bridge, err := OpenBridge("")
	if err != nil {
		b.Fatal(err)
	}
	defer bridge.Close()
	tool := NewTool("res/xml/mcp_capabilities.xml", compiled(listNotesDescriptor))
	const result = `{"message":"2 notes","output":{"count":2,"notes":[{"id":1,"title":"Milk","body":"2 litres"},{"id":2,"title":"Call Anna","body":""}]}}`
	tool.SetHandler("list_notes", handlerFunc(func(string, string, string, int64) (string, error) { return result, nil }))
	if err := bridge.Start(tool); err != nil {
		b.Fatal(err)
	}
	benchmarkHandle(b, bridge, `{"mobile-mcp-request":{"version":"1.0","request":{"id":"bench","capability":{"id":"list_notes","args":{}}}}}`)
}

// benchmarkHandle times Handle of request, which must succeed.
func benchmarkHandle(b *testing.B, bridge *Bridge, request string) {
	b.ReportAllocs()
	for b.Loop() {
		if r := handle(bridge, request, "bench"); !r.Success() {
			b.Fatal(r.SpecJSON())
		}
	}
}

// BenchmarkQueueRunNext is the path the Tool SDK's transports and workers
// take for list_notes (Bridge.Queue, then Bridge.RunNext until it returns
// false), beside the same request handed to Bridge.Handle, which skips
// the admission queue: the difference is what the queue costs.
func BenchmarkQueueRunNext(b *testing.B) {
	bridge, err := OpenBridge("")
	if err != nil {
		b.Fatal(err)
	}
	defer bridge.Close()
	tool := NewTool("res/xml/mcp_capabilities.xml", compiled(listNotesDescriptor))
	const result = `{"message":"2 notes","output":{"count":2,"notes":[{"id":1,"title":"Milk","body":"2 litres"},{"id":2,"title":"Call Anna","body":""}]}}`
	tool.SetHandler("list_notes", handlerFunc(func(string, string, string, int64) (string, error) { return result, nil }))
	if err := bridge.Start(tool); err != nil {
		b.Fatal(err)
	}
	const request = `{"mobile-mcp-request":{"version":"1.0","request":{"id":"bench","capability":{"id":"list_notes","args":{}}}}}`
	const caller = "com.example.assistant"
	var to lastReply
	b.Run("Handle", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bridge.Handle(request, caller, &to)
			if to.code != "" {
				b.Fatal(to.spec)
			}
		}
	})
	b.Run("Queue+RunNext", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !bridge.Queue(request, caller, &to, nil) {
				b.Fatal(to.spec)
			}
			for bridge.RunNext() {
			}
			if to.code != "" {
				b.Fatal(to.spec)
			}
		}
	})
}

// lastReply keeps the last reply it was sent, without allocating.
type lastReply struct{ spec, code string }

func (r *lastReply) Send(spec, _, _, code string) error {
	r.spec, r.code = spec, code
	return nil
}
