//go:build linux

package engine

import (
	"os"

	"golang.org/x/sys/unix"
)

// punchHole frees the first n bytes of f's storage, keeping its size.
func punchHole(f *os.File, n int64) error {
	return unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, 0, n)
}
