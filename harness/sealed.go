package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// The data folder's files as decodebench left them. An engine runs as the
// campaign's user and can write into the results folder while the
// campaign runs (a pull request's build does, sandboxed too): a line
// added to an earlier run's log, a log rewritten, or a file planted
// beside them would otherwise pass into the record's list of files with
// its new sha256, evidence the record vouches for. So each file
// decodebench writes is sealed as it is written, a run's log as its run
// ends (its engine stopped), the journal line by line; the record names
// every sealed file with the sha256 it was sealed with, so check refuses
// a file changed since, and a file nobody sealed is left out of the list
// (check names it as a file the record does not name).
//
// A resume seals what its record names (sealresume.go).

// seals are the sha256 of each file decodebench wrote, by its path in the
// data folder, as it left it.
type seals map[string]string

// sealBytes seals rel as the bytes decodebench wrote into it.
func (c *campaign) sealBytes(rel string, b []byte) {
	sum := sha256.Sum256(b)
	c.sealed()[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
}

// sealFile seals rel as it is now, read through the data folder held open.
// A file that is not there (an engine that never started wrote no log)
// or cannot be read is not sealed.
func (c *campaign) sealFile(rel string) {
	if rel == "" || c.data == nil {
		return
	}
	sum, err := hashIn(c.data, rel)
	if err != nil {
		return
	}
	c.sealed()[filepath.ToSlash(rel)] = sum
}

func (c *campaign) sealed() seals {
	if c.seals == nil {
		c.seals = seals{}
	}
	return c.seals
}

// hashIn is the sha256 of rel under d, never through a link.
func hashIn(d *safefs.Dir, rel string) (string, error) { return recorder.HashFileIn(d, rel) }

// sealAll seals every file the data folder holds now (a resume's start).
func (c *campaign) sealAll() error {
	return recorder.WalkData(c.dataDir, func(rel string, d fs.DirEntry) error {
		if d.Type().IsRegular() {
			c.sealFile(rel)
		}
		return nil
	})
}

// sealProblem is a file of the data folder that is not as decodebench
// left it.
type sealProblem struct {
	Path string
	// Why: "changed", "removed" or "foreign" (not written by decodebench).
	Why string
}

func (p sealProblem) String() string {
	name := termsafe.String(p.Path)
	switch p.Why {
	case "changed":
		return name + " changed after decodebench wrote it"
	case "removed":
		return name + " was removed after decodebench wrote it"
	}
	return name + " is no file decodebench wrote (left out of the record)"
}

// listFiles is the record's list of the data folder's files: each sealed
// file with the sha256 it was sealed with, whatever it holds now, sorted
// by path; and the files that are not as decodebench left them.
func (c *campaign) listFiles() ([]schema.FileSum, []sealProblem, error) {
	want := seals{}
	for rel, sum := range c.seals {
		want[rel] = sum
	}
	if c.journal != nil && c.journal.sum != nil {
		want[recorder.RunsFile] = c.journal.SHA256()
	}
	var probs []sealProblem
	seen := map[string]bool{}
	err := recorder.WalkData(c.dataDir, func(rel string, _ fs.DirEntry) error {
		sum, ok := want[rel]
		if !ok {
			probs = append(probs, sealProblem{rel, "foreign"})
			return nil
		}
		seen[rel] = true
		if now, err := hashIn(c.data, rel); err != nil || now != sum {
			probs = append(probs, sealProblem{rel, "changed"})
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	files := make([]schema.FileSum, 0, len(want))
	for rel, sum := range want {
		files = append(files, schema.FileSum{Path: rel, SHA256: sum})
		if !seen[rel] {
			probs = append(probs, sealProblem{rel, "removed"})
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	sort.Slice(probs, func(i, j int) bool { return probs[i].Path < probs[j].Path })
	return files, probs, nil
}

// sealError is the campaign's error when its record is written but files
// of its data folder are not as decodebench left them: check refuses the
// record until they are.
func sealError(recPath string, probs []sealProblem) error {
	var b strings.Builder
	for i, p := range probs {
		if i == 5 {
			fmt.Fprintf(&b, "; and %d more", len(probs)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.String())
	}
	return fmt.Errorf("the record %s is written, but its data folder is not as decodebench left it (another process, the engine among them, wrote into it): %s; check refuses the record while it is so", termsafe.String(recPath), b.String())
}
