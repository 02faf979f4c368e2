package sms_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/mobilemcp/mobilemcp/engine/capability"
	"github.com/mobilemcp/mobilemcp/internal/testkit"
	"github.com/mobilemcp/mobilemcp/sms"
	"github.com/mobilemcp/mobilemcp/sms/simphone"
)

// TestTenThousandConcurrentRequests sends 10,000 requests through one engine
// from 64 goroutines: every reply must carry its own request's id and
// content, every send must reach the outbox exactly once, and the heap must
// come back to where it started.
func TestTenThousandConcurrentRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("long test")
	}
	const total, workers = 10_000, 64
	outbox := filepath.Join(t.TempDir(), simphone.OutboxFile)
	phone, err := simphone.New(simphone.DefaultConfig(), simphone.Options{OutboxPath: outbox})
	if err != nil {
		t.Fatal(err)
	}
	// 15,000 sends in seconds: far above a phone's 30 parts a minute.
	reg, _ := capability.NewRegistry(sms.CapabilitiesWith(phone, sms.Options{PartsPerMinute: -1})...)
	eng := capability.NewEngine(reg, capability.Options{})

	request := func(i int) (req []byte, wantID, wantMessage string) {
		id := fmt.Sprintf("req-%05d", i)
		if i%2 == 0 {
			to := fmt.Sprintf("+3378%07d", i)
			return []byte(sendRequest(id, `{"to_phone_number":"`+to+`","sms_text":"message `+id+`","subscription_id":14}`)), id, "SMS sent to " + to
		}
		return []byte(`{"id":"` + id + `","capability":{"id":"get_sms_subscriptions"}}`), id, `{"count":2,"subscriptions":[{"subscription_id":14,"sim_slot_index":0,"carrier_name":"Vodafone UK","display_name":"Vodafone UK"},{"subscription_id":17,"sim_slot_index":1,"carrier_name":"Yettel HU","display_name":"Yettel HU"}]}`
	}

	do := func(i int) {
		req, wantID, wantMessage := request(i)
		reply := eng.Do(context.Background(), capability.NewCall(req, capability.Caller{}, nil))
		if reply.ID != wantID || reply.Failed() || reply.Message != wantMessage {
			t.Errorf("request %s got reply %s", wantID, reply.JSON())
		}
	}

	// Warm up to a steady state first: the runtime's and the standard
	// library's caches (timer buckets, sync.Pools, per-P allocator caches)
	// fill on first use and are not a leak. A shorter warm-up left the
	// baseline tens of kilobytes low on some runs.
	const warmup = 5000
	testkit.RunLoad(workers, 0, warmup, do)
	before := testkit.Heap()
	testkit.RunLoad(workers, warmup, warmup+total, do)
	after := testkit.Heap()

	records, err := simphone.ReadOutbox(outbox)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range records {
		seen[r.RequestID]++
	}
	for i := 0; i < warmup+total; i += 2 {
		if id := fmt.Sprintf("req-%05d", i); seen[id] != 1 {
			t.Errorf("%s is in the outbox %d times", id, seen[id])
		}
	}
	testkit.CheckHeapReturned(t, before, after, total, "10,000 requests")
}
