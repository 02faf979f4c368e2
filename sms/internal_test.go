package sms

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestAppendSubscriptionsMatchesEncodingJSON(t *testing.T) {
	for _, subs := range [][]Subscription{
		{},
		{{ID: 14, SlotIndex: 0, CarrierName: "Vodafone UK", DisplayName: "Vodafone UK"}},
		{{ID: -1, SlotIndex: 3, CarrierName: "Quote \" back \\ slash", DisplayName: "Émoji 😀 \u2028 <&>"}, {ID: 2147483647}},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false) // as everywhere in replies
		enc.Encode(subs)
		if got := appendSubscriptions(nil, subs); string(got) != strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("got  %s\nwant %s", got, want.String())
		}
	}
}
