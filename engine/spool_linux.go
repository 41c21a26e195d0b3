package engine

import (
	"os"

	"golang.org/x/sys/unix"
)

// spoolFile is an anonymous memory file, appended to by every writer.
func spoolFile() (*os.File, error) {
	fd, err := unix.MemfdCreate("decodebench-engine-output", unix.MFD_CLOEXEC)
	if err != nil {
		return tempSpool()
	}
	f := os.NewFile(uintptr(fd), "engine output")
	if err := setAppend(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
