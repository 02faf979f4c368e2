package replystore_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mobilemcp/mobilemcp/engine/replystore"
)

// Stores opened separately on one file behave as processes do: each open
// file has locks of its own. The tests of real processes are in
// cmd/mobilemcp (TestProcessesSharingADataDir).

func openAt(t *testing.T, path string, opts replystore.Options) *replystore.Store {
	t.Helper()
	opts.Path = path
	s, err := replystore.Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A second store waits for the first one's reply to a key it is running,
// and gets it, instead of running the key again.
func TestAStoreWaitsForAnotherStoresClaim(t *testing.T) {
	path := filepath.Join(t.TempDir(), replystore.FileName)
	a, b := openAt(t, path, replystore.Options{}), openAt(t, path, replystore.Options{})
	claim, _, err := a.Begin(context.Background(), "k", "fp")
	if err != nil || claim == nil {
		t.Fatal(claim, err)
	}
	got := make(chan string, 1)
	go func() {
		c, stored, err := b.Begin(context.Background(), "k", "fp")
		got <- string(stored) + " " + errString(err) + " " + claimString(c)
	}()
	select {
	case g := <-got:
		t.Fatalf("b answered while a was running: %s", g)
	case <-time.After(100 * time.Millisecond):
	}
	claim.Finish([]byte(`"sent once"`), true)
	if g := <-got; g != `"sent once"  no claim` {
		t.Errorf("b got %s", g)
	}
	// A refusal is released: the other store may run the key itself.
	claim, _, _ = a.Begin(context.Background(), "r", "fp")
	claim.Finish([]byte(`"refused"`), false)
	if c, _, err := b.Begin(context.Background(), "r", "fp"); c == nil || err != nil || c.Orphaned() {
		t.Errorf("after a release: %v %v", c, err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func claimString(c *replystore.Claim) string {
	switch {
	case c == nil:
		return "no claim"
	case c.Orphaned():
		return "orphaned claim"
	}
	return "claim"
}

// A store that waits gives up when its context ends, and says so.
func TestWaitingForAnotherStoreEndsWithItsContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), replystore.FileName)
	a, b := openAt(t, path, replystore.Options{}), openAt(t, path, replystore.Options{})
	claim, _, _ := a.Begin(context.Background(), "k", "fp")
	defer claim.Finish(nil, false)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if c, _, err := b.Begin(ctx, "k", "fp"); c != nil || !errors.Is(err, replystore.ErrPending) {
		t.Errorf("%v %v", c, err)
	}
	if c, _, err := b.Begin(context.Background(), "k", "other"); !errors.Is(err, replystore.ErrConflict) {
		t.Errorf("another request under the same key: %v %v", c, err)
	}
}

// The claim of a store that is gone (closed here; a killed process's lock
// goes the same way) is orphaned: the next claim of its key says so, and
// the key is never free to run again.
func TestTheClaimOfAStoreThatIsGoneIsOrphaned(t *testing.T) {
	path := filepath.Join(t.TempDir(), replystore.FileName)
	gone := openAt(t, path, replystore.Options{})
	gone.Begin(context.Background(), "k", "fp")
	gone.Close()
	s := openAt(t, path, replystore.Options{})
	claim, _, err := s.Begin(context.Background(), "k", "fp")
	if claim == nil || err != nil || !claim.Orphaned() {
		t.Fatalf("%s %v", claimString(claim), err)
	}
	claim.Finish(nil, false) // even unsaved, an orphan is not released
	claim, _, _ = s.Begin(context.Background(), "k", "fp")
	if claim == nil || !claim.Orphaned() {
		t.Fatalf("after finishing the orphan: %s", claimString(claim))
	}
	claim.Finish(nil, false)
	if _, _, err := s.Do("k", "fp", func() ([]byte, bool) { t.Error("ran again"); return nil, false }); !errors.Is(err, replystore.ErrOrphaned) {
		t.Errorf("Do: %v", err)
	}
}

// The file is rewritten only by a store alone with it: one that other
// stores still append to must not be replaced under them.
func TestNoCompactionWhileAnotherStoreHasTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), replystore.FileName)
	c := &clock{now: time.Unix(1_800_000_000, 0)}
	other := openAt(t, path, replystore.Options{Now: c.Now})
	s := openAt(t, path, replystore.Options{Now: c.Now})
	var runs int32
	for i := range 2500 {
		s.Do(strconv.Itoa(i), "fp", once(`1`, &runs))
		c.Advance(time.Second)
	}
	before := lineCount(t, path)
	if before < 2*2500 {
		t.Fatalf("%d lines: the file was compacted while another store had it open", before)
	}
	// The other store still reads everything, from the same file.
	if v, replayed, _ := other.Do("2499", "fp", once(`2`, &runs)); !replayed || string(v) != "1" {
		t.Errorf("the other store: %s %v", v, replayed)
	}
	other.Close()
	// Alone, the next store to open compacts it to what is live.
	s.Close()
	openAt(t, path, replystore.Options{Now: c.Now})
	if after := lineCount(t, path); after > 2*600 {
		t.Errorf("%d lines after compaction, from %d", after, before)
	}
}

func lineCount(t *testing.T, path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("\n"))
}

// A line that is not a record, or is longer than a record can be (17 MiB
// here, past the 16 MiB that once stopped the store from opening), is
// skipped and named; the records around it load.
func TestBadLinesAreSkippedAndNamed(t *testing.T) {
	path, c, s, runs := storeWithOneReply(t, "before")
	s.Close()
	appendTo(t, path, "not json\n"+`{"key":"huge","value":"`+strings.Repeat("x", 17<<20)+"\"}\n")

	var log bytes.Buffer
	s = openAt(t, path, replystore.Options{Now: c.Now, Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}}))})
	s.Do("after", "fp", once(`"a"`, &runs))
	s.Close()
	s = openAt(t, path, replystore.Options{Now: c.Now})
	for _, key := range []string{"before", "after"} {
		if v, replayed, err := s.Do(key, "fp", once(`"again"`, &runs)); !replayed || err != nil {
			t.Errorf("%s: %s %v %v", key, v, replayed, err)
		}
	}
	want := "level=WARN msg=\"skipped a line of the reply store that is not a record\" file=" + path + " line=3\n" +
		"level=WARN msg=\"skipped a line of the reply store: it is longer than a record can be\" file=" + path + " line=4 bytes=17825817 limit=1048576\n"
	if log.String() != want {
		t.Errorf("log:\n%s\nwant:\n%s", log.String(), want)
	}
}

// The store keeps at most MaxEntries replies and claims from the window,
// and says so when it is full; it refuses to open a file that holds more.
func TestTheStoreIsBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), replystore.FileName)
	c := &clock{now: time.Unix(1_800_000_000, 0)}
	s := openAt(t, path, replystore.Options{Now: c.Now, MaxEntries: 3})
	var runs int32
	for _, k := range []string{"a", "b", "c"} {
		if _, _, err := s.Do(k, "fp", once(`1`, &runs)); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.Do("d", "fp", once(`1`, &runs)); !errors.Is(err, replystore.ErrFull) || err.Error() != "the reply store is full: it holds 3 replies from the last 10m0s" {
		t.Errorf("a fourth: %v", err)
	}
	s.Close()
	_, err := replystore.Open(replystore.Options{Path: path, Now: c.Now, MaxEntries: 2})
	if want := path + " holds 3 replies from the last 10m0s, more than the 2 a store keeps; remove it, or let them expire"; err == nil || err.Error() != want {
		t.Errorf("Open:\n got %v\nwant %s", err, want)
	}
	s = openAt(t, path, replystore.Options{Now: c.Now, MaxEntries: 3})
	c.Advance(11 * time.Minute)
	if _, _, err := s.Do("d", "fp", once(`1`, &runs)); err != nil {
		t.Errorf("once the others expired: %v", err)
	}
}

// A reply too large for a record is replayed by its store; to others its
// key is one whose outcome is unknown.
func TestAReplyTooLargeToRecord(t *testing.T) {
	path := filepath.Join(t.TempDir(), replystore.FileName)
	s, other := openAt(t, path, replystore.Options{}), openAt(t, path, replystore.Options{})
	big := []byte(`"` + strings.Repeat("x", replystore.MaxRecordBytes) + `"`)
	var runs int32
	if _, _, err := s.Do("big", "fp", once(string(big), &runs)); err == nil || !strings.Contains(err.Error(), "only this process can replay it") {
		t.Errorf("Do: %v", err)
	}
	if v, replayed, _ := s.Do("big", "fp", once(`"x"`, &runs)); !replayed || len(v) != len(big) {
		t.Errorf("its store: %d bytes, replayed %v", len(v), replayed)
	}
	if claim, _, _ := other.Begin(context.Background(), "big", "fp"); claim == nil || !claim.Orphaned() {
		t.Errorf("another store: %s", claimString(claim))
	}
}

// FuzzStoreFile opens a store on a file of any content: it never panics,
// and it still claims and releases a key. (Releases, because a kept reply
// is synced, which would make each input cost a disk's sync.)
func FuzzStoreFile(f *testing.F) {
	for _, seed := range []string{
		`{"key":"k","fingerprint":"fp","at":1800000000000,"value":"v"}` + "\n",
		`{"key":"k","fingerprint":"fp","at":1800000000000,"owner":"pid1-00"}` + "\n",
		`{"key":"k","owner":"pid1-00","released":true}` + "\n" + `{"key":"k","unrecorded":true,"at":1800000000000}`,
		"not json\n{\"key\":\"\"}\n", `{"key":"k","owner":"../x","at":1800000000000}` + "\n",
	} {
		f.Add([]byte(seed))
	}
	path := filepath.Join(f.TempDir(), replystore.FileName) // one per worker process
	f.Fuzz(func(t *testing.T, data []byte) {
		os.WriteFile(path, data, 0o600)
		c := &clock{now: time.Unix(1_800_000_000, 0)}
		s, err := replystore.Open(replystore.Options{Path: path, Now: c.Now})
		if err != nil {
			return // a file of more than the entries a store keeps
		}
		defer s.Close()
		for range 2 {
			claim, stored, err := s.Begin(context.Background(), "fuzz-key", "fp")
			if claim == nil || claim.Orphaned() || err != nil {
				t.Fatalf("%s %s %v", claimString(claim), stored, err)
			}
			claim.Finish([]byte(`"refused"`), false)
		}
	})
}
