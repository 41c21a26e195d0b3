package harness

import (
	"os"
	"syscall"
	"time"
)

// changeTime is a file's status change time (ctime), which a rewrite in
// place changes even when the modification time is set back.
func changeTime(fi os.FileInfo) (time.Time, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Ctim.Sec, st.Ctim.Nsec), true
}
