package intentbridge

import (
	"encoding/json"
	"testing"
)

func TestParseResult(t *testing.T) {
	tests := []struct {
		name, in, want string // want: the Result as JSON, "failure: code: message", or "error: text"
	}{
		{"success", `{"message":"Created note 7","output":{"id":7,"tags":["a"]}}`,
			`{"Message":"Created note 7","Output":[{"name":"id","type":"","value":7},{"name":"tags","type":"","value":["a"]}]}`},
		{"success without outputs", `{"message":"done"}`, `{"Message":"done","Output":null}`},
		{"escapes in the message", `{"message":"say \"hi\"\n","output":{}}`, `{"Message":"say \"hi\"\n","Output":null}`},
		{"failure", `{"error_code":"invalid_arguments","message":"no note 7"}`, "failure: invalid_arguments: no note 7"},
		{"not JSON", `{"message":`, "error: it is not JSON"},
		{"not an object", `["ok"]`, "error: it is an array, not an object"},
		{"member twice", `{"message":"a","message":"b"}`, `error: it has "message" twice`},
		{"unknown code", `{"error_code":"nope","message":"m"}`, `error: its error_code "nope" is not one of the wire format's codes`},
		{"code and outputs", `{"error_code":"platform_error","message":"m","output":{}}`, "error: it has both an error_code and outputs"},
		{"neither", `{"output":{"id":1}}`, "error: it has neither a message nor an error_code"},
		{"message not a string", `{"message":5}`, "error: its message is number 5, not a string"},
		{"output not an object", `{"message":"m","output":[1]}`, "error: its output is an array, not an object"},
		{"unknown member", `{"message":"ok","outputs":{}}`, `error: it has the member "outputs", which is none of message, output, error_code and retry_after_ms`},
		{"a handler's rate limit", `{"error_code":"rate_limited","message":"retry in 30 seconds","retry_after_ms":30000}`, "failure: rate_limited: retry in 30 seconds (retry after 30s)"},
		{"a wait on another code", `{"error_code":"platform_error","message":"m","retry_after_ms":5}`, "error: it has a retry_after_ms, which only a rate_limited failure may have"},
		{"a wait that is not positive", `{"error_code":"rate_limited","message":"m","retry_after_ms":0}`, "error: its retry_after_ms is number 0, not a whole number of milliseconds from 1 to 31536000000 (a year)"},
		{"a wait that is not whole", `{"error_code":"rate_limited","message":"m","retry_after_ms":1.5}`, "error: its retry_after_ms is number 1.5, not a whole number of milliseconds from 1 to 31536000000 (a year)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			result, failure, err := parseResult([]byte(tt.in))
			got := ""
			switch {
			case err != nil:
				got = "error: " + err.Error()
			case failure != nil:
				got = "failure: " + failure.Error()
				if failure.RetryAfter > 0 {
					got += " (retry after " + failure.RetryAfter.String() + ")"
				}
			default:
				data, _ := json.Marshal(result)
				got = string(data)
			}
			if got != tt.want {
				t.Errorf("parseResult(%s)\n got %s\nwant %s", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzParseResult: no text makes the result decoder panic, and what it
// accepts is an object encoding/json reads too.
func FuzzParseResult(f *testing.F) {
	for _, seed := range []string{`{"message":"ok","output":{"id":1}}`, `{"error_code":"timeout","message":"m"}`, `{}`, `[]`, `{"message":"\u00e9"}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, err := parseResult(data)
		if err == nil {
			var v map[string]json.RawMessage
			if json.Unmarshal(data, &v) != nil {
				t.Fatalf("parseResult accepted %q, which encoding/json does not read as an object", data)
			}
		}
	})
}
