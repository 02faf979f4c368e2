package sms

import (
	"unicode/utf16"
)

// Encoding is the character encoding a text is sent in.
type Encoding string

// The two encodings of SMS text.
const (
	// GSM7 is the GSM 03.38 default alphabet: 7 bits per character,
	// 2 septets (escape + code) for a character of the extension table.
	GSM7 Encoding = "gsm7"
	// UCS2 is UTF-16: 2 bytes per unit, and 2 units for a character outside
	// the Basic Multilingual Plane, such as an emoji.
	UCS2 Encoding = "ucs2"
)

// Capacities of one SMS part, in septets (GSM-7) or UTF-16 units (UCS-2).
// A part of a multipart message loses 6 bytes to the concatenation header.
const (
	GSM7SinglePart = 160
	GSM7MultiPart  = 153
	UCS2SinglePart = 70
	UCS2MultiPart  = 67
)

// Segmentation is how a text is sent: its encoding, its length in that
// encoding's units and the parts it is split into.
type Segmentation struct {
	// Encoding is GSM7 when every character is in the GSM 7-bit alphabet
	// or its extension table, and UCS2 otherwise.
	Encoding Encoding
	// Units is the length in septets (GSM7) or UTF-16 code units (UCS2).
	Units int
	// Parts are the texts of the SMS parts, in order. An escape sequence or a
	// surrogate pair is never split across two parts.
	Parts []string
}

// gsm7Basic is the GSM 03.38 default alphabet. 0x1B (the escape to the
// extension table) is left out: it is not a character on its own.
const gsm7Basic = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
	"¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"

// gsm7Extension holds the characters that cost an escape plus a code.
const gsm7Extension = "\f^{}\\[~]|€"

var gsm7Cost = func() map[rune]int {
	cost := make(map[rune]int, 140)
	for _, r := range gsm7Basic {
		cost[r] = 1
	}
	for _, r := range gsm7Extension {
		cost[r] = 2
	}
	return cost
}()

// gsm7Septets returns the GSM-7 cost of r, or 0 when r has no GSM-7 form.
func gsm7Septets(r rune) int {
	if r >= 0x20 && r < 0x7f {
		// Printable ASCII, the common case, without a map lookup.
		switch r {
		case '`':
			return 0 // the one printable ASCII character GSM-7 lacks
		case '^', '{', '}', '\\', '[', '~', ']', '|':
			return 2
		}
		return 1
	}
	return gsm7Cost[r]
}

// Segment computes how text is sent. Text that is entirely in the GSM-7
// alphabets is GSM7; anything else makes the whole text UCS2.
func Segment(text string) Segmentation {
	septets := 0
	for _, r := range text {
		n := gsm7Septets(r)
		if n == 0 {
			return segmentUCS2(text)
		}
		septets += n
	}
	seg := Segmentation{Encoding: GSM7, Units: septets}
	seg.Parts = split(text, septets, GSM7SinglePart, GSM7MultiPart, gsm7Septets)
	return seg
}

func segmentUCS2(text string) Segmentation {
	units := 0
	for _, r := range text {
		units += utf16Units(r)
	}
	seg := Segmentation{Encoding: UCS2, Units: units}
	seg.Parts = split(text, units, UCS2SinglePart, UCS2MultiPart, utf16Units)
	return seg
}

func utf16Units(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1 // an invalid rune is sent as U+FFFD
}

// split cuts text into parts of at most perPart units, keeping each
// character (and so each escape sequence or surrogate pair) whole.
func split(text string, total, single, perPart int, cost func(rune) int) []string {
	if text == "" {
		return nil
	}
	if total <= single {
		return []string{text}
	}
	parts := make([]string, 0, (total+perPart-1)/perPart)
	start, used := 0, 0
	for i, r := range text {
		n := cost(r)
		if used+n > perPart {
			parts = append(parts, text[start:i])
			start, used = i, 0
		}
		used += n
	}
	return append(parts, text[start:])
}
