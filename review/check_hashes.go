package review

import (
	"crypto/sha256"
	"encoding/hex"
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
	hashed := map[string]bool{} // each file is read once, however often it is named
	for _, f := range rec.Files {
		if _, ok := listed[f.Path]; !ok || hashed[f.Path] {
			continue
		}
		hashed[f.Path] = true
		var got string
		var err error
		if sf, ok := scan.file(f.Path); ok && sf.size <= sizeCap(f.Path) {
			got = sf.sha256
		} else {
			got, err = hashIn(d, f.Path)
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
		if _, ok := listed[rel]; !ok && rel != "campaign.json" {
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
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dataDir, p)
		unlisted(filepath.ToSlash(rel))
		return nil
	})
	return probs, intact
}

// sizeCap is the most bytes check reads of a data folder's file.
func sizeCap(rel string) int64 {
	if rel == recorder.RunsFile {
		return safefs.MaxRuns
	}
	return safefs.MaxDataFile
}

// hashIn is the sha256 of a data folder's file, read through the guarded
// reader.
func hashIn(d *safefs.Dir, rel string) (string, error) {
	limit := sizeCap(rel)
	f, err := d.Open(rel, limit)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, limit+1)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
