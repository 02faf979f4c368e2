package replystore

import "os"

// SetSyncFile replaces how the store syncs its file until the test ends.
func SetSyncFile(t interface{ Cleanup(func()) }, fn func(*os.File) error) {
	old := syncFile
	syncFile = fn
	t.Cleanup(func() { syncFile = old })
}
