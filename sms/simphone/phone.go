package simphone

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/sms"
)

// Options configure a Phone.
type Options struct {
	// OutboxPath is the JSON Lines file every send is appended to. Empty
	// means no outbox (benchmarks use this).
	OutboxPath string
	// Now returns the time stamped on outbox records. Nil means time.Now.
	Now func() time.Time
}

// Phone is a simulated phone. It is safe for concurrent use.
type Phone struct {
	subs   []sms.Subscription
	faults map[string]Fault
	outbox *Outbox
	now    func() time.Time
}

// New returns a phone with the given SIMs and faults.
func New(cfg Config, opts Options) (*Phone, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	p := &Phone{
		subs:   slices.Clone(cfg.Subscriptions),
		faults: make(map[string]Fault, len(cfg.Faults)),
		now:    opts.Now,
	}
	for _, f := range cfg.Faults {
		p.faults[f.To] = f
	}
	if p.now == nil {
		p.now = time.Now
	}
	if opts.OutboxPath != "" {
		p.outbox = &Outbox{Path: opts.OutboxPath}
	}
	return p, nil
}

// Subscriptions returns the configured SIMs.
func (p *Phone) Subscriptions(context.Context) ([]sms.Subscription, error) {
	return slices.Clone(p.subs), nil
}

// Send "sends" msg: it decides each part's result from the faults, waits out
// any injected delay, and appends the attempt to the outbox before it reports
// the outcome, so a reported success is always on record.
func (p *Phone) Send(ctx context.Context, msg sms.Message) ([]sms.PartResult, error) {
	sub, ok := p.subscription(msg.SubscriptionID)
	if !ok {
		return nil, fmt.Errorf("subscription %d is not active", msg.SubscriptionID)
	}
	fault, faulty := p.faults[msg.To]
	if faulty && fault.Result == faultPermissionDenied {
		return nil, capability.Errorf(capability.CodePermissionDenied, "the app does not hold the SEND_SMS permission; grant it in the app's settings")
	}
	results := make([]sms.PartResult, len(msg.Parts))
	for i := range results {
		results[i] = sms.PartSent
		if faulty && (fault.Part == 0 || fault.Part == i+1) {
			results[i] = radioFaults[fault.Result]
		}
	}
	if faulty && fault.DelayMS > 0 {
		select {
		case <-time.After(time.Duration(fault.DelayMS) * time.Millisecond):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if p.outbox != nil {
		record := Record{
			Time:           p.now().UTC(),
			RequestID:      capability.RequestID(ctx),
			SubscriptionID: sub.ID,
			SimSlotIndex:   sub.SlotIndex,
			CarrierName:    sub.CarrierName,
			To:             msg.To,
			Text:           msg.Text,
			Encoding:       msg.Encoding,
			Parts:          msg.Parts,
			Results:        make([]string, len(results)),
		}
		for i, r := range results {
			record.Results[i] = r.String()
		}
		if err := p.outbox.Append(record); err != nil {
			return nil, err
		}
	}
	return results, nil
}

func (p *Phone) subscription(id int) (sms.Subscription, bool) {
	for _, s := range p.subs {
		if s.ID == id {
			return s, true
		}
	}
	return sms.Subscription{}, false
}
