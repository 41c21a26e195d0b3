//go:build linux

package anonfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// PunchHole frees the first n bytes of f's storage, keeping its size:
// what was read of an anonymous file (New) is memory no longer held.
func PunchHole(f *os.File, n int64) error {
	return unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, 0, n)
}
