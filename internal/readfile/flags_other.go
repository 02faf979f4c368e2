//go:build !unix

package readfile

// openFlags: systems without FIFOs in the file system need none.
const openFlags = 0
