package xmlfile_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
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
	return xmlfile.Render(caps)
}

// BenchmarkLint lints the real SMS descriptor (about 2 KB, the bytes of the
// checked-in res/xml/mcp_capabilities.xml) and generated descriptors of
// 1,000, 10,000 and 100,000 capabilities. MB/s is throughput over the
// descriptor's size. The budget: the real one in 1 ms, 10,000 in 250 ms.
func BenchmarkLint(b *testing.B) {
	b.Run("sms", func(b *testing.B) {
		benchLint(b, xmlfile.Render(smsCapabilities(b)))
	})
	for _, n := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			benchLint(b, benchDescriptor(b, n))
		})
	}
}

// BenchmarkTokenize only reads the same generated descriptors' tokens with
// encoding/xml's RawToken, as the reader does, and builds nothing: the floor
// under BenchmarkLint that the standard library sets.
func BenchmarkTokenize(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			data := benchDescriptor(b, n)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d := xml.NewDecoder(bytes.NewReader(data))
				for {
					_, err := d.RawToken()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func benchLint(b *testing.B, data []byte) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if findings := xmlfile.Lint("bench.xml", data, nil); len(findings) != 0 {
			b.Fatal(findings[0])
		}
	}
}

// attributeFindings is a descriptor whose n capabilities each carry the
// most attributes an element may have (256), all unknown, each with a
// value of valueBytes: every attribute is a finding with a position.
func attributeFindings(n, valueBytes int) []byte {
	var buf bytes.Buffer
	buf.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n" + `<mobile-mcp-capabilities version="1.0">` + "\n")
	value := strings.Repeat("v", valueBytes)
	for i := range n {
		fmt.Fprintf(&buf, `<capability id="c%d" description="d" version="1.0"`, i)
		for j := range 253 {
			fmt.Fprintf(&buf, "\n  x%d=\"%s\"", j, value)
		}
		buf.WriteString("/>\n")
	}
	buf.WriteString("</mobile-mcp-capabilities>\n")
	return buf.Bytes()
}

// BenchmarkLintAttributeFindings lints elements of 256 attributes that are
// all findings: 200 short ones, and one of 253 values of 64 KiB. The time
// of a finding's position must not grow with the size of its tag, or the
// first is quadratic in the attributes of an element and the second in
// the length of its tag.
func BenchmarkLintAttributeFindings(b *testing.B) {
	for _, tt := range []struct {
		name     string
		n, value int
	}{{"200x256", 200, 8}, {"1x256x64KiB", 1, 64 << 10}} {
		b.Run(tt.name, func(b *testing.B) {
			data := attributeFindings(tt.n, tt.value)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if findings := xmlfile.Lint("bench.xml", data, nil); len(findings) != tt.n*253 {
					b.Fatalf("%d findings", len(findings))
				}
			}
		})
	}
}
