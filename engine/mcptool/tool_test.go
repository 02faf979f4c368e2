package mcptool_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/engine/descriptor/xmlfile"
	"github.com/mobilemcp/mobilemcp/engine/mcptool"
	"github.com/mobilemcp/mobilemcp/sms"
)

// smsCapabilities returns the built-in SMS set as a registry holds it.
func smsCapabilities(t testing.TB) []*capability.Capability {
	t.Helper()
	reg, err := capability.NewRegistry(sms.Capabilities(nil)...)
	if err != nil {
		t.Fatal(err)
	}
	return reg.All()
}

// seedToolsList is the tools/list result of the Android SMS MCP server,
// from its transcript.
const seedToolsList = `{"tools":[
 {"name":"send_sms","description":"Sends an SMS message to a specified phone number.",
  "inputSchema":{"type":"object","required":["to_phone_number","sms_text"],"properties":{
   "to_phone_number":{"type":"string","description":"The phone number the SMS should be sent to in international format starting with a plus sign followed by the country code. For example +36201234567"},
   "sms_text":{"type":"string","description":"The text of the sms messages to be sent. The maximum length is 160 characters"},
   "subscription_id":{"type":"integer","description":"SMS subscription ID to use for sending. Required when sending is allowed on more than one active subscription."}}}},
 {"name":"get_sms_subscriptions","description":"Returns the list of active SMS subscriptions available on the device.",
  "inputSchema":{"type":"object","required":[],"properties":{}}}]}`

// toolList is the part of a tools/list result the Android SMS MCP server's transcript pins down.
type toolList struct {
	Tools []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		InputSchema struct {
			Type       string             `json:"type"`
			Required   []string           `json:"required"`
			Properties mcptool.Properties `json:"properties"`
		} `json:"inputSchema"`
	} `json:"tools"`
}

func TestToolsOfTheDescriptorMatchSeed000(t *testing.T) {
	d, err := xmlfile.Parse(xmlfile.Render(smsCapabilities(t)))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(map[string]any{"tools": mcptool.Tools(d.Capabilities())})
	if err != nil {
		t.Fatal(err)
	}
	var got, want toolList
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(seedToolsList), &want); err != nil {
		t.Fatal(err)
	}
	// Beyond the transcripts' schema, the descriptor carries the two limits
	// the engine knows (mcp:pattern, mcp:maxLength); otherwise it is the
	// transcripts' list.
	props := got.Tools[0].InputSchema.Properties
	if props[0].Schema.Pattern != `^[+][1-9][0-9]{6,14}$` || props[1].Schema.MaxLength == nil || *props[1].Schema.MaxLength != 160 {
		t.Errorf("send_sms lost its limits: %+v %+v", props[0].Schema, props[1].Schema)
	}
	props[0].Schema.Pattern, props[1].Schema.MaxLength = "", nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tools\n got %+v\nwant %+v", got, want)
	}
}

func TestNewToolOfARegisteredCapability(t *testing.T) {
	tool := mcptool.NewTool(smsCapabilities(t)[0])
	got, err := json.Marshal(tool)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"send_sms","title":"Send SMS","description":"Sends an SMS message to a specified phone number.",` +
		`"inputSchema":{"type":"object","properties":{` +
		`"to_phone_number":{"type":"string","description":"The phone number the SMS should be sent to in international format starting with a plus sign followed by the country code. For example +36201234567","pattern":"^[+][1-9][0-9]{6,14}$"},` +
		`"sms_text":{"type":"string","description":"The text of the sms messages to be sent. The maximum length is 160 characters","maxLength":160},` +
		`"subscription_id":{"type":"integer","description":"SMS subscription ID to use for sending. Required when sending is allowed on more than one active subscription."}},` +
		`"required":["to_phone_number","sms_text"],"additionalProperties":false},` +
		`"annotations":{"readOnlyHint":false,"destructiveHint":true,"idempotentHint":false,"openWorldHint":true}}`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestPropertiesKeepTheirOrderInJSON(t *testing.T) {
	props := mcptool.Properties{
		{Name: "z", Schema: &jsonschema.Schema{Type: "string", Description: "a <tag> & more"}},
		{Name: "a", Schema: &jsonschema.Schema{Type: "boolean"}},
	}
	data, err := json.Marshal(props)
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json escapes < > & in what a marshaler returns unless its
	// caller turns that off; the properties themselves add no escapes.
	if want := `{"z":{"type":"string","description":"a \u003ctag\u003e \u0026 more"},"a":{"type":"boolean"}}`; string(data) != want {
		t.Errorf("got %s, want %s", data, want)
	}
	var back mcptool.Properties
	if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back, props) {
		t.Errorf("round trip: %+v, %v", back, err)
	}
	if data, _ := json.Marshal(mcptool.Properties(nil)); string(data) != "{}" {
		t.Errorf("nil properties: %s, want {}", data)
	}
	if err := json.Unmarshal([]byte(`["a"]`), &back); err == nil {
		t.Errorf("an array unmarshalled as properties")
	}
}

func TestOutputSchemaRequiresEveryOutput(t *testing.T) {
	got, err := json.Marshal(mcptool.OutputSchema(smsCapabilities(t)[0]))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{` +
		`"to_phone_number":{"type":"string","description":"The normalised number the SMS was sent to."},` +
		`"subscription_id":{"type":"integer","description":"The subscription the SMS was sent from."},` +
		`"encoding":{"type":"string","description":"The text encoding: gsm7 or ucs2."},` +
		`"segments":{"type":"integer","description":"The number of SMS parts sent."}},` +
		`"required":["to_phone_number","subscription_id","encoding","segments"],"additionalProperties":false}`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
