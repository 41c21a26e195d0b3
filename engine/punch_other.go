//go:build !linux

package engine

import (
	"errors"
	"os"
)

// punchHole is Linux's; elsewhere the spool is an unlinked file on disk.
func punchHole(*os.File, int64) error { return errors.ErrUnsupported }
