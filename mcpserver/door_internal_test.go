package mcpserver

import "testing"

// The door filters every string of a JSON-RPC answer, member names and
// escaped characters included, keeps the message's id as the client sent
// it, and leaves the rest as it was but for spaces between tokens.
func TestTheDoorFiltersEveryStringButTheID(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"nothing to filter", `{"jsonrpc":"2.0","id":1,"result":{"a":[1,true,null,"x\n"]}}`, `{"jsonrpc":"2.0","id":1,"result":{"a":[1,true,null,"x\n"]}}`},
		{"raw characters", "{\"id\":1,\"result\":{\"text\":\"a\u200bb\U000E0041\u2003c\"}}", `{"id":1,"result":{"text":"ab c"}}`},
		{"escaped characters", `{"id":1,"result":{"text":"a\u200bb\ud83d\ude00\r\u2003c"}}`, "{\"id\":1,\"result\":{\"text\":\"ab\U0001F600 c\"}}"},
		{"member names", "{\"id\":1,\"result\":{\"se\uFE0Fcret\":{\"k\\u2800\":2}}}", `{"id":1,"result":{"secret":{"k":2}}}`},
		{"the client's id", "{\"id\":\"r\u200b1\",\"error\":{\"code\":-32602,\"message\":\"no\u200b\"}}", "{\"id\":\"r\u200b1\",\"error\":{\"code\":-32602,\"message\":\"no\"}}"},
		{"an id that is not the message's", "{\"id\":1,\"result\":{\"id\":\"b\u200b\",\"x\":[{\"id\":\"c\u200b\"}]}}", `{"id":1,"result":{"id":"b","x":[{"id":"c"}]}}`},
		{"a batch", "[{\"id\":\"a\u200b\",\"result\":{}}, {\"id\":2,\"result\":{\"id\":\"b\u200b\"}}]", "[{\"id\":\"a\u200b\",\"result\":{}},{\"id\":2,\"result\":{\"id\":\"b\"}}]"},
		{"spaces between tokens", " { \"id\" : 1 , \"x\" : [ \"\u200b\" ] }\n", "{\"id\":1,\"x\":[\"\"]}\n"},
		{"not JSON, filtered as text", "{\"a\":\"b\u200b", "{\"a\":\"b"},
		{"bytes that are not UTF-8", "{\"a\":\"b\xff\u200b\"}", "{\"a\":\"b\uFFFD\"}"},
	} {
		if got := string(cleanJSON([]byte(tt.in))); got != tt.want {
			t.Errorf("%s: cleanJSON(%s) = %s; want %s", tt.name, tt.in, got, tt.want)
		}
	}
}
