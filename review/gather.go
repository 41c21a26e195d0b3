package review

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// GatherAction is what Gather did with a record.
type GatherAction string

// A record is placed into the records folder, found there already with
// the same bytes (and a data folder that passes check with it), or
// refused.
const (
	GatherPlaced  GatherAction = "placed"
	GatherAlready GatherAction = "already there"
	GatherRefused GatherAction = "refused"
)

// Gathered is what Gather did with one record it was given.
type Gathered struct {
	// Source is the record file as given (in a download); Dest where it
	// is in the records folder, when it is there.
	Source string
	Dest   string
	Stem   string
	Action GatherAction
	// Why says why a record was refused.
	Why []string
	Rec *schema.Record
}

// Gather places records downloaded from other machines (each source a
// record file, or a folder whose *.md files are records, each beside its
// data folder) into the records folder dir: every record must pass check
// where it lies, be named as run names it (<feature>-<hardware>-<date>[-N],
// its data folder data/<that name>), and not clash with a record or data
// folder of that name in dir that differs from it. Only the files the
// record names with their sha256 are copied (each hashed again as it is
// copied), the data folder first, under a temporary name, then the record;
// a placed record is checked again where it lands, and removed with its
// data folder if it fails. Records are taken in the order given; a record
// is refused without stopping the others.
func Gather(dir string, sources []string, cache *CheckCache) ([]Gathered, error) {
	var files []string
	for _, s := range sources {
		st, err := os.Lstat(s)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			files = append(files, s)
			continue
		}
		names, err := filepath.Glob(filepath.Join(s, "*.md"))
		if err != nil {
			return nil, err
		}
		// A folder's index (README.md, which index writes into a records
		// folder) is no record: gathering another clone's records folder
		// refused it and failed.
		names = slices.DeleteFunc(names, func(n string) bool { return filepath.Base(n) == IndexFile || safefs.IsTemp(filepath.Base(n)) })
		if len(names) == 0 {
			return nil, fmt.Errorf("%s holds no record (*.md)", termsafe.String(s))
		}
		files = append(files, names...)
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return nil, err
	}
	d, err := safefs.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	out := make([]Gathered, 0, len(files))
	for _, f := range files {
		out = append(out, gatherOne(d, f, cache))
	}
	return out, nil
}

// gatherOne gathers one record file into the folder d.
func gatherOne(d *safefs.Dir, src string, cache *CheckCache) Gathered {
	g := Gathered{Source: src, Action: GatherRefused}
	refuse := func(format string, args ...any) Gathered {
		g.Why = append(g.Why, fmt.Sprintf(format, args...))
		return g
	}
	b, err := safefs.ReadFile(src, safefs.MaxRecord)
	if err != nil {
		return refuse("%s", termsafe.String(err.Error()))
	}
	rec, err := recorder.Parse(bytes.NewReader(b))
	if err != nil {
		return refuse("not a record: %s", termsafe.String(err.Error()))
	}
	g.Rec = rec
	g.Stem = strings.TrimSuffix(filepath.Base(src), ".md")
	if _, err := recorder.ParseStem(g.Stem, rec.Feature); err != nil || !strings.HasPrefix(g.Stem, rec.Feature+"-"+rec.Hardware+"-"+rec.Date) {
		return refuse("the file name %s is not the record's own (%s-%s-%s[-N])", termsafe.String(g.Stem), termsafe.String(rec.Feature), termsafe.String(rec.Hardware), termsafe.String(rec.Date))
	}
	if rec.DataDir != "data/"+g.Stem {
		return refuse("its data folder is %s, not data/%s", termsafe.String(rec.DataDir), g.Stem)
	}
	if probs := CheckAll([]string{src}, cache)[0].Problems; len(probs) > 0 {
		for _, p := range probs {
			g.Why = append(g.Why, "check: "+p.String())
		}
		return g
	}
	name, dataRel := g.Stem+".md", "data/"+g.Stem
	g.Dest = filepath.Join(d.Path(), name)
	if old, err := d.ReadFile(name, safefs.MaxRecord); err == nil {
		if !bytes.Equal(old, b) {
			return refuse("%s is already in %s with other content", name, termsafe.String(d.Path()))
		}
		if probs := CheckAll([]string{g.Dest}, cache)[0].Problems; len(probs) > 0 {
			return refuse("the same record is already in %s but fails check there: %s", termsafe.String(d.Path()), probs[0])
		}
		g.Action = GatherAlready
		return g
	} else if !errors.Is(err, fs.ErrNotExist) {
		return refuse("%s in %s: %s", name, termsafe.String(d.Path()), termsafe.String(err.Error()))
	}
	placedData := false
	if _, err := os.Lstat(filepath.Join(d.Path(), dataRel)); errors.Is(err, fs.ErrNotExist) {
		if err := copyData(d, src, rec, g.Stem); err != nil {
			return refuse("copying its data folder: %s", termsafe.String(err.Error()))
		}
		placedData = true
	}
	if err := d.CreateFile(name, b, 0o644); err != nil {
		if placedData {
			_ = os.RemoveAll(filepath.Join(d.Path(), dataRel))
		}
		return refuse("%s", termsafe.String(err.Error()))
	}
	if probs := CheckAll([]string{g.Dest}, cache)[0].Problems; len(probs) > 0 {
		_ = d.Remove(name)
		if placedData {
			_ = os.RemoveAll(filepath.Join(d.Path(), dataRel))
		}
		why := "fails check where it would land"
		if !placedData {
			why = dataRel + " is already in " + termsafe.String(d.Path()) + " and the record fails check with it"
		}
		return refuse("%s: %s", why, probs[0])
	}
	g.Action = GatherPlaced
	return g
}

// copyData copies the files rec names (by sha256) from its data folder
// beside src, and its campaign state, into d's data/<stem>, through a
// temporary folder renamed into place; a file whose sha256 is not the one
// named stops the copy.
func copyData(d *safefs.Dir, src string, rec *schema.Record, stem string) error {
	from, err := recorder.OpenData(src, rec)
	if err != nil {
		return err
	}
	defer from.Close()
	data, err := d.Sub("data", true)
	if err != nil {
		return err
	}
	defer data.Close()
	var r [8]byte
	_, _ = rand.Read(r[:])
	tmp := "." + stem + ".gather-" + hex.EncodeToString(r[:])
	if err := data.MkdirNew(tmp); err != nil {
		return err
	}
	tmpPath := filepath.Join(data.Path(), tmp)
	ok := false
	defer func() {
		if !ok {
			_ = os.RemoveAll(tmpPath)
		}
	}()
	stage, err := data.Sub(tmp, false)
	if err != nil {
		return err
	}
	defer stage.Close()
	for _, f := range rec.Files {
		b, err := from.ReadFile(f.Path, safefs.MaxDataFile)
		if err != nil {
			return err
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != f.SHA256 {
			return fmt.Errorf("%s changed since it was checked", termsafe.String(f.Path))
		}
		if err := stage.CreateFile(f.Path, b, 0o644); err != nil {
			return err
		}
	}
	// The campaign state, which the record does not name (it is written
	// as the campaign starts, and again at its looks) and check holds the
	// record's engines, models and variables to: without it those checks
	// could not be made, and a record started since stateRequired fails.
	if b, err := from.ReadFile(campaignStateFile, maxCampaignState); err == nil {
		if err := stage.CreateFile(campaignStateFile, b, 0o644); err != nil {
			return err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Rename(tmpPath, filepath.Join(data.Path(), stem)); err != nil {
		return err
	}
	ok = true
	return nil
}

// GatherMarkdown is what Gather did, as a Markdown table for a job
// summary: one row per record given. A refused record's verdict is not
// shown: it may fail check, and its verdict then is only what it claims
// (FailsCheck, as the index says).
func GatherMarkdown(gs []Gathered) string {
	var b strings.Builder
	b.WriteString("| record | hardware | verdict | gathered |\n|---|---|---|---|\n")
	for _, g := range gs {
		name, hw, verdict := filepath.Base(g.Source), "—", "—"
		if g.Rec != nil {
			hw = cellCode(g.Rec.Hardware)
		}
		if g.Rec != nil && g.Action != GatherRefused {
			verdict = string(g.Rec.Verdict)
		}
		what := string(g.Action)
		if len(g.Why) > 0 {
			what += ": " + strings.Join(g.Why, "; ")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cellCode(name), hw, cellText(verdict), cellText(what))
	}
	return b.String()
}
