package safefs

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// OpenFile opens the file p with flag (O_WRONLY, O_APPEND, O_TRUNC,
// O_CREATE…) for a file that must be written in place by path (an engine
// log the engine's own process writes into, a journal repaired in place):
// never through a link as its last component, never blocking on a FIFO
// (O_NONBLOCK: one without a reader fails at once, one with a reader is
// refused), and only a regular file. Prefer Dir.WriteFile, which replaces
// rather than writes in place, wherever the file can be replaced.
func OpenFile(p string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := openRetry(unix.AT_FDCWD, p, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return nil, openError(p, err)
	}
	return adopt(fd, p, -1)
}

// OpenAppend opens the file p (creating it with perm when missing) for
// appending, as OpenFile does: for a file someone else hands over by path
// and reads after (a CI job summary), which cannot be replaced.
func OpenAppend(p string, perm fs.FileMode) (*os.File, error) {
	return OpenFile(p, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT, perm)
}
