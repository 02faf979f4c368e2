//go:build unix

package osfile

import "syscall"

// openFlags makes opening a FIFO return at once instead of waiting for a
// writer; Open then refuses it. A regular file is read as usual.
const openFlags = syscall.O_NONBLOCK
