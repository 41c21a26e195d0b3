package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// cacheFormat names the layout of a cache entry and of its key; a change
// to either, or to what check reports (v4: the values runs.jsonl states
// that a run's log gives are derived again, and loaded sets must be backed by runs; v5: the data folder
// must be data/<the record's stem>; v6: runs held to their slots and
// on_failure, values computed again from other stored values, timings held
// to print_timing, format characters refused, phases of the time table;
// v7: the records a host history names, beside the record, in the key),
// changes it, so old entries are never read as new ones.
const cacheFormat = "decodebench/check-cache/v7"

// CheckCache keeps check's results by content: an entry's key is the hash
// of the record file's bytes, its path, every entry of its data folder
// (path and kind, and the sha256 of each file check reads; see scan), and
// the identity of the decodebench doing the check (the sha256 of its own
// executable), so a changed byte that check reads, a file added or
// removed, or another build of decodebench checks afresh.
// Entries are written atomically and an entry that does not parse, or
// whose stored key is not the one asked for, is ignored.
type CheckCache struct {
	Dir string
	// Identity names the analysis doing the checks; empty means the
	// sha256 of the running executable.
	Identity string
}

// OpenCheckCache is the check cache kept in dir, or, when dir is "", in
// the user's cache folder (decodebench/check under os.UserCacheDir). A
// cached result says a record passed, so the cache is used only from a
// folder that safefs.StateDir accepts: this user's own (created 0700),
// under folders no one else may write, and in no git work tree. Otherwise
// there is no cache, and the error says why: there is never a fallback
// into the working folder (with $HOME unset the cache once went to
// ./.cache, where a folder committed to the repository passed as private
// and an entry planted in it made check say ok).
func OpenCheckCache(dir string) (*CheckCache, error) {
	if dir == "" {
		d, err := safefs.UserStateDir("decodebench", "check")
		if err != nil {
			return nil, err
		}
		return &CheckCache{Dir: d}, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := safefs.StateDir(abs); err != nil {
		return nil, err
	}
	return &CheckCache{Dir: abs}, nil
}

var (
	selfOnce sync.Once
	selfSum  string
)

// selfIdentity is the sha256 of the running executable ("" when it cannot
// be read: then nothing is cached).
func selfIdentity() string {
	selfOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err == nil {
			selfSum = hex.EncodeToString(h.Sum(nil))
		}
	})
	return selfSum
}

func (c *CheckCache) identity() string {
	if c.Identity != "" {
		return c.Identity
	}
	return selfIdentity()
}

// folderScan is a record's data folder as the cache key read it.
type folderScan struct {
	key    string
	record string // the record file's absolute path
	// entries is every entry that is not a folder, in walk order
	// (slash-separated, relative to the data folder).
	entries []string
	files   map[string]scannedFile // the regular ones
	// memo is the file memo in force after the scan: a scan given it
	// reads again only files whose stat moved or that were changed just
	// before it was written.
	memo *fileMemo
}

type scannedFile struct {
	sha256 string
	size   int64
}

// file is the scan's entry for a regular file (false with no scan).
func (s *folderScan) file(rel string) (scannedFile, bool) {
	if s == nil {
		return scannedFile{}, false
	}
	f, ok := s.files[rel]
	return f, ok
}

// scan keys a record whose data folder (as its data block names it) is
// dd, reading the folder's files through memo, or through the memo kept
// in the cache when memo is nil. named are the files the record names,
// hist the records its host history names (beside it: checkHistory reads
// them), each keyed by its size, time and mode (besideStamp).
//
// The key holds every entry of the folder (its path and kind), so that a
// file added or removed checks afresh (check reports a file the record
// does not name), and the sha256 of the files whose bytes check reads:
// those the record names, runs.jsonl, the stored scenario and the
// campaign state (read whether named or not). Any other file's bytes do
// not change what check finds (it is reported as not named, by its
// path), so it is not read.
// When the files read would take more than the folder's budget
// (folderBudget) nothing is read and there is no scan: check, uncached,
// refuses the record.
func (c *CheckCache) scan(recordPath string, src []byte, dd string, named, hist []string, memo *fileMemo) (*folderScan, bool) {
	id := c.identity()
	if id == "" {
		return nil, false
	}
	dataDir, err := recorder.DataPath(recordPath, &schema.Record{DataDir: dd})
	if err != nil {
		return nil, false
	}
	if st, err := os.Lstat(dataDir); err != nil || !st.IsDir() {
		return nil, false
	}
	abs, err := filepath.Abs(recordPath)
	if err != nil {
		return nil, false
	}
	absDir, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, false
	}
	read := map[string]bool{recorder.RunsFile: true, recorder.ScenarioFile: true, campaignStateFile: true}
	for _, n := range named {
		read[n] = true
	}
	type entry struct {
		p, rel string
		d      fs.DirEntry
		read   bool
	}
	var entries []entry
	var total int64
	walkErr := filepath.WalkDir(dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dataDir, p)
		e := entry{p: p, rel: filepath.ToSlash(rel), d: d, read: d.Type().IsRegular() && read[filepath.ToSlash(rel)]}
		if e.read {
			info, err := d.Info()
			if err != nil {
				return err
			}
			if total += info.Size(); total > folderBudget {
				return errOverBudget
			}
		}
		entries = append(entries, e)
		return nil
	})
	if walkErr != nil {
		return nil, false
	}
	if memo == nil || memo.Dir != absDir {
		memo = c.loadMemo(absDir)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00", cacheFormat, id, abs, len(src))
	h.Write(src)
	fmt.Fprintf(h, "\x00%s\x00", besideStamp(recordPath, hist))
	next := &fileMemo{Format: memoFormat, Dir: absDir, Files: map[string]memoEntry{}}
	out := &folderScan{files: map[string]scannedFile{}}
	left := folderBudget
	for _, e := range entries {
		fmt.Fprintf(h, "\x00%s\x00%v\x00", e.rel, e.d.Type())
		if !e.d.IsDir() {
			out.entries = append(out.entries, e.rel)
		}
		if !e.read {
			continue
		}
		sum, size, err := fileSum(e.p, e.rel, e.d, min(left, safefs.MaxRuns), memo, next)
		if err != nil {
			return nil, false
		}
		left -= size
		h.Write(sum)
		out.files[e.rel] = scannedFile{sha256: hex.EncodeToString(sum), size: size}
	}
	out.memo = c.storeMemo(memo, next)
	out.key = hex.EncodeToString(h.Sum(nil))
	out.record = abs
	return out, true
}

// errOverBudget ends a scan whose files would take more than the folder's
// budget.
var errOverBudget = errors.New("the data folder's files are over the budget")

type cacheEntry struct {
	Format string `json:"format"`
	Key    string `json:"key"`
	// Record is the record file's absolute path: Prune drops the
	// entries of a record that is gone.
	Record   string    `json:"record"`
	Problems []Problem `json:"problems"`
	// Notes are the record's notes (Checked.Notes).
	Notes []string `json:"notes,omitempty"`
}

// entryPath is where the entry of key for the record at recordAbs is
// kept: a folder per record file (the sha256 of its path), an entry per
// key in it, so that a record's entries are found without reading them.
func (c *CheckCache) entryPath(recordAbs, key string) string {
	r := recordDirName(recordAbs)
	return filepath.Join(c.Dir, r[:2], r, key+".json")
}

// hasEntries reports whether the cache may hold an entry for the record
// at path (its folder of entries exists).
func (c *CheckCache) hasEntries(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return true
	}
	r := recordDirName(abs)
	_, err = os.Stat(filepath.Join(c.Dir, r[:2], r))
	return err == nil
}

func recordDirName(recordAbs string) string {
	sum := sha256.Sum256([]byte(recordAbs))
	return hex.EncodeToString(sum[:16])
}

// load returns the cached problems for the scan's key; ok is false on a
// miss or on an entry that does not hold exactly what a valid entry
// holds. A hit marks the entry used (its modification time, at most once
// an hour), which is what Prune keeps the most recent of.
func (c *CheckCache) load(scan *folderScan) ([]Problem, []string, bool) {
	p := c.entryPath(scan.record, scan.key)
	// Through the guarded reader: a FIFO or a link in the entry's place
	// is a miss at once, not a check that hangs.
	f, err := safefs.Open(p, maxEntryBytes)
	if err != nil {
		return nil, nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, nil, false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxEntryBytes+1))
	if err != nil || len(b) > maxEntryBytes {
		return nil, nil, false
	}
	var e cacheEntry
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if dec.Decode(&e) != nil || dec.More() || e.Format != cacheFormat || e.Key != scan.key || e.Record != scan.record || e.Problems == nil {
		return nil, nil, false
	}
	for _, p := range e.Problems {
		if p.Section == "" || p.Message == "" {
			return nil, nil, false
		}
	}
	if slices.Contains(e.Notes, "") {
		return nil, nil, false
	}
	touch(p, st.ModTime())
	return e.Problems, e.Notes, true
}

// maxEntryBytes bounds an entry read back (a record's problems, at most
// a few KB).
const maxEntryBytes = 4 << 20

// store writes an entry atomically (a temporary file renamed into
// place); a failure to write only costs a later re-check.
func (c *CheckCache) store(scan *folderScan, probs []Problem, notes []string) {
	if probs == nil {
		probs = []Problem{}
	}
	b, err := json.Marshal(cacheEntry{Format: cacheFormat, Key: scan.key, Record: scan.record, Problems: probs, Notes: notes})
	if err != nil {
		return
	}
	c.writeAtomic(c.entryPath(scan.record, scan.key), b)
}
