package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
)

// memoFormat names the layout of a data folder's file memo.
const memoFormat = "decodebench/check-cache/files/v1"

// fileStat is what identifies a file's content without reading it, as
// git's index does: its size, inode, device, and modification and change
// times in nanoseconds. Writing a file always moves its change time,
// which no user can set back.
type fileStat struct {
	Size  int64  `json:"size"`
	Ino   uint64 `json:"ino"`
	Dev   uint64 `json:"dev"`
	Mtime int64  `json:"mtime"`
	Ctime int64  `json:"ctime"`
}

type memoEntry struct {
	fileStat
	SHA256 string `json:"sha256"`
}

// fileMemo holds a data folder's files' sha256 by their stat, so that a
// warm check reads no data file whose stat has not moved.
type fileMemo struct {
	Format  string               `json:"format"`
	Dir     string               `json:"dir"`
	Written int64                `json:"written"` // unix ns
	Files   map[string]memoEntry `json:"files"`
	// used is the memo file's modification time when it was read.
	used time.Time
}

// racyWindow: a file changed this close before its memo was written may
// have changed again within the same time stamp; its memo is not used.
const racyWindow = int64(time.Second)

// filesHashed counts data files read and hashed (tests look at it).
var filesHashed atomic.Int64

func (c *CheckCache) memoPath(absDir string) string {
	sum := sha256.Sum256([]byte(absDir))
	name := hex.EncodeToString(sum[:])
	return filepath.Join(c.Dir, "files", name[:2], name+".json")
}

// maxMemoBytes bounds a file memo read back (about 150 bytes a file of
// the data folder).
const maxMemoBytes = 16 << 20

// loadMemo returns the folder's memo, or an empty one when there is none
// or it does not hold what a memo holds.
func (c *CheckCache) loadMemo(absDir string) *fileMemo {
	empty := &fileMemo{Format: memoFormat, Dir: absDir, Files: map[string]memoEntry{}}
	f, err := safefs.Open(c.memoPath(absDir), maxMemoBytes)
	if err != nil {
		return empty
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return empty
	}
	b, err := io.ReadAll(io.LimitReader(f, maxMemoBytes+1))
	if err != nil || len(b) > maxMemoBytes {
		return empty
	}
	var m fileMemo
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if dec.Decode(&m) != nil || dec.More() || m.Format != memoFormat || m.Dir != absDir || m.Files == nil {
		return empty
	}
	for _, e := range m.Files {
		if len(e.SHA256) != 64 {
			return empty
		}
	}
	m.used = st.ModTime()
	return &m
}

// fileSum is the sha256 and size of the regular file at p (rel in its
// folder), from the memo when its stat is the one the memo holds and it
// was not changed just before the memo was written; next records what was
// used. A file read is read to at most limit bytes: a larger one is an
// error.
func fileSum(p, rel string, d fs.DirEntry, limit int64, memo, next *fileMemo) ([]byte, int64, error) {
	info, err := d.Info()
	if err != nil {
		return nil, 0, err
	}
	st, ok := statOf(info)
	if ok {
		if e, hit := memo.Files[rel]; hit && e.fileStat == st && st.Ctime < memo.Written-racyWindow && st.Mtime < memo.Written-racyWindow {
			if sum, err := hex.DecodeString(e.SHA256); err == nil {
				next.Files[rel] = e
				return sum, info.Size(), nil
			}
		}
	}
	f, err := safefs.Open(p, limit)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, err
	}
	if n > limit {
		return nil, 0, &safefs.TooLargeError{Path: p, Limit: limit}
	}
	filesHashed.Add(1)
	sum := h.Sum(nil)
	if ok {
		next.Files[rel] = memoEntry{fileStat: st, SHA256: hex.EncodeToString(sum)}
	}
	return sum, n, nil
}

// storeMemo writes the folder's memo atomically when it changed, and
// returns the memo in force: old when nothing changed, else next.
func (c *CheckCache) storeMemo(old, next *fileMemo) *fileMemo {
	same := len(old.Files) == len(next.Files)
	for k, v := range next.Files {
		if o, ok := old.Files[k]; !ok || o != v {
			same = false
			break
		}
	}
	if same {
		if !old.used.IsZero() {
			touch(c.memoPath(old.Dir), old.used)
		}
		return old
	}
	next.Written = time.Now().UnixNano()
	b, err := json.Marshal(next)
	if err != nil {
		return next
	}
	c.writeAtomic(c.memoPath(next.Dir), b)
	return next
}

// writeAtomic writes b to p through safefs: create-exclusive under a
// fresh temporary name in p's folder, renamed into place, so a link or a
// FIFO planted at p is replaced, never written through or hung on; a
// failure only costs a later re-read.
func (c *CheckCache) writeAtomic(p string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	_ = safefs.WriteFile(p, b, 0o644)
}
