package sms_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

var (
	benchSend = []byte(`{"mobile-mcp-request":{"version":"1.0","request":{"id":"6f1c2a4e-8d9b-4c7a-9e3f-1b2d3c4e5f60","capability":{"id":"send_sms","args":{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}}}}}`)
	benchList = []byte(`{"mobile-mcp-request":{"version":"1.0","request":{"id":"6f1c2a4e-8d9b-4c7a-9e3f-1b2d3c4e5f61","capability":{"id":"get_sms_subscriptions","args":{}}}}}`)
)

// benchEngine is the engine on the simulated phone with outbox writes off,
// so the benchmark measures the engine, not the disk.
func benchEngine(b *testing.B) *capability.Engine {
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{})
	if err != nil {
		b.Fatal(err)
	}
	// No cap on parts a minute: a benchmark sends far more.
	reg, err := capability.NewRegistry(sms.CapabilitiesWith(phone, sms.Options{PartsPerMinute: -1})...)
	if err != nil {
		b.Fatal(err)
	}
	return capability.NewEngine(reg, capability.Options{})
}

func benchmarkEngine(b *testing.B, request []byte) {
	eng := benchEngine(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if r := eng.Do(ctx, capability.NewCall(request, capability.Caller{}, nil)); r.Failed() || len(r.JSON()) == 0 {
			b.Fatalf("reply: %s", r.JSON())
		}
	}
}

// BenchmarkEngineSendSMS is send_sms end to end: bytes in, reply bytes out.
func BenchmarkEngineSendSMS(b *testing.B) { benchmarkEngine(b, benchSend) }

// BenchmarkEngineGetSubscriptions is get_sms_subscriptions end to end.
func BenchmarkEngineGetSubscriptions(b *testing.B) { benchmarkEngine(b, benchList) }

// BenchmarkFloorSendSMS is the floor the engine is judged against: decoding
// the same request into map[string]any and encoding it again.
func BenchmarkFloorSendSMS(b *testing.B) { benchmarkFloor(b, benchSend) }

// BenchmarkFloorGetSubscriptions is the floor for the get_sms_subscriptions request.
func BenchmarkFloorGetSubscriptions(b *testing.B) { benchmarkFloor(b, benchList) }

func benchmarkFloor(b *testing.B, request []byte) {
	b.ReportAllocs()
	for b.Loop() {
		var v map[string]any
		if err := json.Unmarshal(request, &v); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(v); err != nil {
			b.Fatal(err)
		}
	}
}
