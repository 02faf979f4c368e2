package simphone_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/internal/rawjson"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

func TestConfigValidation(t *testing.T) {
	sub := func(id, slot int) sms.Subscription {
		return sms.Subscription{ID: id, SlotIndex: slot, CarrierName: "C"}
	}
	tests := []struct {
		name string
		cfg  simphone.Config
		want string
	}{
		{"duplicate id", simphone.Config{Subscriptions: []sms.Subscription{sub(1, 0), sub(1, 1)}}, "subscriptions[1]: subscription_id 1 is used twice"},
		{"duplicate slot", simphone.Config{Subscriptions: []sms.Subscription{sub(1, 0), sub(2, 0)}}, "subscriptions[1]: sim_slot_index 0 is used twice"},
		{"negative slot", simphone.Config{Subscriptions: []sms.Subscription{sub(1, -1)}}, "subscriptions[0]: sim_slot_index -1 is negative"},
		{"no carrier", simphone.Config{Subscriptions: []sms.Subscription{{ID: 1}}}, "subscriptions[0]: carrier_name is empty"},
		{"bad fault number", simphone.Config{Faults: []simphone.Fault{{To: "12", Result: "no_service"}}}, `faults[0]: to "12" is not an international number`},
		{"unknown fault", simphone.Config{Faults: []simphone.Fault{{To: "+15555550100", Result: "explode"}}}, `faults[0]: result "explode" is not one of generic_failure, limit_exceeded, no_result, no_service, null_pdu, permission_denied, radio_off`},
		{"negative part", simphone.Config{Faults: []simphone.Fault{{To: "+15555550100", Result: "no_service", Part: -1}}}, "faults[0]: part and delay_ms must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := simphone.New(tt.cfg, simphone.Options{})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"subscriptions":[{"subscription_id":9,"sim_slot_index":1,"carrier_name":"Orange","display_name":"Perso"}],
		"faults":[{"to":"+33 6 00 00 00 01","result":"limit_exceeded","part":1,"delay_ms":5}]}`), 0o600)
	cfg, err := simphone.LoadConfig(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Subscriptions) != 1 || cfg.Subscriptions[0] != (sms.Subscription{ID: 9, SlotIndex: 1, CarrierName: "Orange", DisplayName: "Perso"}) {
		t.Errorf("subscriptions %+v", cfg.Subscriptions)
	}
	if len(cfg.Faults) != 1 || cfg.Faults[0] != (simphone.Fault{To: "+33600000001", Result: "limit_exceeded", Part: 1, DelayMS: 5}) {
		t.Errorf("faults %+v", cfg.Faults)
	}
	if _, err := simphone.LoadConfig(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json: no such file") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"subscriptions":[{"id":1}]}`), 0o600)
	if _, err := simphone.LoadConfig(bad); err == nil || err.Error() != "SIM config "+bad+` is not a configuration: json: unknown field "id"` {
		t.Errorf("unknown field: %v", err)
	}
}

func TestConcurrentSendsKeepOutboxLinesWhole(t *testing.T) {
	outbox := filepath.Join(t.TempDir(), "data", simphone.OutboxFile)
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{OutboxPath: outbox})
	if err != nil {
		t.Fatal(err)
	}
	const n = 200
	text := strings.Repeat("long text ", 15)
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := phone.Send(context.Background(), sms.Message{SubscriptionID: 17, To: "+33785880347", Text: text, Encoding: sms.GSM7, Parts: []string{text}}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	records, err := simphone.ReadOutbox(outbox)
	if err != nil {
		t.Fatal(err)
	}
	if len(records) != n {
		t.Fatalf("%d records, want %d", len(records), n)
	}
	for _, r := range records {
		if r.Text != text || !r.Sent() || r.CarrierName != "Yettel HU" {
			t.Fatalf("record %+v", r)
		}
	}
	info, err := os.Stat(outbox)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("outbox mode %v, %v; want 0600", info.Mode().Perm(), err)
	}
}

func TestDelayedFaultRespectsTheDeadline(t *testing.T) {
	cfg := simphone.DefaultConfig()
	cfg.Faults = []simphone.Fault{{To: "+33785880347", Result: "no_service", DelayMS: 60_000}}
	outbox := filepath.Join(t.TempDir(), simphone.OutboxFile)
	phone, err := simphone.New(cfg, simphone.Options{OutboxPath: outbox})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	_, err = phone.Send(ctx, sms.Message{SubscriptionID: 14, To: "+33785880347", Text: "x", Parts: []string{"x"}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want the deadline", err)
	}
	if records, _ := simphone.ReadOutbox(outbox); len(records) != 0 {
		t.Errorf("an abandoned send reached the outbox: %+v", records)
	}
}

func TestSendOnInactiveSubscription(t *testing.T) {
	phone, _ := simphone.New(simphone.DefaultConfig(), simphone.Options{})
	_, err := phone.Send(context.Background(), sms.Message{SubscriptionID: 99, To: "+33785880347", Parts: []string{"x"}})
	if err == nil || err.Error() != "subscription 99 is not active" {
		t.Errorf("got %v", err)
	}
}

// FuzzParseConfig: no text makes the parser panic, and what it accepts is
// one JSON object, each key once, that names its subscriptions and passes
// Validate.
func FuzzParseConfig(f *testing.F) {
	for _, seed := range []string{
		`{"subscriptions":[{"subscription_id":9,"sim_slot_index":0,"carrier_name":"O","display_name":"P"}],"faults":[{"to":"+15555550100","result":"no_service"}]}`,
		`{"subscriptions":[]}`, `{"subscriptions":[],"subscriptions":[]}`, `{"subscriptions":[]} {}`, `null`, ``, `{}`, `[`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := simphone.ParseConfig("f.json", data)
		if err != nil {
			return
		}
		if !json.Valid(data) || bytes.TrimSpace(data)[0] != '{' || cfg.Subscriptions == nil {
			t.Fatalf("accepted %q", data)
		}
		if path := rawjson.Duplicate(data, nil); path != "" {
			t.Fatalf("accepted %q, which gives %s twice", data, path)
		}
		if err := cfg.Validate(); err != nil {
			t.Fatalf("accepted %q, which Validate refuses: %v", data, err)
		}
	})
}
