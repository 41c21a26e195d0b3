package engine

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// spoolHeld is the memory (or disk) a spool holds: its allocated blocks.
func spoolHeld(t *testing.T, f *os.File) int64 {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return -1
	}
	return st.Blocks * 512
}
