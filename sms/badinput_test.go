package sms_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// countingPlatform counts sends that reach the phone.
type countingPlatform struct {
	sms.Platform
	sends atomic.Int32
}

func (c *countingPlatform) Send(ctx context.Context, msg sms.Message) ([]sms.PartResult, error) {
	c.sends.Add(1)
	return c.Platform.Send(ctx, msg)
}

// TestBadInputCatalogAgainstTheEngine runs every catalogued bad request
// through the engine: each gets one well-formed reply with the catalogued
// error_code, and none reaches the platform.
func TestBadInputCatalogAgainstTheEngine(t *testing.T) {
	cases, err := testkit.LoadBadInputs()
	if err != nil {
		t.Fatal(err)
	}
	phone, _ := simphone.New(simphone.DefaultConfig(), simphone.Options{})
	platform := &countingPlatform{Platform: phone}
	reg, _ := capability.NewRegistry(sms.Capabilities(platform)...)
	eng := capability.NewEngine(reg, capability.Options{})
	counts := map[string]int{}
	for _, c := range cases {
		reply := eng.Do(context.Background(), capability.NewCall(c.Request, capability.Caller{}, nil))
		encoded := reply.JSON()
		var wellFormed struct {
			Envelope struct {
				Version  string `json:"version"`
				Response struct {
					ID        *string `json:"id"`
					Status    string  `json:"status"`
					Message   string  `json:"message"`
					ErrorCode string  `json:"error_code"`
				} `json:"response"`
			} `json:"mobile-mcp-response"`
			Status    string `json:"status"`
			ErrorCode string `json:"error_code"`
			Message   string `json:"message"`
		}
		if err := json.Unmarshal(encoded, &wellFormed); err != nil {
			t.Errorf("%s: the reply is not JSON: %v", c.Name, err)
			continue
		}
		status, code, message := wellFormed.Envelope.Response.Status, wellFormed.Envelope.Response.ErrorCode, wellFormed.Envelope.Response.Message
		if reply.Shape == capability.ShapePrototype {
			status, code, message = wellFormed.Status, wellFormed.ErrorCode, wellFormed.Message
		}
		if status != "failure" || code != c.ErrorCode || message == "" {
			t.Errorf("%s: status %q, error_code %q, want failure and %q: %.300s", c.Name, status, code, c.ErrorCode, encoded)
		}
		if len(encoded) > 4096 {
			t.Errorf("%s: the reply is %d bytes; a bad request should get a short answer", c.Name, len(encoded))
		}
		counts[c.ErrorCode]++
	}
	if n := platform.sends.Load(); n != 0 {
		t.Errorf("%d bad requests reached the platform", n)
	}
	t.Logf("%d bad requests, by error_code: %v", len(cases), counts)
}
