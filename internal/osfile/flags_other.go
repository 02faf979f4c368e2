//go:build !unix

package osfile

// openFlags: systems without FIFOs in the file system need none.
const openFlags = 0
