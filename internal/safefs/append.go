package safefs

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// OpenAppend opens the file p (creating it with perm when missing) for
// appending, for a file someone else hands over by path and reads after
// (a CI job summary): the file itself cannot be replaced, so it is opened
// in place, but never through a link as its last component, never
// blocking on a FIFO (O_NONBLOCK: one without a reader fails at once, one
// with a reader is refused as not regular), and only when it is a
// regular file.
func OpenAppend(p string, perm fs.FileMode) (*os.File, error) {
	fd, err := openRetry(unix.AT_FDCWD, p, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, openError(p, err)
	}
	return adopt(fd, p, -1)
}
