package anonfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// New is an anonymous file, here an anonymous memory file; where memfd is
// refused, a temporary file unlinked at once. name names it in
// /proc/PID/fd and in errors.
func New(name string) (*os.File, error) {
	fd, err := unix.MemfdCreate("decodebench-"+name, unix.MFD_CLOEXEC)
	if err != nil {
		return tempAnonymous(name)
	}
	f := os.NewFile(uintptr(fd), name)
	if err := setAppend(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
