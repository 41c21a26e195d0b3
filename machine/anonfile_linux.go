package machine

import (
	"os"

	"golang.org/x/sys/unix"
)

// AnonymousFile is a file without a name that anyone could open, appended
// to by every writer (a child's standard output and error, and any process
// it starts, can share it), gone once the last process holding it closes
// it: here an anonymous memory file.
func AnonymousFile(name string) (*os.File, error) {
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
