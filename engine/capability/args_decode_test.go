package capability

import (
	"encoding/json"
	"testing"
)

func TestDecodeRawArgs(t *testing.T) {
	tests := []struct {
		raw  string
		want string // the arguments re-encoded, or the error
	}{
		{``, `null`},
		{` null `, `null`},
		{`{}`, `null`}, // no arguments, like absent
		{`{"to_phone_number":"+33785880347","subscription_id":14}`, `{"subscription_id":14,"to_phone_number":"+33785880347"}`},
		{`"{\"sms_text\":\"Hi\"}"`, `{"sms_text":"Hi"}`},
		{`[{"name":"sms_text","type":"string","value":"Hi"}]`, `{"sms_text":"Hi"}`},
		{`{"subscription_id":14,"subscription_id":17}`, `invalid_request: arguments: argument "subscription_id" is given twice`},
		{`14`, `invalid_request: arguments must be an object of arguments, got number 14`},
		{`{"a":`, `invalid_request: arguments are not valid JSON`},
	}
	for _, tt := range tests {
		args, err := decodeRawArgs(json.RawMessage(tt.raw))
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			data, _ := json.Marshal(args)
			got = string(data)
		}
		if got != tt.want {
			t.Errorf("decodeRawArgs(%s):\n got %s\nwant %s", tt.raw, got, tt.want)
		}
	}
}
