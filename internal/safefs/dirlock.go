package safefs

import (
	"errors"

	"golang.org/x/sys/unix"
)

// A campaign holds its data folder locked while it runs (an advisory
// flock on the folder itself, which the kernel drops when the process
// dies), so that a reader of the folder can tell a campaign under way
// (whose record and runs are still changing) from a finished one.

// Lock takes the folder's lock, exclusive, until the folder is let go
// (Close). It reports false when another open of the folder holds it.
func (d *Dir) Lock() (bool, error) {
	err := unix.Flock(d.fd, unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

// Locked reports whether a process holds the folder at p locked (Lock).
func Locked(p string) (bool, error) {
	d, err := OpenDir(p)
	if err != nil {
		return false, err
	}
	defer d.Close()
	err = unix.Flock(d.fd, unix.LOCK_SH|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return true, nil
	}
	return false, err
}
