// Package replystore remembers the replies to requests by key for a time
// window, so that a retried request gets the original reply instead of
// running again: a retried send_sms must never send a second message. The
// engine uses it through capability.Options:
//
//	store, err := replystore.Open(replystore.Options{Path: filepath.Join(dataDir, replystore.FileName)})
//	// ...
//	engine := capability.NewEngine(reg, capability.Options{Replies: store})
//
// The store survives a process restart, and any number of processes may
// share it. Android kills tool processes freely and agents retry after a
// timeout; on a host, 'mobilemcp call' runs while 'mobilemcp serve' uses
// the same data directory. So the replies live in a JSON Lines file in the
// data directory, which every process appends to and reads (see file.go):
// a key is claimed in the file before its request runs, so a second
// process with the same key waits for the first one's reply instead of
// running it again, and a reply is recorded, and synced to the disk,
// before it is returned.
package replystore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// DefaultWindow is how long a reply is replayed for a repeated key.
const DefaultWindow = 10 * time.Minute

// DefaultMaxEntries bounds the replies and claims a store keeps, which
// take memory in every process that has it open. An app is allowed 10
// sends a minute, so the window holds about 100 of them; the bound is for
// a flood that rate limits do not stop, such as 'mobilemcp call' in a loop.
const DefaultMaxEntries = 100_000

// MaxRecordBytes bounds one record of the file, and so a reply the store
// can keep: a send_sms reply is under 1 KB, and a reply that crosses
// Binder is at most 128 KiB. A longer line in the file is skipped.
const MaxRecordBytes = 1 << 20

// FileName is the store's file name inside a data directory.
const FileName = "replies.jsonl"

var (
	// ErrConflict reports a key that was used before for a different request.
	ErrConflict = errors.New("this request id was already used for a different request")
	// ErrFull reports a store that holds MaxEntries replies from the last
	// window: nothing new may run until some expire.
	ErrFull = errors.New("the reply store is full")
	// ErrPending reports a key that another process is running: Begin
	// waited for its reply until its context ended.
	ErrPending = errors.New("another process is running a request with this id")
)

// Options configure a Store.
type Options struct {
	// Path is the JSON Lines file. Empty keeps replies in memory only.
	Path string
	// Window is how long a reply is replayed. Zero means DefaultWindow.
	Window time.Duration
	// MaxEntries caps the replies and claims kept from the last window.
	// Zero means DefaultMaxEntries.
	MaxEntries int
	// Now returns the current time. Nil means time.Now.
	Now func() time.Time
	// Logger hears of lines of the file that are skipped, when the store
	// opens and when it reads what other processes appended. Nil means
	// no logging.
	Logger Logger
}

// Logger is where a Store reports what no caller hears of. *slog.Logger is
// one; the engine every tool app ships has its own, which carries no slog.
type Logger interface {
	Warn(msg string, args ...any)
	Error(msg string, args ...any)
}

// discard is the Logger of a Store given none.
type discard struct{}

func (discard) Warn(string, ...any)  {}
func (discard) Error(string, ...any) {}

// Store is safe for concurrent use, and any number of stores, in this
// process and others, may share one file.
type Store struct {
	opts Options

	mu       sync.Mutex
	entries  map[string]entry   // replies within the window
	claims   map[string]claim   // keys being run, by any store sharing the file
	inflight map[string]*flight // this store's claims
	file     *shared            // nil in memory
}

// entry is a reply kept for replay.
type entry struct {
	fingerprint string
	at          int64 // Unix milliseconds
	value       []byte
	unrecorded  bool // too large for the file: only this store replays it
}

// claim is a key some store started to run. An owner that is gone, or
// none, means the outcome will never be recorded.
type claim struct {
	owner       string
	fingerprint string
	at          int64
}

type flight struct {
	done        chan struct{}
	fingerprint string
	value       []byte
}

// Open loads the replies still inside the window from opts.Path, and
// compacts the file when no other store has it open.
func Open(opts Options) (*Store, error) {
	if opts.Window <= 0 {
		opts.Window = DefaultWindow
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = discard{}
	}
	s := &Store{opts: opts, entries: map[string]entry{}, claims: map[string]claim{}, inflight: map[string]*flight{}}
	if opts.Path == "" {
		return s, nil
	}
	if err := s.openFile(); err != nil {
		return nil, err
	}
	return s, nil
}

// Window is how long replies are replayed.
func (s *Store) Window() time.Duration { return s.opts.Window }

// Close releases the file. Keys this store claimed and has not finished
// are then answered elsewhere as ones whose outcome is unknown.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		return nil
	}
	err := s.file.close()
	s.file = nil
	return err
}

// Do returns the value saved for key within the window, with replayed=true.
// Otherwise it runs fn, saves its value when fn says so, and returns it.
// Concurrent calls with the same key run fn once: the others wait and get its
// value. A key seen with a different fingerprint (another request under the
// same id) returns ErrConflict and runs nothing; so does a key whose earlier
// run ended with its process (see Claim.Orphaned), with ErrOrphaned.
func (s *Store) Do(key, fingerprint string, fn func() (value []byte, save bool)) (value []byte, replayed bool, err error) {
	claim, stored, err := s.Begin(context.Background(), key, fingerprint)
	switch {
	case claim == nil:
		return stored, err == nil, err
	case claim.Orphaned():
		claim.Finish(nil, false)
		return nil, false, ErrOrphaned
	}
	value, save := fn()
	_, err = claim.Finish(value, save)
	return value, false, err
}

// ErrOrphaned is Do's error for a key whose earlier run ended with its
// process before it recorded its outcome.
var ErrOrphaned = errors.New("an earlier run with this request id ended before its outcome was recorded")

// Claim is the right to answer one key. Begin hands it to the first of the
// concurrent calls with that key; its Finish answers them all.
type Claim struct {
	s        *Store
	key      string
	f        *flight
	orphaned bool
	once     sync.Once
	result   error
}

// Orphaned reports that the key was claimed before by a store that is
// gone (its process ended, kill -9 included) without recording the
// outcome, or that recorded an outcome too large to keep. The earlier run
// may have acted, so the caller must not run the request again: it
// finishes the claim with a failure that says so, which is then the reply
// to every retry.
func (c *Claim) Orphaned() bool { return c.orphaned }

// Begin looks key up. A value saved within the window is returned as
// stored, or ErrConflict when it was saved for a different fingerprint.
// When another call with key is in flight, in this process or another,
// Begin waits for its Finish and answers the same way; if ctx ends first,
// it returns ErrPending. When the store holds MaxEntries replies it
// returns ErrFull. Otherwise it returns a Claim, which the caller must
// Finish: until then, other calls with key wait.
func (s *Store) Begin(ctx context.Context, key, fingerprint string) (claim *Claim, stored []byte, err error) {
	pause := time.Millisecond
	for {
		c, stored, retry, err := s.begin(ctx, key, fingerprint)
		if !retry {
			return c, stored, err
		}
		// Another process runs the key: look at the file again soon.
		pause = min(2*pause, 50*time.Millisecond)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return nil, nil, ErrPending
		}
	}
}

// begin is one look at key. retry reports that another process runs it.
func (s *Store) begin(ctx context.Context, key, fingerprint string) (c *Claim, stored []byte, retry bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.inflight[key]; ok {
		// This store runs it: wait for its Finish, which closes done.
		s.mu.Unlock()
		select {
		case <-f.done:
		case <-ctx.Done():
			s.mu.Lock()
			return nil, nil, false, ErrPending
		}
		s.mu.Lock()
		if f.fingerprint != fingerprint {
			return nil, nil, false, ErrConflict
		}
		return nil, f.value, false, nil
	}
	if s.file != nil {
		// Read what other processes appended, and hold the file until the
		// claim is in it.
		if err := s.file.lock(s); err != nil {
			return nil, nil, false, err
		}
		defer s.file.unlock()
	}
	if e, ok := s.entries[key]; ok && s.fresh(e.at) {
		if e.fingerprint != fingerprint {
			return nil, nil, false, ErrConflict
		}
		return nil, e.value, false, nil
	}
	orphaned := false
	if other, ok := s.claims[key]; ok && s.fresh(other.at) {
		switch {
		case other.fingerprint != fingerprint:
			return nil, nil, false, ErrConflict
		case s.file.alive(other.owner):
			return nil, nil, true, nil
		}
		orphaned = true
	}
	c, err = s.claim(key, fingerprint, orphaned)
	return c, nil, false, err
}

// claim records that this store runs key. The caller holds s.mu and, with
// a file, its lock.
func (s *Store) claim(key, fingerprint string, orphaned bool) (*Claim, error) {
	if len(s.entries)+len(s.claims) >= s.opts.MaxEntries {
		s.prune()
		if n := len(s.entries) + len(s.claims); n >= s.opts.MaxEntries {
			return nil, fmt.Errorf("%w: it holds %d replies from the last %s", ErrFull, n, s.opts.Window)
		}
	}
	if s.file != nil {
		err := s.file.append(s, record{Key: key, Fingerprint: fingerprint, At: s.opts.Now().UnixMilli(), Owner: s.file.ownerID})
		if err != nil {
			return nil, err
		}
	}
	f := &flight{done: make(chan struct{}), fingerprint: fingerprint}
	s.inflight[key] = f
	return &Claim{s: s, key: key, f: f, orphaned: orphaned}, nil
}

// Finish answers the claim's key with value, saving it for replay when save
// is true, and wakes the calls waiting in Begin. Only the first Finish of a
// claim counts, so a deadline and a late result may race to answer: first
// reports whether this call was the one. err is the saving's error.
//
// A saved value is in the file, and synced to the disk, when Finish
// returns: a reply reported as success is on record. An unsaved one (a
// refusal, which did nothing) is not kept, and other processes waiting for
// the key run it themselves.
func (c *Claim) Finish(value []byte, save bool) (first bool, err error) {
	c.once.Do(func() {
		first = true
		c.f.value = value
		c.result = c.s.finish(c, value, save)
		close(c.f.done)
	})
	if !first {
		return false, nil
	}
	return true, c.result
}

func (s *Store) finish(c *Claim, value []byte, save bool) (err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer delete(s.inflight, c.key)
	e := entry{fingerprint: c.f.fingerprint, at: s.opts.Now().UnixMilli(), value: value}
	if s.file == nil {
		if save {
			s.entries[c.key] = e
		}
		s.prune() // small: nothing is kept long
		return nil
	}
	if err := s.file.lock(s); err != nil {
		return err
	}
	unrecorded := record{Key: c.key, Fingerprint: e.fingerprint, At: e.at, Unrecorded: true}
	rec := record{Key: c.key, Owner: s.file.ownerID, Released: true}
	switch {
	case save:
		rec = record{Key: c.key, Fingerprint: e.fingerprint, At: e.at, Value: value, Owner: s.file.ownerID}
	case c.orphaned:
		// An earlier run may have acted: its key is never released to
		// run again, whatever this one did.
		rec = unrecorded
	}
	appendErr := s.file.append(s, rec)
	if errors.Is(appendErr, errRecordTooLarge) {
		// Replayed here only; elsewhere it is a run whose outcome is
		// unknown, which is what it is to them.
		e.unrecorded = true
		err = fmt.Errorf("%w: only this process can replay it", appendErr)
		appendErr = s.file.append(s, unrecorded)
	}
	if save && appendErr == nil {
		s.entries[c.key] = e
	}
	s.file.unlock()
	if appendErr != nil {
		return appendErr
	}
	if save {
		// The record must outlast a power loss once the reply is out.
		if err := s.file.sync(); err != nil {
			return fmt.Errorf("syncing %s: %w", s.opts.Path, err)
		}
	}
	return err
}

func (s *Store) fresh(at int64) bool {
	return s.opts.Now().Sub(time.UnixMilli(at)) < s.opts.Window
}

// prune drops expired replies and claims from memory.
func (s *Store) prune() {
	for k, e := range s.entries {
		if !s.fresh(e.at) {
			delete(s.entries, k)
		}
	}
	for k, c := range s.claims {
		if !s.fresh(c.at) {
			delete(s.claims, k)
		}
	}
}
