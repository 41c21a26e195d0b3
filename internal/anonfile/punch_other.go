//go:build !linux

package anonfile

import (
	"errors"
	"os"
)

// PunchHole is Linux's; elsewhere an anonymous file is an unlinked file on disk.
func PunchHole(*os.File, int64) error { return errors.ErrUnsupported }
