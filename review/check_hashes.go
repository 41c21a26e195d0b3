package review

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// checkFiles compares the data folder with the record's list of files. It
// reports every file the record names that is missing, named more than
// once (and read once) or not named, but stops at the first file whose
// sha256 differs (intact false): nothing read from a changed folder is
// analysed.
//
// With scan, the sha256 and the list of entries are the scan's (a file
// over its size cap is still opened, and refused, through d).
func checkFiles(d *safefs.Dir, dataDir string, rec *schema.Record, scan *folderScan) (probs []Problem, intact bool) {
	intact = true
	listed := map[string]string{}
	for _, f := range rec.Files {
		clean := path.Clean(f.Path)
		if f.Path == "" || path.IsAbs(f.Path) || clean != f.Path || strings.HasPrefix(clean, "../") || clean == ".." {
			probs = append(probs, Problem{"Data", fmt.Sprintf("file %q is not a plain path inside the data folder", f.Path)})
			continue
		}
		if _, twice := listed[f.Path]; twice {
			probs = append(probs, Problem{"Data", fmt.Sprintf("the record names %s more than once", termsafe.String(f.Path))})
		}
		listed[f.Path] = f.SHA256
	}
	for _, need := range []string{recorder.RunsFile, recorder.ScenarioFile} {
		if _, ok := listed[need]; !ok {
			probs = append(probs, Problem{"Data", "the record names no sha256 for " + need})
		}
	}
	if over := overBudget(d, rec.Files, listed); over != nil {
		// Refused before a byte is read: hashing the files before it
		// would cost up to the whole budget on every check.
		return append(probs, Problem{"Data", termsafe.String(over.Error())}), false
	}
	hashed := map[string]bool{} // each file is read once, however often it is named
	left := folderBudget        // what the folder's files may still take to hash
	for _, f := range rec.Files {
		if _, ok := listed[f.Path]; !ok || hashed[f.Path] {
			continue
		}
		hashed[f.Path] = true
		var got string
		var n int64
		var err error
		if sf, ok := scan.file(f.Path); ok && sf.size <= sizeCap(f.Path) && sf.size <= left {
			got, n = sf.sha256, sf.size
		} else {
			got, n, err = hashIn(d, f.Path, folderBudget-left, left)
		}
		left -= n
		if over := (*overBudgetError)(nil); errors.As(err, &over) {
			// Nothing more is read: the record is refused.
			return append(probs, Problem{"Data", termsafe.String(err.Error())}), false
		}
		if err != nil {
			probs = append(probs, Problem{sectionOf(f.Path), termsafe.String(err.Error())})
			intact = false
			continue
		}
		if got != f.SHA256 {
			probs = append(probs, Problem{sectionOf(f.Path), fmt.Sprintf("%s has sha256 %.12s, the record names %.12s: changed after the record was written", f.Path, got, termsafe.String(f.SHA256))})
			return probs, false
		}
	}
	unlisted := func(rel string) {
		if _, ok := listed[rel]; !ok && rel != "campaign.json" && rel != recorder.PIDFile {
			probs = append(probs, Problem{"Data", fmt.Sprintf("%s is in the data folder but the record does not name it", termsafe.String(rel))})
		}
	}
	if scan != nil {
		for _, rel := range scan.entries {
			unlisted(rel)
		}
		return probs, intact
	}
	_ = filepath.WalkDir(dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil && p != dataDir { // the folder itself: its files' checks say it is gone
			probs = append(probs, unwalkable(dataDir, p, err))
			return nil
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dataDir, p)
		unlisted(filepath.ToSlash(rel))
		return nil
	})
	return probs, intact
}

// unwalkable is the problem of a part of a data folder that cannot be
// listed or read (a path past the system's limit, a folder without
// permission): check cannot say what it holds, so it is not passed over
// as empty (an 8 MB file 2,100 folders deep passed check unnamed).
func unwalkable(dataDir, p string, err error) Problem {
	rel, rerr := filepath.Rel(dataDir, p)
	if rerr != nil || len(rel) > 200 {
		rel = fmt.Sprintf("a path of %d bytes", len(p))
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return Problem{"Data", fmt.Sprintf("%s in the data folder cannot be listed or read (%v): what it holds cannot be checked", termsafe.String(filepath.ToSlash(rel)), err)}
}

// overBudget is the budget's refusal when the sizes of the files a record
// names, as they are now, pass the folder's budget together: the file at
// which they pass it, as the hashing would name it. A file that cannot be
// opened or is over its own cap counts nothing (the hashing reports it).
// A file that grows after this is still bounded as it is hashed.
func overBudget(d *safefs.Dir, files []schema.FileSum, listed map[string]string) *overBudgetError {
	seen := map[string]bool{}
	var total int64
	for _, f := range files {
		if _, ok := listed[f.Path]; !ok || seen[f.Path] {
			continue
		}
		seen[f.Path] = true
		fh, err := d.Open(f.Path, sizeCap(f.Path))
		if err != nil {
			continue
		}
		st, err := fh.Stat()
		fh.Close()
		if err != nil || st.Size() > sizeCap(f.Path) {
			continue
		}
		if total+st.Size() > folderBudget {
			return &overBudgetError{f.Path, total, st.Size()}
		}
		total += st.Size()
	}
	return nil
}

// sizeCap is the most bytes check reads of a data folder's file.
func sizeCap(rel string) int64 {
	if rel == recorder.RunsFile {
		return safefs.MaxRuns
	}
	return safefs.MaxDataFile
}

// maxFolderBytes bounds the bytes check hashes of one record's data
// folder, its files together: 4 GiB. Each file has its own cap (1 GiB,
// sizeCap), but a record may name any number of them, and 600 files of
// 1 GiB (sparse: a folder of 440 KB on disk) took ten minutes to hash. A
// campaign writes runs.jsonl (at most safefs.MaxRuns, 1 GiB), its stored
// scenario (1 MiB at most), a log a run (at most engine.LogHeadBytes +
// LogTailBytes, 8 MiB, and a few KB in practice) and a few plots (tens
// of KB); the largest committed data folder holds 0.7 MB. 4 GiB holds a
// runs.jsonl at its cap and 3 GiB more (384 logs at their cap, hundreds
// of thousands as campaigns write them), and hashes in a few seconds.
const maxFolderBytes = 4 << 30

// folderBudget is maxFolderBytes; tests lower it.
var folderBudget int64 = maxFolderBytes

// overBudgetError says the data folder's files would pass the budget at
// file rel: before bytes hashed before it, size in it.
type overBudgetError struct {
	rel          string
	before, size int64
}

func (e *overBudgetError) Error() string {
	return fmt.Sprintf("%s (%d bytes) takes the data folder's files past %d bytes together (%d bytes before it), the most check hashes of one data folder: nothing more is read", e.rel, e.size, folderBudget, e.before)
}

// hashIn is the sha256 of a data folder's file, read through the guarded
// reader, and how many bytes it read: at most left, the folder's budget
// after the before bytes hashed already (a file larger than that is not
// read).
func hashIn(d *safefs.Dir, rel string, before, left int64) (string, int64, error) {
	f, err := d.Open(rel, sizeCap(rel))
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", 0, err
	}
	if st.Size() > left {
		return "", 0, &overBudgetError{rel, before, st.Size()}
	}
	limit := min(sizeCap(rel), left)
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(f, limit+1))
	if err != nil {
		return "", n, err
	}
	if n > left {
		// It grew while read.
		return "", n, &overBudgetError{rel, before, n}
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

func sectionOf(file string) string {
	switch {
	case file == recorder.RunsFile || strings.HasPrefix(file, "logs/"):
		return "Raw runs"
	case file == recorder.ScenarioFile:
		return "Summary"
	case strings.HasSuffix(file, ".png") || strings.HasSuffix(file, ".svg"):
		return "Results"
	}
	return "Data"
}

// sha256Hex is the sha256 of a text; a long one is hashed a piece at a
// time: no copy of a text of many megabytes is made to hash it.
func sha256Hex(s string) string {
	if len(s) <= 4<<10 {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:])
	}
	h := sha256.New()
	buf := make([]byte, 32<<10)
	for len(s) > 0 {
		n := copy(buf, s)
		h.Write(buf[:n])
		s = s[n:]
	}
	return hex.EncodeToString(h.Sum(nil))
}
