// Package sms is the reference capability set: send_sms and
// get_sms_subscriptions, with the schemas of the Android SMS MCP server, on
// any phone that implements [Platform]:
//
//	reg, err := capability.NewRegistry(sms.Capabilities(phone)...)
//
// It owns everything SMS-specific: E.164 normalisation, GSM-7/UCS-2
// segmentation, the multi-SIM rules and the mapping of radio results to
// readable errors. It is an application of the engine, not part of it: the
// engine knows nothing of SMS, and this package nothing of transports.
package sms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/rawjson"
)

// Capability ids.
const (
	SendSMSID          = "send_sms"
	GetSubscriptionsID = "get_sms_subscriptions"
)

// MaxTextLength is the published schema's limit on sms_text, in characters.
const MaxTextLength = 160

// SendTimeout bounds send_sms, including the wait for every part's sent result.
const SendTimeout = 60 * time.Second

// Options configures the capability set. The zero value is what a phone needs.
type Options struct {
	// PartsPerMinute caps the SMS parts send_sms sends in any 60 seconds,
	// counted over every caller and transport of this set together: zero
	// means DefaultPartsPerMinute, Android's own limit, and a negative
	// number means no cap (load tests on the simulated phone).
	PartsPerMinute int
}

// Capabilities returns send_sms and get_sms_subscriptions over p, with the
// default Options. Descriptor generation may pass a nil Platform; the
// handlers are then never called.
func Capabilities(p Platform) []capability.Capability {
	return CapabilitiesWith(p, Options{})
}

// CapabilitiesWith returns send_sms and get_sms_subscriptions over p,
// configured by o. Every call makes a set of its own, with its own count of
// parts sent: a phone serves one set, to every transport.
func CapabilitiesWith(p Platform, o Options) []capability.Capability {
	s := service{platform: p}
	switch {
	case o.PartsPerMinute == 0:
		s.parts = newPartWindow(DefaultPartsPerMinute)
	case o.PartsPerMinute > 0:
		s.parts = newPartWindow(o.PartsPerMinute)
	}
	return []capability.Capability{
		{
			ID:          SendSMSID,
			Description: "Sends an SMS message to a specified phone number.",
			Version:     "1.0",
			Input: []capability.Param{
				{Name: "to_phone_number", Type: capability.String, Required: true, Pattern: E164Pattern,
					Description: "The phone number the SMS should be sent to in international format starting with a plus sign followed by the country code. For example +36201234567"},
				{Name: "sms_text", Type: capability.String, Required: true, MaxLength: MaxTextLength,
					Description: "The text of the sms messages to be sent. The maximum length is 160 characters"},
				{Name: "subscription_id", Type: capability.Integer,
					Description: "SMS subscription ID to use for sending. Required when sending is allowed on more than one active subscription."},
			},
			Output: []capability.Param{
				{Name: "to_phone_number", Type: capability.String, Description: "The normalised number the SMS was sent to."},
				{Name: "subscription_id", Type: capability.Integer, Description: "The subscription the SMS was sent from."},
				{Name: "encoding", Type: capability.String, Description: "The text encoding: gsm7 or ucs2."},
				{Name: "segments", Type: capability.Integer, Description: "The number of SMS parts sent."},
			},
			Annotations: capability.Annotations{Title: "Send SMS", Destructive: new(true), OpenWorld: new(true)},
			Timeout:     SendTimeout,
			Validate:    validateSend,
			Handler:     s.send,
		},
		{
			ID:          GetSubscriptionsID,
			Description: "Returns the list of active SMS subscriptions available on the device.",
			Version:     "1.0",
			Output: []capability.Param{
				{Name: "count", Type: capability.Integer, Description: "The number of active subscriptions."},
				{Name: "subscriptions", Type: capability.Array, Items: capability.Object, Description: "The active subscriptions: subscription_id, sim_slot_index, carrier_name and display_name."},
			},
			Annotations: capability.Annotations{Title: "List SMS subscriptions", ReadOnly: true, Idempotent: true, Destructive: new(false), OpenWorld: new(false)},
			Handler:     s.subscriptions,
		},
	}
}

type service struct {
	platform Platform
	parts    *partWindow // nil: no cap
}

func (s service) subscriptions(ctx context.Context, _ capability.Args) (capability.Result, error) {
	subs, err := s.platform.Subscriptions(ctx)
	if err != nil {
		return capability.Result{}, platformError("listing subscriptions", err)
	}
	if subs == nil {
		subs = []Subscription{}
	}
	list := appendSubscriptions(nil, subs)
	count := strconv.Itoa(len(subs))
	return capability.Result{
		// The JSON text the Android SMS MCP server returns, which MCP
		// clients show as the tool's text content.
		Message: `{"count":` + count + `,"subscriptions":` + string(list) + `}`,
		Output: []capability.Value{
			{Name: "count", Type: capability.Integer, Value: len(subs)},
			{Name: "subscriptions", Type: capability.Array, Value: json.RawMessage(list)},
		},
	}, nil
}

// appendSubscriptions writes subs as the JSON array encoding/json would
// write, without reflection: this is the hot path of the read-only tool.
func appendSubscriptions(buf []byte, subs []Subscription) []byte {
	buf = append(buf, '[')
	for i, s := range subs {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"subscription_id":`...)
		buf = strconv.AppendInt(buf, int64(s.ID), 10)
		buf = append(buf, `,"sim_slot_index":`...)
		buf = strconv.AppendInt(buf, int64(s.SlotIndex), 10)
		buf = append(buf, `,"carrier_name":`...)
		buf = rawjson.AppendString(buf, s.CarrierName)
		buf = append(buf, `,"display_name":`...)
		buf = rawjson.AppendString(buf, s.DisplayName)
		buf = append(buf, '}')
	}
	return append(buf, ']')
}

// validateSend holds send_sms's checks that need no phone: the number's
// format and a text that is not blank, both reported when both fail. The
// engine runs them before consent and the rate limit; which SIMs are
// active is the handler's to check. An argument the engine could not
// bind is absent here, and its problem is the engine's to report.
func validateSend(args capability.Args) error {
	var problems []string
	if _, given := args["to_phone_number"]; given {
		if _, err := recipient(args); err != nil {
			problems = append(problems, err.(*capability.Error).Message)
		}
	}
	if text, given := args["sms_text"]; given && strings.TrimSpace(text.(string)) == "" {
		problems = append(problems, "sms_text is empty; send at least one visible character")
	}
	if len(problems) > 0 {
		return capability.Errorf(capability.CodeInvalidArguments, "%s", strings.Join(problems, "; "))
	}
	return nil
}

// recipient is send_sms's to_phone_number, normalised.
func recipient(args capability.Args) (string, error) {
	to, err := NormalizeNumber(args.String("to_phone_number"))
	if err != nil {
		return "", capability.Errorf(capability.CodeInvalidArguments, "to_phone_number %v", err)
	}
	return to, nil
}

func (s service) send(ctx context.Context, args capability.Args) (capability.Result, error) {
	to, err := recipient(args) // validateSend has accepted it
	if err != nil {
		return capability.Result{}, err
	}
	text := args.String("sms_text")
	subs, err := s.platform.Subscriptions(ctx)
	if err != nil {
		return capability.Result{}, platformError("listing subscriptions", err)
	}
	requested, given := args.Int("subscription_id")
	sub, cerr := chooseSubscription(subs, requested, given)
	if cerr != nil {
		return capability.Result{}, cerr
	}

	seg := Segment(text)
	// The last moment to stop with nothing done: a send the platform has
	// taken must finish, and be recorded, whatever the caller wants now.
	if capability.Cancelled(ctx) {
		return capability.Result{}, capability.ErrCancelled
	}
	// Counted last, once nothing else can refuse the SMS, so that only
	// sends the phone attempts use up the minute's parts.
	if s.parts != nil {
		if cerr := s.parts.take(len(seg.Parts)); cerr != nil {
			return capability.Result{}, cerr
		}
	}
	results, err := s.platform.Send(ctx, Message{
		SubscriptionID: sub.ID, To: to, Text: text,
		Encoding: seg.Encoding, Parts: seg.Parts,
	})
	if s.parts != nil {
		// A platform error means nothing was sent; and the phone may split
		// the text into another number of parts than Segment did.
		s.parts.settle(len(seg.Parts), len(results))
	}
	if err != nil {
		return capability.Result{}, platformError("sending the SMS to "+to, err)
	}
	if cerr := checkParts(to, results); cerr != nil {
		return capability.Result{}, cerr
	}
	return capability.Result{
		Message: "SMS sent to " + to,
		Output: []capability.Value{
			{Name: "to_phone_number", Type: capability.String, Value: to},
			{Name: "subscription_id", Type: capability.Integer, Value: sub.ID},
			{Name: "encoding", Type: capability.String, Value: seg.Encoding},
			{Name: "segments", Type: capability.Integer, Value: len(results)},
		},
	}, nil
}

// chooseSubscription applies the multi-SIM rules: with one active SIM the id
// may be omitted; with more it is required; an inactive id is an error.
func chooseSubscription(subs []Subscription, requested int64, given bool) (Subscription, *capability.Error) {
	if len(subs) == 0 {
		return Subscription{}, capability.Errorf(capability.CodePlatformError, "no active SIM subscription can send SMS; insert or enable a SIM")
	}
	if !given {
		if len(subs) == 1 {
			return subs[0], nil
		}
		return Subscription{}, capability.Errorf(capability.CodeInvalidArguments,
			"subscription_id is required because %d SIMs are active: %s; call get_sms_subscriptions and pass the subscription_id of the SIM to send from",
			len(subs), describeSubscriptions(subs))
	}
	for _, sub := range subs {
		if int64(sub.ID) == requested {
			return sub, nil
		}
	}
	return Subscription{}, capability.Errorf(capability.CodeInvalidArguments,
		"subscription_id %d is not an active subscription; active: %s", requested, describeSubscriptions(subs))
}

func describeSubscriptions(subs []Subscription) string {
	parts := make([]string, len(subs))
	for i, s := range subs {
		parts[i] = fmt.Sprintf("%d (slot %d, %s)", s.ID, s.SlotIndex, s.CarrierName)
	}
	return strings.Join(parts, ", ")
}

// checkParts turns per-part results into one outcome. A radio failure wins
// over a missing confirmation, because it is certain.
func checkParts(to string, results []PartResult) *capability.Error {
	if len(results) == 0 {
		return capability.Errorf(capability.CodePlatformError, "the phone sent no part of the SMS to %s", to)
	}
	total := len(results)
	unconfirmed := -1
	for i, r := range results {
		switch r {
		case PartSent:
		case PartNoResult:
			if unconfirmed < 0 {
				unconfirmed = i
			}
		default:
			where := ""
			if total > 1 {
				where = fmt.Sprintf(" (part %d of %d)", i+1, total)
			}
			return capability.Errorf(capability.CodePlatformError, "SMS to %s failed%s: %s", to, where, r)
		}
	}
	if unconfirmed >= 0 {
		return capability.Errorf(capability.CodeTimeout,
			"no sent confirmation for part %d of %d of the SMS to %s; it may still be delivered, so check before sending again", unconfirmed+1, total, to)
	}
	return nil
}

// platformError keeps the code of a *capability.Error (permission_denied, for
// example) and reports anything else as platform_error.
func platformError(doing string, err error) *capability.Error {
	if errors.Is(err, context.DeadlineExceeded) {
		return capability.Errorf(capability.CodeTimeout, "%s did not finish in time", doing)
	}
	e := capability.AsError(err, capability.CodePlatformError)
	if e.Code == capability.CodePlatformError || e.Code == capability.CodeInternalError {
		return &capability.Error{Code: e.Code, Message: doing + " failed: " + e.Message}
	}
	return e
}
