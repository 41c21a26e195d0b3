package safefs

import (
	"os"

	"golang.org/x/sys/unix"
)

// ID names a file without reading it: its device and inode, and for a
// file its size and its modification and change times in nanoseconds.
// Two opens with the same ID opened one file, unchanged between them
// (writing a file moves its change time, which no user can set back), so
// a reader may keep what it found in a file by its ID: a file reached
// again through another name, a hard link or a linked folder is the same
// ID.
type ID struct {
	Dev, Ino           uint64
	Size, Mtime, Ctime int64
}

// IdentityOf is the ID of an open file.
func IdentityOf(f *os.File) (ID, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return ID{}, &os.PathError{Op: "stat", Path: f.Name(), Err: err}
	}
	return ID{Dev: uint64(st.Dev), Ino: st.Ino, Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}, nil
}

// Identity is the ID of the folder held (its device and inode).
func (d *Dir) Identity() ID { return ID{Dev: d.dev, Ino: d.ino} }
