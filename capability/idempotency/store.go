// Package idempotency remembers the replies to requests by key for a time
// window, so that a retried request gets the original reply instead of
// running again: a retried send_sms must never send a second message.
//
// The store survives a process restart. Android kills tool processes freely
// and agents retry after a timeout, so the replies live in a JSON Lines file
// in the app's data directory (on a host, the data directory). Each record is
// written with one write(2) before its reply is returned, so it survives the
// process being killed; only a power loss can lose the last records.
package idempotency

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DefaultWindow is how long a reply is replayed for a repeated key.
const DefaultWindow = 10 * time.Minute

// FileName is the store's file name inside a data directory.
const FileName = "replies.jsonl"

// ErrConflict reports a key that was used before for a different request.
var ErrConflict = errors.New("this request id was already used for a different request")

// Options configure a Store.
type Options struct {
	// Path is the JSON Lines file. Empty keeps replies in memory only.
	Path string
	// Window is how long a reply is replayed. Zero means DefaultWindow.
	Window time.Duration
	// Now returns the current time. Nil means time.Now.
	Now func() time.Time
}

// Store is safe for concurrent use.
type Store struct {
	opts Options

	mu       sync.Mutex
	entries  map[string]entry
	inflight map[string]*flight
	file     *os.File
	lines    int // records in the file, live or expired
	appended int // records appended since the last pruning
}

type entry struct {
	Key         string          `json:"key"`
	Fingerprint string          `json:"fingerprint"`
	At          int64           `json:"at"` // Unix milliseconds
	Value       json.RawMessage `json:"value"`
}

type flight struct {
	done        chan struct{}
	fingerprint string
	value       []byte
}

// Open loads the replies still inside the window from opts.Path and
// compacts the file.
func Open(opts Options) (*Store, error) {
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	s := &Store{opts: opts, entries: map[string]entry{}, inflight: map[string]*flight{}}
	if opts.Path == "" {
		return s, nil
	}
	if err := s.load(); err != nil {
		return nil, err
	}
	if err := s.compact(); err != nil {
		return nil, err
	}
	return s, nil
}

// Window is how long replies are replayed.
func (s *Store) Window() time.Duration { return s.opts.Window }

// Close closes the file.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	s.file = nil
	return err
}

// Do returns the value saved for key within the window, with replayed=true.
// Otherwise it runs fn, saves its value when fn says so, and returns it.
// Concurrent calls with the same key run fn once: the others wait and get its
// value. A key seen with a different fingerprint (another request under the
// same id) returns ErrConflict and runs nothing.
func (s *Store) Do(key, fingerprint string, fn func() (value []byte, save bool)) (value []byte, replayed bool, err error) {
	claim, stored, err := s.Begin(key, fingerprint)
	if claim == nil {
		return stored, err == nil, err
	}
	value, save := fn()
	_, err = claim.Finish(value, save)
	return value, false, err
}

// Claim is the right to answer one key. Begin hands it to the first of the
// concurrent calls with that key; its Finish answers them all.
type Claim struct {
	s      *Store
	key    string
	f      *flight
	once   sync.Once
	result error
}

// Begin looks key up. A value saved within the window is returned as
// stored, or ErrConflict when it was saved for a different fingerprint.
// When another call with key is in flight, Begin waits for its Finish and
// answers the same way. Otherwise it returns a Claim, which the caller
// must Finish: until then, other calls with key wait.
func (s *Store) Begin(key, fingerprint string) (claim *Claim, stored []byte, err error) {
	s.mu.Lock()
	if e, ok := s.entries[key]; ok && s.fresh(e) {
		s.mu.Unlock()
		if e.Fingerprint != fingerprint {
			return nil, nil, ErrConflict
		}
		return nil, e.Value, nil
	}
	if f, ok := s.inflight[key]; ok {
		s.mu.Unlock()
		<-f.done
		if f.fingerprint != fingerprint {
			return nil, nil, ErrConflict
		}
		return nil, f.value, nil
	}
	f := &flight{done: make(chan struct{}), fingerprint: fingerprint}
	s.inflight[key] = f
	s.mu.Unlock()
	return &Claim{s: s, key: key, f: f}, nil, nil
}

// Finish answers the claim's key with value, saving it for replay when save
// is true, and wakes the calls waiting in Begin. Only the first Finish of a
// claim counts, so a deadline and a late result may race to answer: first
// reports whether this call was the one. err is the saving's error.
func (c *Claim) Finish(value []byte, save bool) (first bool, err error) {
	c.once.Do(func() {
		first = true
		c.f.value = value
		if save {
			c.result = c.s.save(entry{Key: c.key, Fingerprint: c.f.fingerprint, At: c.s.opts.Now().UnixMilli(), Value: value})
		}
		c.s.mu.Lock()
		delete(c.s.inflight, c.key)
		c.s.mu.Unlock()
		close(c.f.done)
	})
	if !first {
		return false, nil
	}
	return true, c.result
}

func (s *Store) fresh(e entry) bool {
	return s.opts.Now().Sub(time.UnixMilli(e.At)) < s.opts.Window
}

// save records e in memory and appends it to the file.
func (s *Store) save(e entry) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries[e.Key] = e
	if s.opts.Path == "" {
		s.pruneLocked()
		return nil
	}
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if _, err := s.file.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("recording the reply in %s: %w", s.opts.Path, err)
	}
	s.lines++
	// Every thousand records, drop what expired; rewrite the file when
	// most of it is dead. Both are amortised over the appends.
	if s.appended++; s.appended >= 1000 {
		s.appended = 0
		s.pruneLocked()
		if s.lines > 2*len(s.entries) {
			return s.compactLocked()
		}
	}
	return nil
}

// pruneLocked drops expired entries from memory. It runs when the file is
// compacted, or on every save for an in-memory store, which is small.
func (s *Store) pruneLocked() {
	for k, e := range s.entries {
		if !s.fresh(e) {
			delete(s.entries, k)
		}
	}
}

func (s *Store) load() error {
	f, err := os.Open(s.opts.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	lines.Buffer(make([]byte, 64<<10), 16<<20)
	for lines.Scan() {
		var e entry
		// A torn last line (the process died mid-write) is skipped: its
		// reply was never returned to anyone.
		if json.Unmarshal(lines.Bytes(), &e) != nil || e.Key == "" {
			continue
		}
		if s.fresh(e) {
			s.entries[e.Key] = e
		}
	}
	return lines.Err()
}

func (s *Store) compact() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.compactLocked()
}

// compactLocked rewrites the file with the live entries only, atomically,
// and reopens it for appending.
func (s *Store) compactLocked() error {
	if err := os.MkdirAll(filepath.Dir(s.opts.Path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(s.opts.Path), ".replies-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	for _, e := range s.entries {
		line, _ := json.Marshal(e)
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), s.opts.Path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if s.file != nil {
		s.file.Close()
	}
	s.file, err = os.OpenFile(s.opts.Path, os.O_WRONLY|os.O_APPEND, 0o600)
	s.lines = len(s.entries)
	return err
}
