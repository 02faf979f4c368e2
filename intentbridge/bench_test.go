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
	if err := bridge.Start(smsTool(&fakeJava{subs: seedSubs})); err != nil {
		b.Fatal(err)
	}
	const request = `{"mobile-mcp-request":{"version":"1.0","request":{"id":"bench","capability":{"id":"get_sms_subscriptions","args":{}}}}}`
	b.ReportAllocs()
	for b.Loop() {
		if r := handle(bridge, request, "bench"); !r.Success() {
			b.Fatal(r.SpecJSON())
		}
	}
}
