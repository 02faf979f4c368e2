// Package javaplatform adapts a phone's SMS platform that speaks JSON
// strings, as the SMS app's Java does through gomobile, to sms.Platform,
// and gives the SMS capabilities over it:
//
//	tool.AddGo(javaplatform.Capabilities(java)...) // java implements Platform
//
// It is not bound itself: the SMS app's bound package (smsapp) declares the
// Java interface and uses it.
package javaplatform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/sms"
)

// Platform is what the SMS capabilities need of the phone,
// implemented in Java with SubscriptionManager and SmsManager. Both methods
// answer in JSON so that Java only moves strings.
type Platform interface {
	// SubscriptionsJSON returns the active subscriptions as a JSON array of
	// {"subscription_id","sim_slot_index","carrier_name","display_name"}.
	// When they cannot be read it returns
	// {"error_code":"permission_denied","message":"..."} (or another error
	// code) instead, as SendSMS does. A thrown exception counts as
	// platform_error.
	SubscriptionsJSON() (string, error)

	// SendSMS sends text to the E.164 number on the subscription, split with
	// SmsManager.divideMessage and sent multipart with one sent PendingIntent
	// per part. It waits up to timeoutMillis for the parts' sent results and
	// returns {"results":[code,...]}: one code per part, Activity.RESULT_OK
	// (-1) or an SmsManager.RESULT_ERROR_* code, and 0 for a part whose
	// result had not arrived. When nothing could be sent it returns
	// {"error_code":"permission_denied","message":"..."} (or another error
	// code) instead. A thrown exception counts as platform_error.
	SendSMS(subscriptionID int, to, text string, timeoutMillis int64) (string, error)
}

// maxSendMargin is the most kept back from the engine's deadline when
// telling Java how long to wait for sent results, so that Java's answer,
// even an incomplete one, arrives before the engine gives up on the call.
const maxSendMargin = 2 * time.Second

// javaWait is how long Java may wait for sent results when left remains
// until the engine's deadline: all but a margin of 2 s, or of a quarter of
// left when that is smaller, so that a short deadline (NewBridgeWithTimeout)
// still leaves Java most of it.
func javaWait(left time.Duration) time.Duration {
	return left - min(maxSendMargin, left/4)
}

// Capabilities are send_sms and get_sms_subscriptions over p.
func Capabilities(p Platform) []capability.Capability {
	return sms.Capabilities(javaPlatform{p})
}

// javaPlatform adapts the JSON-speaking Java Platform to sms.Platform.
type javaPlatform struct {
	java Platform
}

func (j javaPlatform) Subscriptions(context.Context) ([]sms.Subscription, error) {
	text, err := j.java.SubscriptionsJSON()
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(strings.TrimSpace(text), "{") {
		var failed platformFailure
		err := decodeStrict(text, &failed)
		if err == nil && failed.ErrorCode == "" {
			err = errors.New("an object without error_code")
		}
		if err != nil {
			return nil, capability.Errorf(capability.CodeInternalError, "the Java platform listed subscriptions as %.80q: %v", text, err)
		}
		return nil, failed.err()
	}
	var subs []sms.Subscription
	if err := decodeStrict(text, &subs); err != nil {
		return nil, capability.Errorf(capability.CodeInternalError, "the Java platform listed subscriptions as %.80q: %v", text, err)
	}
	return subs, nil
}

// platformFailure is how the Java platform says that it could not do what
// was asked, permission_denied for example.
type platformFailure struct {
	ErrorCode capability.Code `json:"error_code"`
	Message   string          `json:"message"`
}

func (f platformFailure) err() error {
	return &capability.Error{Code: f.ErrorCode, Message: f.Message}
}

// sendOutcome is what the Java platform's SendSMS returns.
type sendOutcome struct {
	Results []int `json:"results"`
	platformFailure
}

func (j javaPlatform) Send(ctx context.Context, msg sms.Message) ([]sms.PartResult, error) {
	wait := javaWait(sms.SendTimeout)
	if deadline, ok := ctx.Deadline(); ok {
		wait = javaWait(time.Until(deadline))
	}
	if wait <= 0 {
		return nil, context.DeadlineExceeded
	}
	text, err := j.java.SendSMS(msg.SubscriptionID, msg.To, msg.Text, wait.Milliseconds())
	if err != nil {
		return nil, err
	}
	var out sendOutcome
	if err := decodeStrict(text, &out); err != nil {
		return nil, capability.Errorf(capability.CodeInternalError, "the Java platform answered SendSMS with %.80q: %v", text, err)
	}
	if out.ErrorCode != "" {
		return nil, out.err()
	}
	results := make([]sms.PartResult, len(out.Results))
	for i, code := range out.Results {
		results[i] = sms.PartResult(code)
	}
	return results, nil
}

// decodeStrict decodes JSON and rejects unknown fields, so a mismatch
// between the Go and Java sides shows up at once.
func decodeStrict(text string, v any) error {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}
