// Package osfile holds what the module does with files on the host beyond
// the os package: advisory locks that processes sharing a data directory
// hold (Lock, LockShared, TryLock, TryLockShared, Unlock), and reads of the
// files and streams a user names, always within a limit (ReadFile, ReadAll,
// OpenRegular).
//
//	data, err := osfile.ReadFile(path, 64<<20)
//	if osfile.IsTooLarge(err) {
//		// say so, naming the limit
//	}
package osfile
