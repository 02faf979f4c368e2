package sms_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mobilemcp/mobilemcp/sms"
)

func TestSegment(t *testing.T) {
	tests := []struct {
		name     string
		text     string
		encoding sms.Encoding
		units    int
		parts    int
	}{
		{"160 GSM-7 characters fit one part", strings.Repeat("a", 160), sms.GSM7, 160, 1},
		{"161 GSM-7 characters need two", strings.Repeat("a", 161), sms.GSM7, 161, 2},
		{"306 GSM-7 characters fill two parts of 153", strings.Repeat("a", 306), sms.GSM7, 306, 2},
		{"307 GSM-7 characters need three", strings.Repeat("a", 307), sms.GSM7, 307, 3},
		{"70 UCS-2 characters fit one part", strings.Repeat("ж", 70), sms.UCS2, 70, 1},
		{"71 UCS-2 characters need two", strings.Repeat("ж", 71), sms.UCS2, 71, 2},
		{"134 UCS-2 characters fill two parts of 67", strings.Repeat("ж", 134), sms.UCS2, 134, 2},
		{"euro costs two septets", "€", sms.GSM7, 2, 1},
		{"80 euros are 160 septets", strings.Repeat("€", 80), sms.GSM7, 160, 1},
		{"81 euros are 162 septets", strings.Repeat("€", 81), sms.GSM7, 162, 2},
		{"every extension character costs two", "^{}\\[~]|€\f", sms.GSM7, 20, 1},
		{"GSM-7 accents cost one", "èéùìòÇØøÅåÄÖÑÜäöñüà§¿¡£¥ΔΦΓΛΩΠΨΣΘΞ", sms.GSM7, 34, 1},
		{"an emoji costs two UCS-2 units", "😀", sms.UCS2, 2, 1},
		{"35 emoji fill one UCS-2 part", strings.Repeat("😀", 35), sms.UCS2, 70, 1},
		{"36 emoji need two", strings.Repeat("😀", 36), sms.UCS2, 72, 2},
		{"one non-GSM character makes it all UCS-2", "Hello world ✓", sms.UCS2, 13, 1},
		{"backtick is not GSM-7", "`", sms.UCS2, 1, 1},
		{"the example SMS", "Hello world", sms.GSM7, 11, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sms.Segment(tt.text)
			if got.Encoding != tt.encoding || got.Units != tt.units || len(got.Parts) != tt.parts {
				t.Errorf("Segment = %s, %d units, %d parts; want %s, %d, %d", got.Encoding, got.Units, len(got.Parts), tt.encoding, tt.units, tt.parts)
			}
			if joined := strings.Join(got.Parts, ""); joined != tt.text {
				t.Errorf("parts do not join back to the text: %q", joined)
			}
		})
	}
}

func TestSegmentNeverSplitsACharacter(t *testing.T) {
	// 152 septets then a euro: the escape pair must move whole to part two.
	gsm := sms.Segment(strings.Repeat("a", 152) + "€" + strings.Repeat("a", 10))
	if len(gsm.Parts) != 2 || gsm.Parts[0] != strings.Repeat("a", 152) || !strings.HasPrefix(gsm.Parts[1], "€") {
		t.Errorf("GSM-7 split: %q", gsm.Parts)
	}
	// 66 units then an emoji: the surrogate pair must move whole to part two.
	ucs := sms.Segment(strings.Repeat("ж", 66) + "😀" + strings.Repeat("ж", 5))
	if len(ucs.Parts) != 2 || utf8.RuneCountInString(ucs.Parts[0]) != 66 || !strings.HasPrefix(ucs.Parts[1], "😀") {
		t.Errorf("UCS-2 split: %q", ucs.Parts)
	}
}

func TestNormalizeNumber(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"+33785880347", "+33785880347"},
		{"+33 7 85 88 03 47", "+33785880347"},
		{"+1 (555) 555-0100", "+15555550100"},
		{"+36.20.123.4567", "+36201234567"},
		{"+123456789012345", "+123456789012345"},
	}
	for _, tt := range tests {
		if got, err := sms.NormalizeNumber(tt.in); got != tt.want || err != nil {
			t.Errorf("NormalizeNumber(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "0785880347", "33785880347", "+0785880347", "+1234567890123456", "+123456", "+33 7a", "++33785880347", "+33785880347;rm"} {
		if got, err := sms.NormalizeNumber(bad); err == nil {
			t.Errorf("NormalizeNumber(%q) = %q, want an error", bad, got)
		}
	}
}
