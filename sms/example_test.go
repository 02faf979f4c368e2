package sms_test

import (
	"context"
	"fmt"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// Capabilities are send_sms and get_sms_subscriptions on a Platform: here
// the simulated phone with its two default SIMs, 14 and 17. With two SIMs
// a send must name one; the refusal lists them.
func ExampleCapabilities() {
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{}) // no outbox file
	if err != nil {
		fmt.Println(err)
		return
	}
	reg, err := capability.NewRegistry(sms.Capabilities(phone)...)
	if err != nil {
		fmt.Println(err)
		return
	}
	engine := capability.NewEngine(reg, capability.Options{})

	for _, args := range []string{
		`{"to_phone_number":"+33 7 85 88 03 47","sms_text":"Hello world","subscription_id":14}`,
		`{"to_phone_number":"+33785880347","sms_text":"Hello world"}`,
	} {
		reply := engine.Do(context.Background(), capability.NewToolCall("", sms.SendSMSID, []byte(args), capability.Caller{}, nil))
		fmt.Println(reply.Status, "-", reply.Message)
	}
	// Output:
	// success - SMS sent to +33785880347
	// failure - subscription_id is required because 2 SIMs are active: 14 (slot 0, Vodafone UK), 17 (slot 1, Yettel HU); call get_sms_subscriptions and pass the subscription_id of the SIM to send from
}
