//go:build !unix

package filelock

import "os"

func lock(*os.File, bool, bool) error  { return ErrUnsupported }
func try(*os.File, bool) (bool, error) { return false, ErrUnsupported }
func unlock(*os.File) error            { return ErrUnsupported }
