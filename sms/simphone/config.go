// Package simphone is a simulated phone that implements sms.Platform on a
// host: configurable SIMs, an outbox file instead of a radio, and faults
// injected for chosen numbers so that failures can be tried.
//
//	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{OutboxPath: filepath.Join(dataDir, simphone.OutboxFile)})
//	// ...
//	reg, err := capability.NewRegistry(sms.Capabilities(phone)...)
//
// The default phone has the two SIMs of the Android SMS MCP server's
// transcripts: subscription 14 in slot 0 (Vodafone UK) and 17 in slot 1
// (Yettel HU).
package simphone

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mobilemcp/mobilemcp/internal/osfile"
	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/sms"
)

// Config describes the simulated phone's SIMs and faults. It is read from a
// JSON file given with --sim-config.
type Config struct {
	// Subscriptions are the active SIMs, each id and slot once.
	Subscriptions []sms.Subscription `json:"subscriptions"`
	// Faults make sends to chosen numbers fail.
	Faults []Fault `json:"faults,omitempty"`
}

// Fault makes sends to one number fail in a chosen way.
type Fault struct {
	// To is the number the fault applies to. It is normalised like
	// to_phone_number, so "+1 555 555 0100" matches "+15555550100".
	To string `json:"to"`
	// Result is what the radio reports: one of FaultResults.
	Result string `json:"result"`
	// Part is the 1-based part that fails; 0 means every part.
	Part int `json:"part,omitempty"`
	// DelayMS holds the sent results back this long, as a slow network does.
	DelayMS int `json:"delay_ms,omitempty"`
}

// radioFaults names the injectable sent results.
var radioFaults = map[string]sms.PartResult{
	"generic_failure": sms.PartGenericFailure,
	"radio_off":       sms.PartRadioOff,
	"null_pdu":        sms.PartNullPDU,
	"no_service":      sms.PartNoService,
	"limit_exceeded":  sms.PartLimitExceeded,
	"no_result":       sms.PartNoResult,
}

// faultPermissionDenied is not a radio result: it simulates an app that
// lacks the SEND_SMS permission, so nothing is sent at all.
const faultPermissionDenied = "permission_denied"

// FaultResults lists the valid Fault.Result names, sorted.
func FaultResults() []string {
	names := []string{faultPermissionDenied}
	for name := range radioFaults {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// DefaultConfig is the phone of the reference transcripts: two SIMs, and three
// fictional 555-01xx numbers that fail, for demos.
func DefaultConfig() Config {
	return Config{
		Subscriptions: []sms.Subscription{
			{ID: 14, SlotIndex: 0, CarrierName: "Vodafone UK", DisplayName: "Vodafone UK"},
			{ID: 17, SlotIndex: 1, CarrierName: "Yettel HU", DisplayName: "Yettel HU"},
		},
		Faults: []Fault{
			{To: "+15555550100", Result: "no_service"},
			{To: "+15555550101", Result: "radio_off"},
			{To: "+15555550102", Result: "no_result"},
		},
	}
}

// MaxConfigBytes bounds a configuration file: a phone has a few SIMs, and
// a fault list of thousands of numbers is still far below it.
const MaxConfigBytes = 1 << 20

// LoadConfig reads and checks the JSON configuration file at path, which
// must be a regular file of at most MaxConfigBytes (see ParseConfig).
func LoadConfig(path string) (Config, error) {
	data, err := osfile.ReadFile(path, MaxConfigBytes)
	if err != nil {
		return Config{}, err
	}
	return ParseConfig(path, data)
}

// ParseConfig reads and checks a configuration; name names it in errors.
// It must be one JSON object that names its subscriptions ([] for a phone
// without SIMs), with each key once and no unknown key, so that neither a
// typo, nor a second value for a key, nor an empty or null file silently
// falls back to a default.
func ParseConfig(name string, data []byte) (Config, error) {
	fail := func(format string, args ...any) (Config, error) {
		return Config{}, fmt.Errorf("SIM config %s %s", name, fmt.Sprintf(format, args...))
	}
	text := bytes.TrimSpace(data)
	switch {
	case len(text) == 0:
		return fail(`is empty; it must be a JSON object such as {"subscriptions":[...]}`)
	case text[0] != '{':
		var v any
		if json.Unmarshal(text, &v) == nil {
			return fail(`must be a JSON object such as {"subscriptions":[...]}; it is %s`, jsonKind(v))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var cfg struct {
		Config
		Subscriptions *[]sms.Subscription `json:"subscriptions"`
	}
	if err := dec.Decode(&cfg); err != nil {
		return fail("is not a configuration: %v", err)
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); err != io.EOF {
		more := end + len(data[end:]) - len(bytes.TrimLeft(data[end:], " \t\r\n"))
		return fail("has more after its JSON object, at byte %d; give one object", more)
	}
	if path := rawjson.Duplicate(data, nil); path != "" {
		return fail("gives %s twice; give each key once", path)
	}
	if cfg.Subscriptions == nil {
		return fail(`has no "subscriptions"; write "subscriptions":[] for a phone without SIMs`)
	}
	c := cfg.Config
	c.Subscriptions = *cfg.Subscriptions
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("SIM config %s: %w", name, err)
	}
	return c, nil
}

// jsonKind names the kind of a decoded JSON value for a message.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}

// Validate checks ids and slots are unique and faults are well formed, and
// normalises the faults' numbers.
func (c *Config) Validate() error {
	ids := map[int]bool{}
	slots := map[int]bool{}
	for i, s := range c.Subscriptions {
		where := fmt.Sprintf("subscriptions[%d]", i)
		switch {
		case ids[s.ID]:
			return fmt.Errorf("%s: subscription_id %d is used twice", where, s.ID)
		case s.SlotIndex < 0:
			return fmt.Errorf("%s: sim_slot_index %d is negative", where, s.SlotIndex)
		case slots[s.SlotIndex]:
			return fmt.Errorf("%s: sim_slot_index %d is used twice", where, s.SlotIndex)
		case strings.TrimSpace(s.CarrierName) == "":
			return fmt.Errorf("%s: carrier_name is empty", where)
		}
		ids[s.ID], slots[s.SlotIndex] = true, true
	}
	for i := range c.Faults {
		f := &c.Faults[i]
		where := fmt.Sprintf("faults[%d]", i)
		to, err := sms.NormalizeNumber(f.To)
		if err != nil {
			return fmt.Errorf("%s: to %w", where, err)
		}
		f.To = to
		if _, radio := radioFaults[f.Result]; !radio && f.Result != faultPermissionDenied {
			return fmt.Errorf("%s: result %q is not one of %s", where, f.Result, strings.Join(FaultResults(), ", "))
		}
		if f.Part < 0 || f.DelayMS < 0 {
			return fmt.Errorf("%s: part and delay_ms must not be negative", where)
		}
	}
	return nil
}
