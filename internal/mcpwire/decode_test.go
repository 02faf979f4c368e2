package mcpwire

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
)

// decodeSeeds are messages of every shape a client sends, and broken ones.
var decodeSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send_sms","arguments":{}}}`,
	`{"jsonrpc":"2.0","id":"a","method":"ping"}`,
	`{"jsonrpc":"2.0","id":1.5,"method":"ping","params":null}`,
	`{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","method":""}`,
	`{ "method" : "x" , "jsonrpc" : "2.0" , "id" : -3 }`,
	`{"jsonrpc":"2.0","id":7,"result":{"roots":[]}}`,
	`{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"no","data":[1]}}`,
	`{"jsonrpc":"2.0","id":7,"error":null,"result":{}}`,
	`{"jsonrpc":"1.0","id":1,"method":"ping"}`,
	`{"id":1,"method":"ping"}`,
	`{"jsonrpc":2,"id":1,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":1,"method":5}`,
	`{"jsonrpc":"2.0","result":{}}`,
	`{"jsonrpc":"2.0","id":1,"error":"bad"}`,
	`{"jsonrpc":"2.0","Method":"ping","id":1}`,
}

// decodeMessage must read every valid object as the SDK's decoder does: the
// same message, or an error for both.
func checkDecodesAsTheSDK(t *testing.T, data []byte) {
	if !json.Valid(data) || !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) || rawjson.Duplicate(data, nil) != "" {
		return // the transport refuses these before it decodes
	}
	ours, ourErr := decodeMessage(data)
	sdk, sdkErr := jsonrpc.DecodeMessage(data)
	if (ourErr == nil) != (sdkErr == nil) {
		t.Fatalf("%s: ours %v (%v), the SDK's %v (%v)", data, ours, ourErr, sdk, sdkErr)
	}
	if ourErr != nil {
		return
	}
	a, errA := jsonrpc.EncodeMessage(ours)
	b, errB := jsonrpc.EncodeMessage(sdk)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Fatalf("%s:\n ours    %s (%v)\n the SDK's %s (%v)", data, a, errA, b, errB)
	}
}

func TestDecodeMessageReadsAsTheSDK(t *testing.T) {
	for _, s := range decodeSeeds {
		checkDecodesAsTheSDK(t, []byte(s))
	}
	if _, err := decodeMessage([]byte(`{"jsonrpc":"1.0","id":"a","method":"tools/list"}`)); err == nil || err.Error() != `invalid message version tag "1.0"; expected "2.0"` {
		t.Errorf("a wrong version: %v", err)
	}
}

func FuzzDecodeMessageReadsAsTheSDK(f *testing.F) {
	for _, s := range decodeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkDecodesAsTheSDK)
}
