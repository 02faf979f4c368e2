package sms_test

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// newPhoneEngine returns an engine over a simulated phone with cfg and the
// path of its outbox.
func newPhoneEngine(t *testing.T, cfg simphone.Config) (*capability.Engine, string) {
	t.Helper()
	outbox := filepath.Join(t.TempDir(), simphone.OutboxFile)
	phone, err := simphone.New(cfg, simphone.Options{OutboxPath: outbox})
	if err != nil {
		t.Fatal(err)
	}
	reg, err := capability.NewRegistry(sms.Capabilities(phone)...)
	if err != nil {
		t.Fatal(err)
	}
	return capability.NewEngine(reg, capability.Options{}), outbox
}

func sendRequest(id, args string) string {
	return `{"mobile-mcp-request":{"version":"1.0","request":{"id":"` + id + `","capability":{"id":"send_sms","args":` + args + `}}}}`
}

func reply(body string) string {
	return `{"mobile-mcp-response":{"version":"1.0","response":` + body + `}}`
}

func sentReply(id, to string, sub int, encoding string, segments int) string {
	return reply(`{"id":"` + id + `","capability":{"id":"send_sms","output":[` +
		`{"name":"to_phone_number","type":"string","value":"` + to + `"},` +
		`{"name":"subscription_id","type":"integer","value":` + strconv.Itoa(sub) + `},` +
		`{"name":"encoding","type":"string","value":"` + encoding + `"},` +
		`{"name":"segments","type":"integer","value":` + strconv.Itoa(segments) + `}]},` +
		`"status":"success","message":"SMS sent to ` + to + `"}`)
}

func failedReply(id, message, code string) string {
	return reply(`{"id":"` + id + `","capability":{"id":"send_sms"},"status":"failure","message":"` + message + `","error_code":"` + code + `"}`)
}

const twoSIMs = "14 (slot 0, Vodafone UK), 17 (slot 1, Yettel HU)"

func TestSendSMS(t *testing.T) {
	oneSIM := simphone.Config{Subscriptions: []sms.Subscription{{ID: 3, SlotIndex: 0, CarrierName: "Solo", DisplayName: "Solo"}}}
	noSIM := simphone.Config{}
	faults := simphone.DefaultConfig()
	faults.Faults = append(faults.Faults,
		simphone.Fault{To: "+441234567890", Result: "permission_denied"},
		simphone.Fault{To: "+441234567891", Result: "no_service", Part: 2},
	)
	tests := []struct {
		name    string
		cfg     simphone.Config
		request string
		want    string
		sent    int // outbox records whose parts were all sent
	}{
		{"the example SMS", simphone.DefaultConfig(),
			sendRequest("example", `{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}`),
			sentReply("example", "+33785880347", 14, "gsm7", 1), 1},
		{"subscription id as a string, as adb sends it", simphone.DefaultConfig(),
			sendRequest("s2", `{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":"17"}`),
			sentReply("s2", "+33785880347", 17, "gsm7", 1), 1},
		{"formatted number is normalised and echoed", simphone.DefaultConfig(),
			sendRequest("s3", `{"to_phone_number":"+33 7 85-88.03 (47)","sms_text":"Hi","subscription_id":14}`),
			sentReply("s3", "+33785880347", 14, "gsm7", 1), 1},
		{"one SIM needs no subscription id", oneSIM,
			sendRequest("s4", `{"to_phone_number":"+33785880347","sms_text":"Hi"}`),
			sentReply("s4", "+33785880347", 3, "gsm7", 1), 1},
		{"unicode text goes multipart", simphone.DefaultConfig(),
			sendRequest("s5", `{"to_phone_number":"+33785880347","sms_text":"`+strings.Repeat("ж", 71)+`","subscription_id":14}`),
			sentReply("s5", "+33785880347", 14, "ucs2", 2), 1},
		{"160 characters are allowed", simphone.DefaultConfig(),
			sendRequest("s6", `{"to_phone_number":"+33785880347","sms_text":"`+strings.Repeat("€", 160)+`","subscription_id":14}`),
			sentReply("s6", "+33785880347", 14, "gsm7", 3), 1},

		{"two SIMs and no subscription id", simphone.DefaultConfig(),
			sendRequest("f1", `{"to_phone_number":"+33785880347","sms_text":"Hello world"}`),
			failedReply("f1", "subscription_id is required because 2 SIMs are active: "+twoSIMs+"; call get_sms_subscriptions and pass the subscription_id of the SIM to send from", "invalid_arguments"), 0},
		{"inactive subscription", simphone.DefaultConfig(),
			sendRequest("f2", `{"to_phone_number":"+33785880347","sms_text":"Hi","subscription_id":99}`),
			failedReply("f2", "subscription_id 99 is not an active subscription; active: "+twoSIMs, "invalid_arguments"), 0},
		{"misspelt subscription id never falls back to a default SIM", oneSIM,
			sendRequest("f3", `{"to_phone_number":"+33785880347","sms_text":"Hi","subscripton_id":3}`),
			failedReply("f3", `send_sms: unknown argument \"subscripton_id\"; known arguments: to_phone_number, sms_text, subscription_id`, "invalid_arguments"), 0},
		{"local number", simphone.DefaultConfig(),
			sendRequest("f4", `{"to_phone_number":"06 20 123 4567","sms_text":"Hi","subscription_id":14}`),
			failedReply("f4", `to_phone_number \"06 20 123 4567\" is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567`, "invalid_arguments"), 0},
		{"161 characters", simphone.DefaultConfig(),
			sendRequest("f5", `{"to_phone_number":"+33785880347","sms_text":"`+strings.Repeat("a", 161)+`","subscription_id":14}`),
			failedReply("f5", "send_sms: sms_text is 161 characters long; the limit is 160", "invalid_arguments"), 0},
		{"blank text", simphone.DefaultConfig(),
			sendRequest("f6", `{"to_phone_number":"+33785880347","sms_text":"  ","subscription_id":14}`),
			failedReply("f6", "sms_text is empty; send at least one visible character", "invalid_arguments"), 0},
		{"local number and blank text: both in one message", simphone.DefaultConfig(),
			sendRequest("f6b", `{"to_phone_number":"06 20 123 4567","sms_text":"  ","subscription_id":14}`),
			failedReply("f6b", `to_phone_number \"06 20 123 4567\" is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567; sms_text is empty; send at least one visible character`, "invalid_arguments"), 0},
		{"local number and a subscription id that is no number: both in one message", simphone.DefaultConfig(),
			sendRequest("f6c", `{"to_phone_number":"06 20 123 4567","sms_text":"Hi","subscription_id":"first"}`),
			failedReply("f6c", `send_sms: subscription_id must be an integer, got string \"first\"; to_phone_number \"06 20 123 4567\" is not an international number: write + then the country code and number, 7 to 15 digits in all, for example +36201234567`, "invalid_arguments"), 0},
		{"local number and 161 characters: the text is required, so the number's check waits", simphone.DefaultConfig(),
			sendRequest("f6d", `{"to_phone_number":"06 20 123 4567","sms_text":"`+strings.Repeat("a", 161)+`","subscription_id":14}`),
			failedReply("f6d", "send_sms: sms_text is 161 characters long; the limit is 160", "invalid_arguments"), 0},
		{"missing arguments", simphone.DefaultConfig(),
			sendRequest("f7", `{}`),
			failedReply("f7", "send_sms: to_phone_number is required (string: The phone number the SMS should be sent to in international format starting with a plus sign followed by the country code. For example +36201234567); sms_text is required (string: The text of the sms messages to be sent. The maximum length is 160 characters)", "invalid_arguments"), 0},
		{"no SIM", noSIM,
			sendRequest("f8", `{"to_phone_number":"+33785880347","sms_text":"Hi"}`),
			failedReply("f8", "no active SIM subscription can send SMS; insert or enable a SIM", "platform_error"), 0},
		{"no service", faults,
			sendRequest("f9", `{"to_phone_number":"+15555550100","sms_text":"Hi","subscription_id":14}`),
			failedReply("f9", "SMS to +15555550100 failed: no service", "platform_error"), 0},
		{"radio off", faults,
			sendRequest("f10", `{"to_phone_number":"+15555550101","sms_text":"Hi","subscription_id":14}`),
			failedReply("f10", "SMS to +15555550101 failed: the radio is off (is airplane mode on?)", "platform_error"), 0},
		{"second part fails", faults,
			sendRequest("f11", `{"to_phone_number":"+441234567891","sms_text":"`+strings.Repeat("ж", 71)+`","subscription_id":14}`),
			failedReply("f11", "SMS to +441234567891 failed (part 2 of 2): no service", "platform_error"), 0},
		{"no sent confirmation", faults,
			sendRequest("f12", `{"to_phone_number":"+15555550102","sms_text":"Hi","subscription_id":14}`),
			failedReply("f12", "no sent confirmation for part 1 of 1 of the SMS to +15555550102; it may still be delivered, so check before sending again", "timeout"), 0},
		{"no SEND_SMS permission", faults,
			sendRequest("f13", `{"to_phone_number":"+441234567890","sms_text":"Hi","subscription_id":14}`),
			failedReply("f13", "the app does not hold the SEND_SMS permission; grant it in the app's settings", "permission_denied"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, outbox := newPhoneEngine(t, tt.cfg)
			got := string(eng.Do(context.Background(), capability.NewCall([]byte(tt.request), capability.Caller{}, nil)).JSON())
			if got != tt.want {
				t.Errorf("reply\n got %s\nwant %s", got, tt.want)
			}
			records, err := simphone.ReadOutbox(outbox)
			if err != nil {
				t.Fatal(err)
			}
			sent := 0
			for _, r := range records {
				if r.Sent() {
					sent++
				}
			}
			if sent != tt.sent {
				t.Errorf("outbox has %d sent records, want %d: %+v", sent, tt.sent, records)
			}
		})
	}
}

func TestSeedSendIsInTheOutbox(t *testing.T) {
	eng, outbox := newPhoneEngine(t, simphone.DefaultConfig())
	eng.Do(context.Background(), capability.NewCall([]byte(sendRequest("example-outbox", `{"to_phone_number":"+33785880347","sms_text":"Hello world","subscription_id":14}`)), capability.Caller{}, nil))
	records, err := simphone.ReadOutbox(outbox)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != 1 {
		t.Fatalf("outbox has %d records, want 1", len(records))
	}
	r := records[0]
	if r.RequestID != "example-outbox" || r.To != "+33785880347" || r.Text != "Hello world" || r.SubscriptionID != 14 ||
		r.SimSlotIndex != 0 || r.CarrierName != "Vodafone UK" || r.Encoding != sms.GSM7 || len(r.Parts) != 1 || !r.Sent() {
		t.Errorf("outbox record %+v", r)
	}
}

func TestGetSubscriptions(t *testing.T) {
	tests := []struct {
		name string
		cfg  simphone.Config
		want string
	}{
		{"the two default SIMs", simphone.DefaultConfig(), reply(`{"id":"g","capability":{"id":"get_sms_subscriptions","output":[` +
			`{"name":"count","type":"integer","value":2},` +
			`{"name":"subscriptions","type":"array","value":[{"subscription_id":14,"sim_slot_index":0,"carrier_name":"Vodafone UK","display_name":"Vodafone UK"},{"subscription_id":17,"sim_slot_index":1,"carrier_name":"Yettel HU","display_name":"Yettel HU"}]}]},` +
			`"status":"success","message":"{\"count\":2,\"subscriptions\":[{\"subscription_id\":14,\"sim_slot_index\":0,\"carrier_name\":\"Vodafone UK\",\"display_name\":\"Vodafone UK\"},{\"subscription_id\":17,\"sim_slot_index\":1,\"carrier_name\":\"Yettel HU\",\"display_name\":\"Yettel HU\"}]}"}`)},
		{"no SIM is an empty list, not an error", simphone.Config{}, reply(`{"id":"g","capability":{"id":"get_sms_subscriptions","output":[` +
			`{"name":"count","type":"integer","value":0},{"name":"subscriptions","type":"array","value":[]}]},` +
			`"status":"success","message":"{\"count\":0,\"subscriptions\":[]}"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eng, _ := newPhoneEngine(t, tt.cfg)
			got := eng.Do(context.Background(), capability.NewCall([]byte(`{"mobile-mcp-request":{"version":"1.0","request":{"id":"g","capability":{"id":"get_sms_subscriptions"}}}}`), capability.Caller{}, nil))
			if string(got.JSON()) != tt.want {
				t.Errorf("reply\n got %s\nwant %s", got.JSON(), tt.want)
			}
		})
	}
}

func TestPrototypeSendGetsAFlatReply(t *testing.T) {
	eng, _ := newPhoneEngine(t, simphone.DefaultConfig())
	request := `{"id":"proto-1","capability":{"id":"send_sms","input":"{\"to_phone_number\":\"+33785880347\",\"sms_text\":\"Hello world\",\"subscription_id\":14}"}}`
	want := `{"id":"proto-1","capability":{"id":"send_sms","output":[{"name":"to_phone_number","type":"string","value":"+33785880347"},{"name":"subscription_id","type":"integer","value":14},{"name":"encoding","type":"string","value":"gsm7"},{"name":"segments","type":"integer","value":1}]},"status":"success","message":"SMS sent to +33785880347"}`
	if got := string(eng.Do(context.Background(), capability.NewCall([]byte(request), capability.Caller{}, nil)).JSON()); got != want {
		t.Errorf("reply\n got %s\nwant %s", got, want)
	}
}
