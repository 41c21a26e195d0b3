package review

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// bisectStateFile is the bisect's resume state, which changes on every
// step and is no evidence (bisect.StateFile).
const bisectStateFile = "bisect.json"

// checkBisect lints a bisect summary: its Markdown is what its data block
// renders to; the build logs it names have the sha256 it names, and every
// build it states is backed by its commit's log (checkBuilds); every
// campaign it links is a record of its data folder's steps/ that passes
// check, and classifying that record again (analysis.ClassifyStep, with
// the summary's arms and threshold) gives what the summary says
// (checkCampaign); each step's campaigns and class are what the search
// runs and concludes (checkStepClass), and each step measured the commit
// the search picks after the steps before it (analysis.NextBisectCommit);
// the outcome is what the steps' classes give (analysis.ConcludeBisect);
// the resume state beside it agrees on what the bisect is, its threshold
// included, and on its steps (checkBisectState); and the data folder
// holds nothing else.
//
// A linked record that is itself a bisect summary is refused, not
// followed, and each linked file is checked once, however many campaigns
// or names lead to it (links, kept for a whole Check, CheckAll or
// Index): check's work is linear in the files it is given.
func checkBisect(summaryPath string, src []byte, links *identityMemo) []Problem {
	b, err := recorder.ParseBisect(src)
	if err != nil {
		return []Problem{{"Data", err.Error()}}
	}
	var probs []Problem
	add := func(section, format string, args ...any) {
		probs = append(probs, Problem{section, fmt.Sprintf(format, args...)})
	}
	probs = append(probs, checkSecrets("the summary", b)...)
	var md bytes.Buffer
	if err := recorder.BisectMarkdown(&md, b); err != nil {
		add("Data", "%v", err)
	} else if !bytes.Equal(md.Bytes(), src) {
		add("Summary", "the Markdown differs from what its data block renders to (line %d): edited by hand?", firstLineDiff(md.Bytes(), src))
	}
	dd := path.Clean(b.DataDir)
	if b.DataDir == "" || path.IsAbs(b.DataDir) || dd != b.DataDir || strings.HasPrefix(dd, "../") || dd == ".." {
		add("Data", "data folder %q must be a plain relative path inside the summary's folder", b.DataDir)
		return probs
	}
	if want := "data/" + strings.TrimSuffix(filepath.Base(summaryPath), ".md"); dd != want {
		// Bisect writes <stem>.md beside data/<stem>: a summary naming
		// another folder would check another summary's evidence again.
		add("Data", "data folder %q is not %s, the folder bisect writes beside the summary", b.DataDir, want)
		return probs
	}
	base := filepath.Dir(summaryPath)
	dataDir := filepath.Join(base, filepath.FromSlash(dd))

	d, err := safefs.OpenDir(dataDir)
	if err != nil {
		add("Data", "data folder: %v", err)
		return probs
	}
	defer d.Close()
	probs = append(probs, checkBisectState(d, b)...)
	allowed, named, present := map[string]bool{bisectStateFile: true}, map[string]bool{}, map[string]bool{}
	for _, f := range b.Files {
		clean := path.Clean(f.Path)
		if clean != f.Path || path.IsAbs(f.Path) || strings.HasPrefix(clean, "../") {
			add("Data", "file %q is not a plain path inside the data folder", f.Path)
			continue
		}
		if named[f.Path] {
			add("Data", "the summary names %s more than once", f.Path)
			continue
		}
		allowed[f.Path], named[f.Path] = true, true
		sum, err := links.sha256Of(d, f.Path, safefs.MaxDataFile)
		if err != nil {
			add("Data", "%v", err)
			continue
		}
		if sum != f.SHA256 {
			add("Data", "%s has sha256 %.12s, the summary names %.12s: changed after the summary was written", f.Path, sum, f.SHA256)
			continue
		}
		present[f.Path] = true
	}

	inRange := map[string]bool{}
	for _, c := range b.Commits {
		if inRange[c.SHA] {
			add("Range", "commit %.12s is in the range twice", c.SHA)
		}
		inRange[c.SHA] = true
	}
	steps := b.Steps
	if b.Pending != nil {
		steps = append(append([]schema.BisectStep{}, steps...), *b.Pending)
	}
	probs = append(probs, checkBuilds(b, steps, named, present)...)
	var stepsDir *safefs.Dir
	if slices.ContainsFunc(steps, func(st schema.BisectStep) bool { return len(st.Campaigns) > 0 }) {
		if stepsDir, err = d.Sub("steps", false); err != nil {
			add("Data", "the steps' records: %v", err)
		}
		defer stepsDir.Close()
	}
	seen := map[string]bool{}
	linked := map[string]bool{}   // step records' folders, relative to the data folder
	first := map[linkKey]string{} // each linked file, the first campaign's name for it
	for i, st := range steps {
		sec := fmt.Sprintf("Step %d", st.N)
		pending := b.Pending != nil && i == len(steps)-1
		if st.N != i+1 {
			add(sec, "numbered %d, but it is step %d", st.N, i+1)
		}
		if !inRange[st.Commit] {
			add(sec, "commit %.12s is not in the range", st.Commit)
		}
		if seen[st.Commit] {
			add(sec, "commit %.12s was measured by an earlier step too", st.Commit)
		}
		seen[st.Commit] = true
		for _, c := range st.Campaigns {
			rel, ok := strings.CutPrefix(c.Record, dd+"/steps/")
			if !ok || path.Clean(c.Record) != c.Record || strings.Contains(rel, "/") || !strings.HasSuffix(rel, ".md") {
				add(sec, "record %q is not a record of the data folder's steps/", c.Record)
				continue
			}
			stem := strings.TrimSuffix(rel, ".md")
			linked["steps/"+rel], linked["steps/data/"+stem] = true, true
			if stepsDir == nil {
				continue
			}
			e, key, err := links.record(stepsDir, rel, filepath.Join(base, filepath.FromSlash(c.Record)))
			switch {
			case err != nil:
				add(sec, "record %s: %s", rel, Problem{"Record", err.Error()})
				continue
			case first[key] != "":
				add(sec, "record %s is linked by an earlier campaign too (as %s): each campaign has its own record", rel, first[key])
				continue
			}
			first[key] = rel
			probs = append(probs, e.checkCampaign(sec, rel, c, b, st.Commit)...)
		}
		probs = append(probs, checkStepClass(sec, st, pending)...)
	}
	if len(inRange) == len(b.Commits) {
		probs = append(probs, checkSearch(b, steps)...)
	}

	shas := make([]string, len(b.Commits))
	for i, c := range b.Commits {
		shas[i] = c.SHA
	}
	classes := map[string]schema.BisectClass{}
	for _, st := range b.Steps {
		classes[st.Commit] = st.Class
	}
	fresh := analysis.ConcludeBisect(shas, classes)
	if b.Outcome.Result == schema.OutOfTime && fresh.Result == schema.Unfinished {
		fresh.Result = schema.OutOfTime
	}
	if b.Outcome.Result == schema.BadNotBad && (fresh.Result == schema.BadBuildFailed || fresh.Result == schema.BadUndecided) {
		// Written before those outcomes existed: bad-not-slower said them.
		fresh.Result = schema.BadNotBad
	}
	if fresh.Result != b.Outcome.Result || fresh.FirstBad != b.Outcome.FirstBad || !slices.Equal(fresh.Among, b.Outcome.Among) {
		add("Summary", "outcome %s %.12s, but the steps' classes give %s %.12s (among %d commit(s))", b.Outcome.Result, b.Outcome.FirstBad, fresh.Result, fresh.FirstBad, len(fresh.Among))
	}

	_ = filepath.WalkDir(dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil && p != dataDir { // the folder itself: its files' checks say it is gone
			pr := unwalkable(dataDir, p, err)
			add(pr.Section, "%s", pr.Message)
			return nil
		}
		if err != nil {
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dataDir, p)
		rel = filepath.ToSlash(rel)
		if allowed[rel] || linked[rel] {
			return nil
		}
		parts := strings.SplitN(rel, "/", 4)
		if len(parts) >= 3 && parts[0] == "steps" && parts[1] == "data" && linked["steps/data/"+parts[2]] {
			return nil // checked with its record
		}
		add("Data", "%s is in the data folder but the summary does not name it", rel)
		return nil
	})
	return probs
}

func dashIf(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// firstLineDiff is the 1-based number of the first line where a and b
// differ.
func firstLineDiff(a, b []byte) int {
	x, y := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(x), len(y)) {
		if x[i] != y[i] {
			return i + 1
		}
	}
	return min(len(x), len(y)) + 1
}
