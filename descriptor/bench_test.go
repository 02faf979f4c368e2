package descriptor_test

import (
	"fmt"
	"testing"

	"github.com/mobilemcp/mobilemcp/capability"
	"github.com/mobilemcp/mobilemcp/descriptor"
)

// benchDescriptor renders n capabilities shaped like the SMS set, the two
// SMS capabilities in turn with numbered ids: about 770 bytes each.
func benchDescriptor(b *testing.B, n int) []byte {
	sms := smsCapabilities(b)
	caps := make([]*capability.Capability, n)
	for i := range caps {
		c := *sms[i%len(sms)]
		c.ID = fmt.Sprintf("%s_%d", c.ID, i)
		caps[i] = &c
	}
	return descriptor.Render(caps)
}

// BenchmarkLint lints the real SMS descriptor (about 2 KB, the bytes of the
// checked-in res/xml/mcp_capabilities.xml) and generated descriptors of
// 1,000, 10,000 and 100,000 capabilities. MB/s is throughput over the
// descriptor's size. The budget: the real one in 1 ms, 10,000 in 250 ms.
func BenchmarkLint(b *testing.B) {
	b.Run("sms", func(b *testing.B) {
		benchLint(b, descriptor.Render(smsCapabilities(b)))
	})
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			benchLint(b, benchDescriptor(b, n))
		})
	}
}

func benchLint(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if findings := descriptor.Lint("bench.xml", data, nil); len(findings) != 0 {
			b.Fatal(findings[0])
		}
	}
}
