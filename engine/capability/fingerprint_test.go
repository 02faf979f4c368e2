package capability

import "testing"

// The fingerprint is kept in the reply store, which several processes
// share and which outlives each: it must be the same in every process and
// every run, so it is pinned here (to FNV-1a's 128-bit hash of
// "send_sms\x00" and the arguments' canonical JSON, as a reference
// implementation computes it).
func TestFingerprintIsTheSameInEveryProcess(t *testing.T) {
	got := fingerprint("send_sms", Args{"to_phone_number": "+33785880347", "sms_text": "Hello world", "subscription_id": int64(14)})
	if want := "1aef9a5121bafeebce2e99956b1a2e63"; got != want {
		t.Errorf("fingerprint = %s; want %s", got, want)
	}
}
