package safefs

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// PrivateDir makes sure p is a folder only this user can use: it creates
// it with mode 0700 when missing, and refuses a link, a non-folder, a
// folder owned by another user, or one that others may write to (group
// or world write permission), since whoever can write there can plant
// files and links in it. It does not change an existing folder.
func PrivateDir(p string) error {
	if err := os.Mkdir(p, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("private folder %s: %w", p, err)
	}
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		return fmt.Errorf("private folder %s: %w", p, err)
	}
	return ownedPrivately(p, &st, unix.S_IFDIR)
}

// ownedPrivately checks that st (of p) is of type typ, owned by this
// user, and writable by no one else.
func ownedPrivately(p string, st *unix.Stat_t, typ uint32) error {
	if uint32(st.Mode)&unix.S_IFMT != typ {
		return fmt.Errorf("%s is %s: refused (a folder or file decodebench shares between campaigns must be its own)", p, kind(uint32(st.Mode)))
	}
	if uid := os.Geteuid(); int(st.Uid) != uid {
		return fmt.Errorf("%s is owned by uid %d, not by this user (uid %d): refused; another user may have planted it", p, st.Uid, uid)
	}
	if st.Mode&0o022 != 0 {
		return fmt.Errorf("%s is writable by others (mode %04o): refused", p, st.Mode&0o7777)
	}
	return nil
}

// OpenPrivate opens (creating with mode 0600) the file p for reading and
// writing, never through a link, and refuses it unless it is a regular
// file owned by this user and writable by no one else.
func OpenPrivate(p string, flag int) (*os.File, error) {
	fd, err := openRetry(unix.AT_FDCWD, p, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, openError(p, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &os.PathError{Op: "stat", Path: p, Err: err}
	}
	if err := ownedPrivately(p, &st, unix.S_IFREG); err != nil {
		unix.Close(fd)
		return nil, err
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), p), nil
}

// CheckPrivate is OpenPrivate's check on an open file.
func CheckPrivate(f *os.File) error {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return err
	}
	return ownedPrivately(f.Name(), &st, unix.S_IFREG)
}
