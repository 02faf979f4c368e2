package replystore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mobilemcp/mobilemcp/internal/osfile"
	"github.com/mobilemcp/mobilemcp/internal/rawjson"
)

// The file is shared by every store that opens it, in any process:
//
//   - Each record is one line, appended with one write(2) under the
//     file's exclusive lock (internal/rawjson). A torn last line, left by a
//     process that died in the middle of a write, is cut off before the
//     next append.
//   - A store that takes the lock first reads what the others appended
//     since it last looked, so it decides on a key knowing every claim
//     and reply in the file.
//   - A store claims a key with a record before its request runs, and
//     finishes it with the reply (kept) or a release (a refusal, which did
//     nothing). A store that finds a live claim by another waits for its
//     record. One that finds the claim of a store that is gone, which
//     will never be finished, answers it as a run whose outcome is
//     unknown, and never runs it again.
//   - Whether a store is alive is told by a lock: each open store holds
//     an exclusive lock on a file of its own in replies.jsonl.owners/, which
//     the kernel releases when its process ends, however it ends.
//   - The file is rewritten without what expired (compacted) only by a
//     store that finds no other alive, so that no store is left appending
//     to a file that was replaced. A store checks after each lock that
//     the file it holds is still the one at the path, in case.

// record is one line of the file. A record with a value is a reply; one
// with only an owner is a claim; Released drops its owner's claim;
// Unrecorded marks a key whose outcome is unknown for good.
type record struct {
	Key         string          `json:"key"`
	Fingerprint string          `json:"fingerprint,omitempty"`
	At          int64           `json:"at,omitempty"` // Unix milliseconds
	Value       json.RawMessage `json:"value,omitempty"`
	Owner       string          `json:"owner,omitempty"`
	Released    bool            `json:"released,omitempty"`
	Unrecorded  bool            `json:"unrecorded,omitempty"`
}

// ownersSuffix names the directory, next to the file, of the lock files of
// the stores that have it open: replies.jsonl.owners.
const ownersSuffix = ".owners"

// shared is a store's view of the file.
type shared struct {
	path     string
	f        *rawjson.LinesFile
	offset   int64 // read up to here: the end of the last whole line
	lines    int   // records in the file, live or not
	appended int   // records appended since the last compaction check

	ownerID string
	owner   *os.File // locked while the store is open
}

// openFile registers the store as an owner, loads the file and compacts it
// when no other store has it open.
func (s *Store) openFile() (err error) {
	if err := os.MkdirAll(filepath.Dir(s.opts.Path), 0o700); err != nil {
		return err
	}
	sf := &shared{path: s.opts.Path}
	if err := sf.register(); err != nil {
		return fmt.Errorf("registering with the reply store: %w", err)
	}
	defer func() {
		if err != nil {
			sf.close()
		}
	}()
	if sf.f, err = rawjson.OpenLines(sf.path); err != nil {
		return err
	}
	s.file = sf
	if err := sf.lock(s); err != nil {
		return err
	}
	defer sf.unlock()
	s.prune()
	if n := len(s.entries) + len(s.claims); n > s.opts.MaxEntries {
		return fmt.Errorf("%s holds %d replies from the last %s, more than the %d a store keeps; remove it, or let them expire", sf.path, n, s.opts.Window, s.opts.MaxEntries)
	}
	if sf.lines > len(s.entries)+len(s.claims) {
		return sf.compact(s)
	}
	return nil
}

// register creates and locks the store's owner file. It is made under a
// temporary name and renamed once locked, so that no store ever finds it
// unlocked and takes its owner for gone.
func (sf *shared) register() error {
	dir := sf.path + ownersSuffix
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	// The name only has to differ from every other owner's: math/rand's generator (seeded by the
	// runtime) does, where crypto/rand would bring its FIPS generator into every engine.
	sf.ownerID = fmt.Sprintf("pid%d-%016x", os.Getpid(), rand.Uint64())
	f, err := os.CreateTemp(dir, ".new-*")
	if err != nil {
		return err
	}
	if ok, err := osfile.TryLock(f); !ok {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("locking %s: %v", f.Name(), err)
	}
	if err := os.Rename(f.Name(), filepath.Join(dir, sf.ownerID)); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	sf.owner = f
	return nil
}

// alive reports whether the store owner still has the file open. An owner
// that is this store is not: the caller has found none of its runs in
// flight, so the claim is one it could not finish.
func (sf *shared) alive(owner string) bool {
	if sf == nil || owner == "" || owner == sf.ownerID || strings.ContainsAny(owner, `/\`) {
		return false
	}
	f, err := os.Open(filepath.Join(sf.path+ownersSuffix, owner))
	if err != nil {
		return false // it closed, or was found gone
	}
	defer f.Close()
	free, err := osfile.TryLockShared(f)
	if err != nil {
		return true // cannot tell: wait rather than risk a second run
	}
	if free {
		osfile.Unlock(f)
	}
	return !free
}

// othersAlive reports whether a store other than this one has the file
// open, and removes the owner files of those that are gone.
func (sf *shared) othersAlive() bool {
	dir := sf.path + ownersSuffix
	entries, err := readDir(dir)
	if err != nil {
		return true
	}
	for _, e := range entries {
		name := e.Name()
		if name == sf.ownerID {
			continue
		}
		path := filepath.Join(dir, name)
		if strings.HasPrefix(name, ".new-") {
			// A store registering, which has not opened the file yet
			// (and finds it replaced if it does meanwhile); or the
			// leftover of one that died doing so, swept once it is old.
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Minute {
				removeIfFree(path)
			}
			continue
		}
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return true
		}
		free, err := osfile.TryLock(f)
		f.Close()
		if err != nil || !free {
			return true
		}
		removeIfFree(path)
	}
	return false
}

// removeIfFree removes the lock file at path when no one holds its lock.
func removeIfFree(path string) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	if free, _ := osfile.TryLock(f); free {
		os.Remove(path)
	}
}

// lock takes the file's exclusive lock and reads what other stores
// appended since the last look. If the file at the path was replaced, it
// reopens it and reads it from the start.
func (sf *shared) lock(s *Store) error {
	for {
		if err := sf.f.Lock(); err != nil {
			return fmt.Errorf("locking %s: %w", sf.path, err)
		}
		held, err := sf.f.Stat()
		if err != nil {
			sf.f.Unlock()
			return err
		}
		current, err := os.Stat(sf.path)
		if err == nil && os.SameFile(held, current) {
			return sf.read(s, held.Size())
		}
		// Replaced (or removed): start again on what is there now.
		sf.f.Unlock()
		sf.f.Close()
		if sf.f, err = rawjson.OpenLines(sf.path); err != nil {
			return err
		}
		sf.offset, sf.lines = 0, 0
		clear(s.entries)
		clear(s.claims)
	}
}

func (sf *shared) unlock() { sf.f.Unlock() }

// read applies the records from the last offset to size.
func (sf *shared) read(s *Store, size int64) error {
	if size < sf.offset { // cut back below what was read: read it all again
		sf.offset, sf.lines = 0, 0
		clear(s.entries)
		clear(s.claims)
	}
	first := sf.lines
	next, err := rawjson.ReadLines(sf.f, sf.offset, size, MaxRecordBytes, func(l rawjson.Line) {
		sf.lines++
		var r record
		switch {
		case l.Text == nil:
			s.opts.Logger.Warn("skipped a line of the reply store: it is longer than a record can be",
				"file", sf.path, "line", first+l.Number, "bytes", l.Size, "limit", MaxRecordBytes)
		case json.Unmarshal(l.Text, &r) != nil || r.Key == "":
			s.opts.Logger.Warn("skipped a line of the reply store that is not a record", "file", sf.path, "line", first+l.Number)
		default:
			s.apply(r)
		}
	})
	sf.offset = next
	return err
}

// apply records r in memory.
func (s *Store) apply(r record) {
	switch {
	case r.Value != nil:
		if s.fresh(r.At) {
			s.entries[r.Key] = entry{fingerprint: r.Fingerprint, at: r.At, value: r.Value}
		}
		delete(s.claims, r.Key)
	case r.Released:
		if c, ok := s.claims[r.Key]; ok && c.owner == r.Owner {
			delete(s.claims, r.Key)
		}
	case r.Unrecorded:
		s.claims[r.Key] = claim{fingerprint: r.Fingerprint, at: r.At} // owned by no one
	case s.fresh(r.At):
		s.claims[r.Key] = claim{owner: r.Owner, fingerprint: r.Fingerprint, at: r.At}
	}
}

// errRecordTooLarge is append's refusal of a record over MaxRecordBytes.
var errRecordTooLarge = errors.New("record too large")

// append writes r and records it in memory. The caller holds the lock, so
// the file's end is where the last read stopped.
func (sf *shared) append(s *Store, r record) error {
	line, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if len(line) > MaxRecordBytes {
		return fmt.Errorf("%w: %d bytes, over the %d a record may take", errRecordTooLarge, len(line), MaxRecordBytes)
	}
	end, err := sf.f.Append(line)
	if err != nil {
		return err
	}
	sf.offset = end
	sf.lines++
	s.apply(r)
	// Every thousand records, drop what expired, and rewrite the file
	// when most of it is dead and no other store has it open.
	if sf.appended++; sf.appended >= 1000 {
		sf.appended = 0
		s.prune()
		if sf.lines > 2*(len(s.entries)+len(s.claims)) {
			return sf.compact(s)
		}
	}
	return nil
}

func (sf *shared) sync() error { return syncFile(sf.f.File) }

// syncFile makes what was written to f durable. It is a variable so that a
// test can see when a reply is synced.
var syncFile = (*os.File).Sync

// compact rewrites the file with the live replies and claims only, when no
// other store has it open; otherwise it leaves it to grow until a later
// check finds this store alone. The caller holds the lock, and holds the
// new file's lock when it returns.
func (sf *shared) compact(s *Store) error {
	if sf.othersAlive() {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(sf.path), ".replies-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is there
	var buf []byte
	n := 0
	add := func(r record) {
		line, _ := json.Marshal(r)
		buf = append(append(buf, line...), '\n')
		n++
	}
	for k, e := range s.entries {
		if e.unrecorded {
			add(record{Key: k, Fingerprint: e.fingerprint, At: e.at, Unrecorded: true})
		} else {
			add(record{Key: k, Fingerprint: e.fingerprint, At: e.at, Value: e.value})
		}
	}
	for k, c := range s.claims {
		if c.owner == "" {
			add(record{Key: k, Fingerprint: c.fingerprint, At: c.at, Unrecorded: true})
		} else {
			add(record{Key: k, Fingerprint: c.fingerprint, At: c.at, Owner: c.owner})
		}
	}
	_, err = tmp.Write(buf)
	err = errors.Join(err, tmp.Chmod(0o600), tmp.Sync(), tmp.Close())
	if err == nil {
		err = os.Rename(tmp.Name(), sf.path)
	}
	if err != nil {
		return fmt.Errorf("compacting %s: %w", sf.path, err)
	}
	replacement, err := rawjson.OpenLines(sf.path)
	if err != nil {
		return err
	}
	// A store that opened the file since the check may have locked the
	// new one first, and appended: read on from the compacted records.
	if err := replacement.Lock(); err != nil {
		replacement.Close()
		return err
	}
	old := sf.f
	sf.f, sf.offset, sf.lines = replacement, int64(len(buf)), n
	old.Unlock()
	old.Close()
	info, err := sf.f.Stat()
	if err != nil {
		return err
	}
	return sf.read(s, info.Size())
}

// close releases the file and the owner lock.
func (sf *shared) close() error {
	var err error
	if sf.f != nil {
		err = sf.f.Close()
	}
	if sf.owner != nil {
		os.Remove(filepath.Join(sf.path+ownersSuffix, sf.ownerID))
		sf.owner.Close()
	}
	return err
}

// readDir returns the entries of dir in no order: os.ReadDir sorts them,
// which takes a sort of its own into the engine every tool app ships, and
// the order does not matter here.
func readDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
