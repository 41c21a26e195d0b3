package recorder

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/schema"
)

var (
	featureRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	slugRE    = regexp.MustCompile(`^[a-z0-9]+$`)
	dateRE    = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// Reserve picks the record's file stem `<feature>-<hw>-<date>` in outDir,
// adding -2, -3, … so that no earlier record is overwritten, and creates
// its data folder outDir/data/<stem> to claim the name (creating a folder
// is atomic, so two campaigns started together cannot pick the same one).
// It returns the record path and the data folder.
func Reserve(outDir, feature, hw, date string) (recordPath, dataDir string, err error) {
	if err := CheckName(feature, hw, date); err != nil {
		return "", "", err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return "", "", fmt.Errorf("output folder: %w", err)
	}
	// The data folder is claimed through the output folder held open: a
	// link planted at outDir/data is refused, never followed, so no data
	// folder is created where the link points.
	top, err := safefs.OpenDir(outDir)
	if err != nil {
		return "", "", fmt.Errorf("output folder: %w", err)
	}
	defer top.Close()
	data, err := top.Sub("data", true)
	if err != nil {
		return "", "", fmt.Errorf("output folder: %w", err)
	}
	defer data.Close()
	base := fmt.Sprintf("%s-%s-%s", feature, hw, date)
	for i := 1; i < 1000; i++ {
		stem := base
		if i > 1 {
			stem = fmt.Sprintf("%s-%d", base, i)
		}
		rec := filepath.Join(outDir, stem+".md")
		if _, err := os.Lstat(rec); err == nil {
			continue
		}
		dir := filepath.Join(outDir, "data", stem)
		if err := data.MkdirNew(stem); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue
			}
			return "", "", fmt.Errorf("data folder: %w", err)
		}
		return rec, dir, nil
	}
	return "", "", fmt.Errorf("more than 999 records named %s in %s", base, outDir)
}

// WriteFile renders the record to path atomically: a crash while writing
// leaves the previous file (or none), never half a record.
// It goes through safefs: created exclusively under a fresh temporary name
// in path's folder, synced, renamed over path, so a link planted at path
// or at a temporary name is replaced, never written through.
func WriteFile(path string, r *schema.Record) error {
	var b bytes.Buffer
	if err := Markdown(&b, r); err != nil {
		return err
	}
	if err := safefs.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	return nil
}

// stateFile is the campaign's resume state: it changes on every resume and
// is not part of the record's evidence.
const stateFile = "campaign.json"

// HashDataDir lists the data folder's regular files (the campaign state
// excepted) with their sha256, sorted by path. Links are refused, never
// followed.
func HashDataDir(dir string) ([]schema.FileSum, error) {
	var out []schema.FileSum
	err := WalkData(dir, func(rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() {
			return fmt.Errorf("data folder: %s is not a regular file", rel)
		}
		sum, err := HashFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		out = append(out, schema.FileSum{Path: rel, SHA256: sum})
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// WalkData calls f with the path (slash-separated) of each entry of the
// data folder dir but its folders, the campaign's state (campaign.json,
// and engine.pid.json, which each engine start writes and its stop
// removes) and temporary files: no evidence, never listed. An error of f
// ends the walk.
func WalkData(dir string, f func(rel string, d fs.DirEntry) error) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == stateFile || rel == PIDFile || strings.HasSuffix(rel, ".tmp") {
			return nil
		}
		return f(rel, d)
	})
}

// PIDFile is a data folder's record of its running engine.
const PIDFile = "engine.pid.json"
