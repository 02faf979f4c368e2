package replystore_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// clock is a settable time source.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func open(t *testing.T, path string, c *clock) *replystore.Store {
	t.Helper()
	s, err := replystore.Open(replystore.Options{Path: path, Window: 10 * time.Minute, Now: c.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func once(value string, runs *int32) func() ([]byte, bool) {
	return func() ([]byte, bool) {
		atomic.AddInt32(runs, 1)
		return []byte(value), true
	}
}

func TestRepeatWithinTheWindowReplays(t *testing.T) {
	c := &clock{now: time.Unix(1_800_000_000, 0)}
	s := open(t, "", c)
	var runs int32
	v, replayed, err := s.Do("k", "fp", once(`"first"`, &runs))
	if string(v) != `"first"` || replayed || err != nil {
		t.Fatalf("first: %s %v %v", v, replayed, err)
	}
	c.Advance(9 * time.Minute)
	v, replayed, err = s.Do("k", "fp", once(`"second"`, &runs))
	if string(v) != `"first"` || !replayed || err != nil || runs != 1 {
		t.Errorf("repeat: %s %v %v, runs %d", v, replayed, err, runs)
	}
	c.Advance(2 * time.Minute) // now 11 minutes after the first
	v, replayed, _ = s.Do("k", "fp", once(`"third"`, &runs))
	if string(v) != `"third"` || replayed || runs != 2 {
		t.Errorf("after the window: %s %v, runs %d", v, replayed, runs)
	}
}

func TestSameKeyDifferentRequestConflicts(t *testing.T) {
	s := open(t, "", &clock{now: time.Unix(0, 0)})
	var runs int32
	s.Do("k", "fp1", once(`1`, &runs))
	if _, _, err := s.Do("k", "fp2", once(`2`, &runs)); !errors.Is(err, replystore.ErrConflict) || runs != 1 {
		t.Errorf("got %v, runs %d", err, runs)
	}
}

func TestUnsavedValuesAreNotReplayed(t *testing.T) {
	s := open(t, "", &clock{now: time.Unix(0, 0)})
	var runs int32
	s.Do("k", "fp", func() ([]byte, bool) { runs++; return []byte(`"invalid"`), false })
	v, replayed, _ := s.Do("k", "fp", once(`"fixed"`, &runs))
	if string(v) != `"fixed"` || replayed || runs != 2 {
		t.Errorf("got %s %v, runs %d", v, replayed, runs)
	}
}

func TestConcurrentDuplicatesRunOnce(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "r.jsonl"), &clock{now: time.Unix(0, 0)})
	var runs int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	var replays int32
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, replayed, err := s.Do("same", "fp", func() ([]byte, bool) {
				atomic.AddInt32(&runs, 1)
				<-release
				return []byte(`"sent once"`), true
			})
			if err != nil || string(v) != `"sent once"` {
				t.Errorf("got %s, %v", v, err)
			}
			if replayed {
				atomic.AddInt32(&replays, 1)
			}
		}()
	}
	time.Sleep(20 * time.Millisecond) // let the callers pile up on the key
	close(release)
	wg.Wait()
	if runs != 1 || replays != 63 {
		t.Errorf("runs %d, replays %d; want 1 and 63", runs, replays)
	}
}

func TestRepliesSurviveARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", replystore.FileName)
	c := &clock{now: time.Unix(1_800_000_000, 0)}
	s := open(t, path, c)
	var runs int32
	s.Do("old", "fp", once(`"old"`, &runs))
	c.Advance(8 * time.Minute)
	s.Do("new", "fp", once(`{"reply":"new"}`, &runs))
	s.Close()
	// A process killed mid-write leaves a torn last line.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"key":"torn","finger`)
	f.Close()

	c.Advance(3 * time.Minute) // "old" is now 11 minutes old, "new" 3
	s2 := open(t, path, c)
	if v, replayed, _ := s2.Do("new", "fp", once(`"again"`, &runs)); string(v) != `{"reply":"new"}` || !replayed {
		t.Errorf("new: %s %v", v, replayed)
	}
	if v, replayed, _ := s2.Do("old", "fp", once(`"rerun"`, &runs)); string(v) != `"rerun"` || replayed {
		t.Errorf("old: %s %v", v, replayed)
	}
	// Compacted at the restart, the file holds what is live: "new", and
	// then "old" run again, its claim and its reply. The torn line and
	// the expired reply are gone.
	data, _ := os.ReadFile(path)
	var keys []string
	for line := range strings.Lines(string(data)) {
		var r struct {
			Key   string
			Value json.RawMessage
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		keys = append(keys, fmt.Sprintf("%s %s", r.Key, r.Value))
	}
	if want := []string{`new {"reply":"new"}`, "old ", `old "rerun"`}; !slices.Equal(keys, want) {
		t.Errorf("the file after the restart: %q, want %q\n%s", keys, want, data)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", info.Mode().Perm())
	}
}

func TestFileIsCompactedAsItGrows(t *testing.T) {
	path := filepath.Join(t.TempDir(), replystore.FileName)
	c := &clock{now: time.Unix(1_800_000_000, 0)}
	s := open(t, path, c)
	var runs int32
	for i := range 3000 {
		s.Do(strconv.Itoa(i), "fp", once(`1`, &runs))
		c.Advance(time.Second) // entries older than 10 minutes expire as it runs
	}
	data, _ := os.ReadFile(path)
	if lines := strings.Count(string(data), "\n"); lines > 2000 {
		t.Errorf("file has %d lines; compaction should keep it near the live %d", lines, 600)
	}
}
