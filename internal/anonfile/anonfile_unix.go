//go:build unix

package anonfile

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// tempAnonymous is a temporary file, private to this user, unlinked at
// once: nothing else can open it, and it is gone once every process
// holding it has closed it.
func tempAnonymous(name string) (*os.File, error) {
	f, err := os.CreateTemp("", "decodebench-"+name+"-*")
	if err != nil {
		return nil, fmt.Errorf("anonymous file: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		f.Close()
		return nil, fmt.Errorf("anonymous file: %w", err)
	}
	if err := setAppend(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// setAppend makes every write to f, by any process, append.
func setAppend(f *os.File) error {
	flags, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	if err == nil {
		_, err = unix.FcntlInt(f.Fd(), unix.F_SETFL, flags|unix.O_APPEND)
	}
	if err != nil {
		return fmt.Errorf("anonymous file: %w", err)
	}
	return nil
}
