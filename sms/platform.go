package sms

import (
	"context"
	"fmt"
)

// Subscription is an active SIM subscription, in the shape the Android SMS
// MCP server reports it.
type Subscription struct {
	// ID is the subscription id that send_sms takes as subscription_id.
	ID int `json:"subscription_id"`
	// SlotIndex is the SIM slot, from 0.
	SlotIndex int `json:"sim_slot_index"`
	// CarrierName is the network's name, such as "Vodafone UK".
	CarrierName string `json:"carrier_name"`
	// DisplayName is the name the user gave the SIM, or the phone's.
	DisplayName string `json:"display_name"`
}

// Message is one SMS to send.
type Message struct {
	// SubscriptionID is the SIM to send from.
	SubscriptionID int
	// To is the recipient, normalised to E.164: "+33785880347".
	To string
	// Text is the whole message.
	Text string
	// Encoding and Parts are this package's segmentation of Text. A device
	// platform may split with its own SmsManager.divideMessage instead; the
	// reply then reports the number of parts the platform actually sent.
	Encoding Encoding
	Parts    []string
}

// PartResult is the sent result of one part. The values are Android's, so a
// device platform passes the result code of the sent broadcast through
// unchanged: Activity.RESULT_OK, or an SmsManager.RESULT_ERROR_* code.
type PartResult int

// Part results. PartNoResult is the zero value: a part whose sent broadcast
// had not arrived when the platform stopped waiting.
const (
	PartSent                  PartResult = -1 // Activity.RESULT_OK
	PartNoResult              PartResult = 0
	PartGenericFailure        PartResult = 1  // SmsManager.RESULT_ERROR_GENERIC_FAILURE
	PartRadioOff              PartResult = 2  // SmsManager.RESULT_ERROR_RADIO_OFF
	PartNullPDU               PartResult = 3  // SmsManager.RESULT_ERROR_NULL_PDU
	PartNoService             PartResult = 4  // SmsManager.RESULT_ERROR_NO_SERVICE
	PartLimitExceeded         PartResult = 5  // SmsManager.RESULT_ERROR_LIMIT_EXCEEDED
	PartFDNCheckFailure       PartResult = 6  // SmsManager.RESULT_ERROR_FDN_CHECK_FAILURE
	PartShortCodeNotAllowed   PartResult = 7  // SmsManager.RESULT_ERROR_SHORT_CODE_NOT_ALLOWED
	PartShortCodeNeverAllowed PartResult = 8  // SmsManager.RESULT_ERROR_SHORT_CODE_NEVER_ALLOWED
	PartRadioNotAvailable     PartResult = 9  // SmsManager.RESULT_RADIO_NOT_AVAILABLE
	PartNetworkReject         PartResult = 10 // SmsManager.RESULT_NETWORK_REJECT
)

var partResultText = map[PartResult]string{
	PartSent:                  "sent",
	PartNoResult:              "no sent confirmation arrived",
	PartGenericFailure:        "generic failure",
	PartRadioOff:              "the radio is off (is airplane mode on?)",
	PartNullPDU:               "the message could not be encoded (null PDU)",
	PartNoService:             "no service",
	PartLimitExceeded:         "the phone's SMS sending limit was exceeded",
	PartFDNCheckFailure:       "blocked by fixed dialling numbers (FDN)",
	PartShortCodeNotAllowed:   "sending to this short code is not allowed",
	PartShortCodeNeverAllowed: "sending to this short code is never allowed",
	PartRadioNotAvailable:     "the radio is not available",
	PartNetworkReject:         "the network rejected the message",
}

// String describes the result for a person.
func (r PartResult) String() string {
	if text, ok := partResultText[r]; ok {
		return text
	}
	return fmt.Sprintf("radio error code %d", int(r))
}

// Platform is what the SMS capabilities need from a phone. On a device the
// Java layer implements it with SubscriptionManager and SmsManager; on a host
// the simulated phone does.
type Platform interface {
	// Subscriptions lists the active subscriptions that can send SMS.
	Subscriptions(ctx context.Context) ([]Subscription, error)
	// Send sends msg and returns one result per part actually sent, in
	// order. It waits for each part's sent result, up to a deadline; a part
	// still unconfirmed then is PartNoResult. It returns an error only when
	// nothing could be sent; an error wrapping a *capability.Error keeps its
	// code (permission_denied, for example).
	Send(ctx context.Context, msg Message) ([]PartResult, error)
}
