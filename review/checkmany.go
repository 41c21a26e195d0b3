package review

import (
	"bytes"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// Checked is one record's check result.
type Checked struct {
	Path     string
	Problems []Problem
	// Notes are what a record's runs give under today's rule where its
	// own rule judges them otherwise (checkRule): said, not a problem.
	Notes []string
	// Cached is set when the result came from the cache, not a fresh
	// check.
	Cached bool
}

// CheckAll checks every record, spread over one worker per CPU, and
// returns the results in the order of paths. With a cache, a record whose
// entry holds is not re-analysed; every fresh result is stored.
//
// The records bisect summaries link are checked once for all of them
// (identityMemo), and the runs held at once are within the process's
// budget (runsBudget), whatever the number of CPUs.
func CheckAll(paths []string, cache *CheckCache) []Checked {
	return CheckAllProgress(paths, cache, nil)
}

// CheckAllProgress is CheckAll telling progress of each record checked.
func CheckAllProgress(paths []string, cache *CheckCache, progress Progress) []Checked {
	out := make([]Checked, len(paths))
	links := newIdentityMemo()
	done := newCounter(progress, len(paths))
	workers.ForEach(len(paths), func(i int) {
		out[i] = checkOne(paths[i], cache, links)
		done.one()
	})
	return out
}

func checkOne(path string, cache *CheckCache, links *identityMemo) Checked {
	if cache == nil || cache.Dir == "" {
		return checkedNoted(path, links)
	}
	src, err := safefs.ReadFile(path, safefs.MaxRecord)
	if err != nil {
		return checkedNoted(path, links)
	}
	return checkSrc(path, src, nil, cache, links)
}

// checkedNoted is a record checked afresh, with its notes.
func checkedNoted(path string, links *identityMemo) Checked {
	probs, notes := checkNoted(path, links)
	return Checked{Path: path, Problems: probs, Notes: notes}
}

// checkParsed is checkOne for a record already read (src) and parsed.
func checkParsed(path string, src []byte, rec *schema.Record, cache *CheckCache) []Problem {
	if cache == nil || cache.Dir == "" {
		return Check(path)
	}
	return checkSrc(path, src, rec, cache, nil).Problems
}

func checkSrc(path string, src []byte, rec *schema.Record, cache *CheckCache, links *identityMemo) Checked {
	if recorder.IsBisect(src) {
		// A bisect summary's result depends on the records it links:
		// it is checked every time.
		if links == nil {
			links = newIdentityMemo()
		}
		return checkedNoted(path, links)
	}
	var dd string
	var named, hist []string
	switch {
	case rec != nil:
		dd, named, hist = rec.DataDir, filePaths(rec), historyStems(rec)
	case !cache.hasEntries(path):
		// Certainly a miss: the record is decoded once, for the check.
		var err error
		if rec, err = recorder.Parse(bytes.NewReader(src)); err != nil {
			return Checked{Path: path, Problems: Check(path)}
		}
		dd, named, hist = rec.DataDir, filePaths(rec), historyStems(rec)
	default:
		// A hit needs only the data folder and the files named in it:
		// the data block is decoded in full on a miss.
		var err error
		if dd, named, hist, err = recorder.DataDirOf(src); err != nil {
			return Checked{Path: path, Problems: Check(path)}
		}
	}
	scan, ok := cache.scan(path, src, dd, named, hist, nil)
	if !ok {
		return Checked{Path: path, Problems: Check(path)}
	}
	if probs, notes, ok := cache.load(scan); ok {
		if len(probs) == 0 {
			probs = nil
		}
		return Checked{Path: path, Problems: probs, Notes: notes, Cached: true}
	}
	if rec == nil {
		var err error
		if rec, err = recorder.Parse(bytes.NewReader(src)); err != nil || rec.DataDir != dd {
			return Checked{Path: path, Problems: Check(path)}
		}
	}
	probs, notes := checkRecord(path, src, rec, scan)
	// The files may have changed while they were checked: store only
	// when the key still holds.
	if again, err := safefs.ReadFile(path, safefs.MaxRecord); err == nil && bytes.Equal(again, src) {
		if s2, ok := cache.scan(path, again, dd, named, hist, scan.memo); ok && s2.key == scan.key {
			cache.store(scan, probs, notes)
		}
	}
	return Checked{Path: path, Problems: probs, Notes: notes}
}

// filePaths are the paths of the files the record names.
func filePaths(rec *schema.Record) []string {
	var out []string
	for _, f := range rec.Files {
		out = append(out, f.Path)
	}
	return out
}
