//go:build unix

package engine

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// tempSpool is a temporary file, private to this user, unlinked at once:
// nothing else can open it, and it is gone once the engine and decodebench
// have closed it.
func tempSpool() (*os.File, error) {
	f, err := os.CreateTemp("", "decodebench-engine-*.out")
	if err != nil {
		return nil, fmt.Errorf("engine output spool: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("engine output spool: %w", err)
	}
	if err := setAppend(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// setAppend makes every write to f, by any process, append: the engine's
// standard output and error, and any worker it starts, share it.
func setAppend(f *os.File) error {
	flags, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err == nil {
		_, err = unix.FcntlInt(f.Fd(), unix.F_SETFL, flags|unix.O_APPEND)
	}
	if err != nil {
		return fmt.Errorf("engine output spool: %w", err)
	}
	return nil
}
