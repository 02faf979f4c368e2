package replystore_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// BenchmarkDoOnDisk is the reply store's cost per request that changes
// something: look the key up, claim it, record the reply in the file and
// answer. The reply is about the size of a send_sms reply. With the store
// on disk, recording includes making the record durable (fsync) before the
// reply is reported: that is most of the time, and it depends on the disk.
func BenchmarkDoOnDisk(b *testing.B) { benchmarkDoOnDisk(b) }

// BenchmarkDoOnDiskWithoutSync is the same with the sync left out: the
// difference from BenchmarkDoOnDisk is what the sync costs.
func BenchmarkDoOnDiskWithoutSync(b *testing.B) {
	replystore.SetSyncFile(b, func(*os.File) error { return nil })
	benchmarkDoOnDisk(b)
}

func benchmarkDoOnDisk(b *testing.B) {
	s, err := replystore.Open(replystore.Options{Path: filepath.Join(b.TempDir(), replystore.FileName), Window: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	reply := []byte(`{"mobile-mcp-response":{"version":"1.0","response":{"id":"3f0c1f64-5d7e-4b8e-9b6a-2f1a7c9d0e11","capability":{"id":"send_sms","output":[{"name":"to_phone_number","type":"string","value":"+33785880347"},{"name":"subscription_id","type":"integer","value":14},{"name":"encoding","type":"string","value":"gsm7"},{"name":"segments","type":"integer","value":1}]},"status":"success","message":"SMS sent to +33785880347"}}}`)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if _, _, err := s.Do("caller\x00"+strconv.Itoa(i), "fp", func() ([]byte, bool) { return reply, true }); err != nil {
			b.Fatal(err)
		}
	}
}
