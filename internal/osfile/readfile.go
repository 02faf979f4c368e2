// ReadFile, ReadAll and OpenRegular read files and streams that a user
// names, always within a limit. Opening a FIFO for reading waits for a
// writer that may never come, a device such as /dev/zero never ends, and
// stdin may be a gigabyte: a command that reads what it is given must
// neither hang nor grow without bound.

package osfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// TooLargeError reports input past the limit of the reader.
type TooLargeError struct {
	What  string // "the request on stdin", or the path
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.What, e.Limit)
}

// NotRegularError reports a path that is not a regular file where one is
// expected.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file: it is %s", e.Path, kind(e.Mode))
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a file"
}

// OpenRegular opens path for reading when it is a regular file, and refuses
// anything else with a *NotRegularError, without waiting on a FIFO.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return f, nil
}

// ReadFile reads the regular file at path, failing with a *TooLargeError when
// it holds more than limit bytes and with a *NotRegularError when it is
// not a regular file.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > limit {
		return nil, &TooLargeError{What: path, Limit: limit}
	}
	// The file may grow while it is read: the limit still holds.
	return ReadAll(f, limit, path)
}

// ReadAll reads r to its end, failing with a *TooLargeError, after reading
// limit+1 bytes, when there is more than limit. what names r in the error.
func ReadAll(r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{What: what, Limit: limit}
	}
	return data, nil
}

// IsTooLarge reports whether err is a *TooLargeError.
func IsTooLarge(err error) bool {
	var e *TooLargeError
	return errors.As(err, &e)
}
