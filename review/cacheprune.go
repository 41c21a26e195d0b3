package review

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/decodebench/decodebench/internal/safefs"
)

// PrunePolicy bounds the check cache.
type PrunePolicy struct {
	// MaxAge drops an entry or file memo not used for this long.
	MaxAge time.Duration
	// KeepPerRecord keeps this many of a record file's entries, the
	// most recently used (one per decodebench build and content the
	// record had: a branch switched back and forth keeps both).
	KeepPerRecord int
	// MaxBytes drops the least recently used entries and memos until
	// the cache holds at most this many bytes.
	MaxBytes int64
}

// DefaultPrunePolicy: 30 days unused, two entries a record, 256 MiB.
var DefaultPrunePolicy = PrunePolicy{MaxAge: 30 * 24 * time.Hour, KeepPerRecord: 2, MaxBytes: 256 << 20}

// PruneReason says why Prune dropped a cache file.
type PruneReason string

// Why a file goes: its record (or data folder) is gone, it is older than
// a record's KeepPerRecord most recent entries, it was not used within
// MaxAge, the cache was over MaxBytes, or it is an entry of an older
// cache layout (never read again) or a temporary file a killed run left.
const (
	PruneGone       PruneReason = "gone"
	PruneSuperseded PruneReason = "superseded"
	PruneUnused     PruneReason = "unused"
	PruneOverSize   PruneReason = "over-size"
	PruneStale      PruneReason = "stale"
)

// PruneResult counts what Prune removed and what it kept.
type PruneResult struct {
	Removed      map[PruneReason]int
	RemovedBytes int64
	Kept         int
	KeptBytes    int64
}

// pruneMarker's modification time is when the cache was last pruned.
const pruneMarker = ".pruned"

// pruneEvery is how often MaybePrune prunes.
const pruneEvery = 24 * time.Hour

// touchAfter: a cache file used is marked used (its modification time
// set to now) when its mark is older than this, so a warm check writes
// at most once an hour per file.
const touchAfter = time.Hour

func touch(p string, mtime time.Time) {
	if now := time.Now(); now.Sub(mtime) > touchAfter {
		setTimes(p, now)
	}
}

// setTimes sets p's times without following a link at p.
func setTimes(p string, t time.Time) {
	ts := []unix.Timespec{unix.NsecToTimespec(t.UnixNano()), unix.NsecToTimespec(t.UnixNano())}
	_ = unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW)
}

// MaybePrune prunes the cache with DefaultPrunePolicy when it was last
// pruned more than a day ago (or never), and marks it pruned. A cache
// that cannot be pruned is left as it is: pruning only saves space.
func (c *CheckCache) MaybePrune(now time.Time) {
	if c == nil || c.Dir == "" {
		return
	}
	marker := filepath.Join(c.Dir, pruneMarker)
	if st, err := os.Lstat(marker); err == nil && now.Sub(st.ModTime()) < pruneEvery {
		return
	}
	if _, err := os.Stat(c.Dir); err != nil {
		return
	}
	c.Prune(now, DefaultPrunePolicy)
	// Written through safefs (a link or FIFO planted at the marker is
	// replaced, never truncated through or hung on), its time set without
	// following a link.
	if safefs.WriteFile(marker, nil, 0o644) == nil {
		setTimes(marker, now)
	}
}

// isTempName reports a cache writer's temporary file: safefs's
// ".<name>.tmp-<random>", or an older ".entry-*".
func isTempName(name string) bool {
	return strings.HasPrefix(name, ".entry-") || (strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-"))
}

// cacheFile is an entry or a file memo found by Prune.
type cacheFile struct {
	path string
	size int64
	used time.Time
}

// Prune removes from the cache: every entry of a record file that no
// longer exists and every file memo of a data folder that no longer
// exists; a record's entries beyond its KeepPerRecord most recently used;
// entries and memos unused for MaxAge; entries of the older layout and
// temporary files over an hour old; then, while the cache holds more
// than MaxBytes, the least recently used entries and memos. It touches
// only files named as the cache names them (a --cache-dir pointed at
// another folder loses nothing else), and removes the folders it
// empties.
func (c *CheckCache) Prune(now time.Time, p PrunePolicy) PruneResult {
	res := PruneResult{Removed: map[PruneReason]int{}}
	var kept []cacheFile
	remove := func(f cacheFile, why PruneReason) {
		if os.Remove(f.path) == nil {
			res.Removed[why]++
			res.RemovedBytes += f.size
		}
	}
	tops, _ := os.ReadDir(c.Dir)
	for _, top := range tops {
		switch {
		case top.Name() == "files" && top.IsDir():
			kept = append(kept, c.pruneMemos(now, p, remove)...)
		case isHex(top.Name(), 2) && top.IsDir():
			kept = append(kept, c.pruneEntries(filepath.Join(c.Dir, top.Name()), now, p, remove)...)
		}
	}
	for _, f := range kept {
		res.KeptBytes += f.size
	}
	if p.MaxBytes > 0 && res.KeptBytes > p.MaxBytes {
		slices.SortStableFunc(kept, func(a, b cacheFile) int { return a.used.Compare(b.used) })
		for len(kept) > 0 && res.KeptBytes > p.MaxBytes {
			remove(kept[0], PruneOverSize)
			res.KeptBytes -= kept[0].size
			kept = kept[1:]
		}
	}
	res.Kept = len(kept)
	removeEmptyDirs(c.Dir)
	return res
}

// pruneEntries prunes one top folder of entries (DIR/ab): its record
// folders, and the older layout's entries (DIR/ab/KEY.json).
func (c *CheckCache) pruneEntries(top string, now time.Time, p PrunePolicy, remove func(cacheFile, PruneReason)) []cacheFile {
	var kept []cacheFile
	items, _ := os.ReadDir(top)
	for _, it := range items {
		path := filepath.Join(top, it.Name())
		switch {
		case it.IsDir() && isHex(it.Name(), 32):
			kept = append(kept, pruneRecord(path, now, p, remove)...)
		case it.Type().IsRegular() && isEntryName(it.Name()):
			if f, ok := statFile(path); ok {
				remove(f, PruneStale) // v1: keyed without the record, never read again
			}
		case it.Type().IsRegular() && isTempName(it.Name()):
			pruneTemp(path, now, remove)
		}
	}
	return kept
}

// pruneRecord prunes one record file's entries.
func pruneRecord(dir string, now time.Time, p PrunePolicy, remove func(cacheFile, PruneReason)) []cacheFile {
	var files []cacheFile
	items, _ := os.ReadDir(dir)
	for _, it := range items {
		path := filepath.Join(dir, it.Name())
		switch {
		case it.Type().IsRegular() && isEntryName(it.Name()):
			if f, ok := statFile(path); ok {
				files = append(files, f)
			}
		case it.Type().IsRegular() && isTempName(it.Name()):
			pruneTemp(path, now, remove)
		}
	}
	if len(files) == 0 {
		return nil
	}
	// Most recently used first.
	slices.SortStableFunc(files, func(a, b cacheFile) int { return b.used.Compare(a.used) })
	if recordGone(files[0].path) {
		for _, f := range files {
			remove(f, PruneGone)
		}
		return nil
	}
	var kept []cacheFile
	for i, f := range files {
		switch {
		case p.KeepPerRecord > 0 && i >= p.KeepPerRecord:
			remove(f, PruneSuperseded)
		case p.MaxAge > 0 && now.Sub(f.used) > p.MaxAge:
			remove(f, PruneUnused)
		default:
			kept = append(kept, f)
		}
	}
	return kept
}

// recordGone reads an entry's record path and reports whether that file
// no longer exists (an entry that cannot be read says nothing).
func recordGone(entry string) bool {
	// Through the guarded reader: an entry past its cap is refused by its
	// size before a byte is read, not read whole and then measured.
	b, err := safefs.ReadFile(entry, maxEntryBytes)
	if err != nil {
		return false
	}
	var e struct {
		Record string `json:"record"`
	}
	if json.NewDecoder(bytes.NewReader(b)).Decode(&e) != nil || e.Record == "" {
		return false
	}
	_, err = os.Lstat(e.Record)
	return errors.Is(err, fs.ErrNotExist)
}

// pruneMemos prunes the file memos (DIR/files/ab/HASH.json).
func (c *CheckCache) pruneMemos(now time.Time, p PrunePolicy, remove func(cacheFile, PruneReason)) []cacheFile {
	var kept []cacheFile
	root := filepath.Join(c.Dir, "files")
	tops, _ := os.ReadDir(root)
	for _, top := range tops {
		if !top.IsDir() || !isHex(top.Name(), 2) {
			continue
		}
		items, _ := os.ReadDir(filepath.Join(root, top.Name()))
		for _, it := range items {
			path := filepath.Join(root, top.Name(), it.Name())
			switch {
			case it.Type().IsRegular() && isEntryName(it.Name()):
				f, ok := statFile(path)
				switch {
				case !ok:
				case memoDirGone(path):
					remove(f, PruneGone)
				case p.MaxAge > 0 && now.Sub(f.used) > p.MaxAge:
					remove(f, PruneUnused)
				default:
					kept = append(kept, f)
				}
			case it.Type().IsRegular() && isTempName(it.Name()):
				pruneTemp(path, now, remove)
			}
		}
	}
	return kept
}

func memoDirGone(path string) bool {
	b, err := safefs.ReadFile(path, maxMemoBytes)
	if err != nil {
		return false
	}
	var m struct {
		Dir string `json:"dir"`
	}
	if json.NewDecoder(bytes.NewReader(b)).Decode(&m) != nil || m.Dir == "" {
		return false
	}
	_, err = os.Lstat(m.Dir)
	return errors.Is(err, fs.ErrNotExist)
}

// pruneTemp removes a temporary file a write left over an hour ago (a
// write in progress is younger).
func pruneTemp(path string, now time.Time, remove func(cacheFile, PruneReason)) {
	if f, ok := statFile(path); ok && now.Sub(f.used) > time.Hour {
		remove(f, PruneStale)
	}
}

func statFile(path string) (cacheFile, bool) {
	st, err := os.Lstat(path)
	if err != nil || !st.Mode().IsRegular() {
		return cacheFile{}, false
	}
	return cacheFile{path: path, size: st.Size(), used: st.ModTime()}, true
}

// isEntryName: 64 hex digits and .json, as entries and memos are named.
func isEntryName(name string) bool {
	stem, ok := strings.CutSuffix(name, ".json")
	return ok && isHex(stem, 64)
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return false
		}
	}
	return true
}

// removeEmptyDirs removes the cache's folders that pruning emptied (two
// levels of entries, two of memos); os.Remove leaves a folder that is not
// empty.
func removeEmptyDirs(root string) {
	tops, _ := os.ReadDir(root)
	for _, top := range tops {
		if !top.IsDir() || !(isHex(top.Name(), 2) || top.Name() == "files") {
			continue
		}
		dir := filepath.Join(root, top.Name())
		subs, _ := os.ReadDir(dir)
		for _, s := range subs {
			if s.IsDir() && (isHex(s.Name(), 32) || isHex(s.Name(), 2)) {
				_ = os.Remove(filepath.Join(dir, s.Name()))
			}
		}
		_ = os.Remove(dir)
	}
}
