// Lock, LockShared, TryLock, TryLockShared and Unlock hold advisory locks
// on whole files between processes
// (flock(2) on Linux, macOS and Android). A lock belongs to the open file:
// two opens of one file conflict even in one process, and the kernel
// releases a lock when its holder's file is closed or its process ends,
// kill -9 included. That last property is what lets a process tell that
// another one is gone: its lock is free.

package osfile

import (
	"errors"
	"os"
)

// ErrLockUnsupported reports a system without flock: there, processes sharing
// a data directory are not coordinated.
var ErrLockUnsupported = errors.New("file locks are not supported on this system")

// Lock waits for an exclusive lock on f.
func Lock(f *os.File) error { return lock(f, true, true) }

// LockShared waits for a shared lock on f.
func LockShared(f *os.File) error { return lock(f, false, true) }

// TryLock takes an exclusive lock on f if no one holds a lock on it, and
// reports whether it did.
func TryLock(f *os.File) (bool, error) { return try(f, true) }

// TryLockShared takes a shared lock on f if no one holds an exclusive one,
// and reports whether it did.
func TryLockShared(f *os.File) (bool, error) { return try(f, false) }

// Unlock releases f's lock.
func Unlock(f *os.File) error { return unlock(f) }
