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

// BenchmarkLint lints generated descriptors of 1,000, 10,000 and 100,000
// capabilities. MB/s is throughput over the descriptor's size.
func BenchmarkLint(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			data := benchDescriptor(b, n)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if findings := descriptor.Lint("bench.xml", data, nil); len(findings) != 0 {
					b.Fatal(findings[0])
				}
			}
		})
	}
}
