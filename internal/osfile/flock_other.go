//go:build !unix

package osfile

import "os"

func lock(*os.File, bool, bool) error  { return ErrLockUnsupported }
func try(*os.File, bool) (bool, error) { return false, ErrLockUnsupported }
func unlock(*os.File) error            { return ErrLockUnsupported }
