package engine

import (
	"os"
	"syscall"
)

// fileStamp is what the file-hash cache knows a file by beside its size
// and modification time: its device, inode and change time (which a
// rewrite in place moves even when the modification time is set back).
func fileStamp(fi os.FileInfo) (stamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return stamp{}, false
	}
	return stamp{Dev: uint64(st.Dev), Ino: st.Ino, Ctime: st.Ctimespec.Sec*1e9 + st.Ctimespec.Nsec}, true
}
