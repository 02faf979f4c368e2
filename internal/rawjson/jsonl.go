// LinesFile appends to and reads JSON Lines files that several
// processes share, such as the simulated phone's outbox and the reply
// store.
//
// A writer holds the file's exclusive lock (internal/osfile) and writes
// each line with one write(2), so lines never interleave and a reader that
// holds the lock, shared or exclusive, sees only whole lines from writers
// that finished. A line torn by a writer that died in the middle of its
// write, or that failed half way (a full disk), is cut off before the next
// one is appended, so it cannot swallow the next record. Readers skip what
// they cannot use, a line too long or one that is not a record, and say
// where it is, instead of failing whole.

package rawjson

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mobilemcp/mobilemcp/internal/osfile"
)

// LinesFile is a JSON Lines file open for appending and reading.
type LinesFile struct {
	*os.File
}

// OpenLines opens or creates (mode 0600) the file at path.
func OpenLines(path string) (*LinesFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	return &LinesFile{f}, nil
}

// Lock waits for the exclusive lock that writers hold.
func (f *LinesFile) Lock() error { return osfile.Lock(f.File) }

// LockShared waits for a shared lock, which keeps writers out while the
// file is read.
func (f *LinesFile) LockShared() error { return osfile.LockShared(f.File) }

// Unlock releases the lock.
func (f *LinesFile) Unlock() error { return osfile.Unlock(f.File) }

// Append writes line, which must hold no newline, and a newline, with one
// write, after cutting off a torn last line, and returns the size of the
// file after it. The caller holds the exclusive lock. A write that fails
// half way is cut off again.
func (f *LinesFile) Append(line []byte) (size int64, err error) {
	size, err = f.RepairTail()
	if err != nil {
		return 0, err
	}
	buf := make([]byte, 0, len(line)+1)
	buf = append(append(buf, line...), '\n')
	if n, err := f.Write(buf); err != nil {
		if n > 0 {
			f.Truncate(size) // best effort: RepairTail cuts it off next time otherwise
		}
		return 0, fmt.Errorf("appending to %s: %w", f.Name(), err)
	}
	return size + int64(len(buf)), nil
}

// RepairTail cuts off a last line without its newline, which a writer left
// when it died or failed in the middle of its write, and returns the size
// of the file after it. The caller holds the exclusive lock, so no writer
// is in the middle of one now.
func (f *LinesFile) RepairTail() (size int64, err error) {
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size = info.Size()
	last := []byte{'\n'}
	if size > 0 {
		if _, err := f.ReadAt(last, size-1); err != nil {
			return 0, err
		}
	}
	if last[0] == '\n' { // the usual case: whole
		return size, nil
	}
	end, err := lastNewline(f.File, size)
	if err != nil || end == size {
		return size, err
	}
	if err := f.Truncate(end); err != nil {
		return 0, fmt.Errorf("cutting off the torn last line of %s: %w", f.Name(), err)
	}
	return end, nil
}

// lastNewline returns the offset just past the last newline in the first
// size bytes of r, or 0 when there is none.
func lastNewline(r io.ReaderAt, size int64) (int64, error) {
	buf := make([]byte, 4096)
	for end := size; end > 0; {
		start := max(end-int64(len(buf)), 0)
		chunk := buf[:end-start]
		if _, err := r.ReadAt(chunk, start); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if i := bytes.LastIndexByte(chunk, '\n'); i >= 0 {
			return start + int64(i) + 1, nil
		}
		end = start
	}
	return 0, nil
}

// Line is one line of a file, as ReadLines hands it over.
type Line struct {
	// Number counts lines from 1 at the offset the read started from.
	Number int
	// Text is the line without its newline, or nil when it is longer
	// than the read's limit; it is only valid during the call.
	Text []byte
	// Size is the length of the line without its newline.
	Size int
}

// ReadLines calls fn with each whole line from offset from on, up to maxLine
// bytes, and returns the offset just past the last whole line. A last line
// without a newline is not handed over: it is either being written, if
// the caller holds no lock, or torn. The caller compares the offset with
// the file's size to tell.
func ReadLines(r io.ReaderAt, from, size int64, maxLine int, fn func(Line)) (next int64, err error) {
	if from >= size {
		return from, nil // the usual case when a writer looks: nothing new
	}
	in := bufio.NewReaderSize(io.NewSectionReader(r, from, size-from), int(min(size-from, 64<<10)))
	next = from
	var line []byte
	n, length := 0, 0
	for {
		chunk, err := in.ReadSlice('\n')
		length += len(chunk)
		if len(line)+len(chunk) <= maxLine+1 { // +1: the newline
			line = append(line, chunk...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return next, nil
		case err != nil:
			return next, err
		}
		n++
		var text []byte // nil: too long, and not kept
		if length-1 <= maxLine {
			text = line[:len(line)-1]
		}
		fn(Line{Number: n, Text: text, Size: length - 1})
		next += int64(length)
		line, length = line[:0], 0
	}
}
