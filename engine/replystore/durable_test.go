package replystore_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// A kept reply is in the file and synced to the disk before Do (Finish)
// returns it, so a reply reported as success outlasts a power loss. A
// refusal, which did nothing, is not synced: a sync is most of a send's
// cost in the store (BenchmarkDoOnDisk). A sync that fails is the caller's
// error, never a silent success.
func TestAKeptReplyIsSyncedBeforeItIsReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), replystore.FileName)
	var synced []string // what the file held at each sync
	syncErr := error(nil)
	replystore.SetSyncFile(t, func(f *os.File) error {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		synced = append(synced, string(data))
		return errors.Join(syncErr, f.Sync())
	})
	s := openAt(t, path, replystore.Options{})
	var runs int32
	if _, _, err := s.Do("sent", "fp", once(`"SMS sent"`, &runs)); err != nil {
		t.Fatal(err)
	}
	if len(synced) != 1 || !strings.Contains(synced[0], `{"key":"sent","fingerprint":"fp",`) || !strings.Contains(synced[0], `"value":"SMS sent"`) {
		t.Fatalf("syncs before the reply was returned: %q", synced)
	}
	if _, _, err := s.Do("refused", "fp", func() ([]byte, bool) { return []byte(`"refused"`), false }); err != nil || len(synced) != 1 {
		t.Errorf("a refusal: %v, %d syncs", err, len(synced))
	}
	syncErr = errors.New("input/output error")
	if _, _, err := s.Do("unsynced", "fp", once(`"SMS sent"`, &runs)); err == nil || err.Error() != "syncing "+path+": input/output error" {
		t.Errorf("a failed sync: %v", err)
	}
}

// A last line torn by a process that died in the middle of writing it is
// cut off before the next record is appended, so it cannot swallow that
// record: the next store to open the file replays it instead of running it
// again.
func TestATornLastLineIsCutOffBeforeTheNextRecord(t *testing.T) {
	path, c, s, runs := storeWithOneReply(t, "first")
	appendTo(t, path, `{"key":"torn","fingerprint":"fp","at":1800000000000,"val`) // killed here
	s.Do("second", "fp", once(`"two"`, &runs))
	s.Close()

	data, _ := os.ReadFile(path)
	if bytes.Contains(data, []byte(`"torn"`)) || !bytes.HasSuffix(data, []byte("\n")) {
		t.Errorf("the torn line is still there:\n%s", data)
	}
	s = openAt(t, path, replystore.Options{Now: c.Now})
	for _, key := range []string{"first", "second"} {
		if v, replayed, err := s.Do(key, "fp", once(`"again"`, &runs)); !replayed || err != nil {
			t.Errorf("%s: %s, replayed %v, %v", key, v, replayed, err)
		}
	}
	if runs != 2 { // first and second, once each
		t.Errorf("%d runs, want 2", runs)
	}
}

// storeWithOneReply opens a store on a new file, at a fixed time, with one
// kept reply under key; runs counts the runs of once.
func storeWithOneReply(t *testing.T, key string) (path string, c *clock, s *replystore.Store, runs int32) {
	path = filepath.Join(t.TempDir(), replystore.FileName)
	c = &clock{now: time.Unix(1_800_000_000, 0)}
	s = openAt(t, path, replystore.Options{Now: c.Now})
	s.Do(key, "fp", once(`"`+key+`"`, &runs))
	return path, c, s, runs
}

// appendTo writes text at the end of the file at path, as another process
// (or a person) would, bypassing the store.
func appendTo(t *testing.T, path, text string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
