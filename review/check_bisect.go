package review

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// bisectStateFile is the bisect's resume state, which changes on every
// step and is no evidence (bisect.StateFile).
const bisectStateFile = "bisect.json"

// checkBisect lints a bisect summary: its Markdown is what its data block
// renders to; the build logs it names have the sha256 it names; every
// campaign it links is a record in its data folder that passes Check, and
// classifying that record again (analysis.ClassifyStep, with the summary's
// arms and threshold) gives what the summary says; each step's class is
// its last campaign's (or a failed build); the outcome is what the
// steps' classes give (analysis.ConcludeBisect); and the data folder
// holds nothing else.
func checkBisect(summaryPath string, src []byte) []Problem {
	b, err := recorder.ParseBisect(src)
	if err != nil {
		return []Problem{{"Data", err.Error()}}
	}
	var probs []Problem
	add := func(section, format string, args ...any) {
		probs = append(probs, Problem{section, fmt.Sprintf(format, args...)})
	}
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
	base := filepath.Dir(summaryPath)
	dataDir := filepath.Join(base, filepath.FromSlash(dd))

	allowed := map[string]bool{bisectStateFile: true}
	d, err := safefs.OpenDir(dataDir)
	if err != nil {
		add("Data", "data folder: %v", err)
		return probs
	}
	defer d.Close()
	for _, f := range b.Files {
		clean := path.Clean(f.Path)
		if clean != f.Path || path.IsAbs(f.Path) || strings.HasPrefix(clean, "../") {
			add("Data", "file %q is not a plain path inside the data folder", f.Path)
			continue
		}
		allowed[f.Path] = true
		bs, err := d.ReadFile(f.Path, safefs.MaxDataFile)
		if err != nil {
			add("Data", "%v", err)
			continue
		}
		if sum := sha256.Sum256(bs); hex.EncodeToString(sum[:]) != f.SHA256 {
			add("Data", "%s has sha256 %.12s, the summary names %.12s: changed after the summary was written", f.Path, hex.EncodeToString(sum[:]), f.SHA256)
		}
	}

	inRange := map[string]bool{}
	for _, c := range b.Commits {
		inRange[c.SHA] = true
	}
	steps := b.Steps
	if b.Pending != nil {
		steps = append(append([]schema.BisectStep{}, steps...), *b.Pending)
	}
	seen := map[string]bool{}
	linked := map[string]bool{} // step records' folders, relative to the data folder
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
			recPath := filepath.Join(base, filepath.FromSlash(c.Record))
			for _, p := range Check(recPath) {
				add(sec, "record %s: %s", rel, p)
			}
			rec, err := recorder.ParseFile(recPath)
			if err != nil {
				continue // reported by Check
			}
			fresh := analysis.ClassifyStep(rec, b.Reference, b.Candidate, b.Threshold)
			fresh.Record, fresh.Rounds = c.Record, c.Rounds
			x, _ := json.Marshal(c)
			y, _ := json.Marshal(fresh)
			if !bytes.Equal(x, y) {
				add(sec, "record %s classifies as %s (%s), the summary says %s: %s", rel, fresh.Class, dashIf(string(fresh.Why)), c.Class, firstDifference(c, fresh))
			}
			if rec.Feature != b.Feature {
				add(sec, "record %s is of feature %s, the bisect of %s", rel, rec.Feature, b.Feature)
			}
			probs = append(probs, checkStepScenario(sec, rel, recPath, rec, b.ScenarioHash, c.Rounds)...)
			for _, side := range []struct{ role, arm, commit string }{{"reference", b.Reference, b.Good}, {"candidate", b.Candidate, st.Commit}} {
				if sc := rec.EngineOf(side.arm).SourceCommit; sc != "" && sc != side.commit {
					add(sec, "record %s: the %s arm %s ran a build of %.12s, not of %.12s", rel, side.role, side.arm, sc, side.commit)
				}
			}
		}
		if pending {
			continue
		}
		switch {
		case !st.Build.OK && (st.Class != schema.ClassBuildFailed || len(st.Campaigns) > 0):
			add(sec, "the build failed, so the commit is %s with no campaign, not %s", schema.ClassBuildFailed, st.Class)
		case st.SameBuild != nil && (st.Class != schema.ClassGood || len(st.Campaigns) > 0):
			add(sec, "it built the good commit's engine again, so it is %s with no campaign, not %s", schema.ClassGood, st.Class)
		case st.SameBuild != nil && !isHex(st.SameBuild.SHA256, 64):
			add(sec, "the engine it built again names no sha256 (%q)", st.SameBuild.SHA256)
		case st.SameBuild != nil:
		case st.Build.OK && len(st.Campaigns) == 0:
			add(sec, "the build succeeded but no campaign is linked")
		case st.Build.OK && st.Campaigns[len(st.Campaigns)-1].Class != st.Class:
			add(sec, "class %s, but its last campaign's is %s", st.Class, st.Campaigns[len(st.Campaigns)-1].Class)
		}
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
	if fresh.Result != b.Outcome.Result || fresh.FirstBad != b.Outcome.FirstBad || !slices.Equal(fresh.Among, b.Outcome.Among) {
		add("Summary", "outcome %s %.12s, but the steps' classes give %s %.12s (among %d commit(s))", b.Outcome.Result, b.Outcome.FirstBad, fresh.Result, fresh.FirstBad, len(fresh.Among))
	}

	_ = filepath.WalkDir(dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dataDir, p)
		rel = filepath.ToSlash(rel)
		if allowed[rel] {
			return nil
		}
		if linked[rel] {
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

// checkStepScenario checks that a step's record ran the bisect's scenario:
// its stored scenario, read without the record's overrides, has the
// bisect's hash, and the only override is the step's rounds.
func checkStepScenario(sec, rel, recPath string, rec *schema.Record, hash string, rounds int) []Problem {
	var probs []Problem
	for _, o := range rec.Scenario.Overrides {
		if o != scenarios.RoundsOverride(rounds) {
			probs = append(probs, Problem{sec, fmt.Sprintf("record %s ran with override %q; a bisect step overrides only its rounds (%d)", rel, o, rounds)})
		}
	}
	dataDir, err := recorder.DataPath(recPath, rec)
	if err != nil {
		return probs // reported by Check
	}
	src, err := safefs.ReadFile(filepath.Join(dataDir, recorder.ScenarioFile), scenarios.MaxScenarioBytes)
	if err != nil {
		return probs // reported by Check
	}
	s, _, err := scenarios.Parse(recorder.ScenarioFile, dataDir, src, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt})
	if err == nil && s.Hash() != hash {
		probs = append(probs, Problem{sec, fmt.Sprintf("record %s ran scenario %.12s, the bisect %.12s", rel, s.Hash(), hash)})
	}
	return probs
}
