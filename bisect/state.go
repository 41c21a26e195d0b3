package bisect

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// StateFile is the bisect's resume state in its data folder: everything a
// resume needs (the repository, the scenario, the work folder, the time
// spent) and the summary so far. It changes on every step and is not part
// of the summary's evidence.
const StateFile = "bisect.json"

// maxStateBytes bounds what readState reads.
const maxStateBytes = 16 << 20

type state struct {
	// Source is the repository's folder, absolute.
	Source string `json:"source"`
	// ScenarioPath is absolute (or embedded:NAME).
	ScenarioPath string `json:"scenario_path"`
	// WorkDir holds the worktrees.
	WorkDir string `json:"work_dir"`
	// MaxSeconds is --max-time; Elapsed the seconds spent so far, over
	// every resume.
	MaxSeconds float64 `json:"max_seconds"`
	Elapsed    float64 `json:"elapsed"`
	// BaseRounds is the scenario's rounds per arm; an undecided campaign
	// is followed by one with twice as many.
	BaseRounds int           `json:"base_rounds"`
	Summary    schema.Bisect `json:"summary"`
}

func writeState(dataDir string, st *state) error {
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if err := writeIn(dataDir, StateFile, b); err != nil {
		return fmt.Errorf("bisect state: %w", err)
	}
	// A resume given the same --build takes it for a yes only in a state
	// this user's decodebench wrote (ResumePlan.Owned).
	harness.NoteOwnedState(dataDir, b)
	return nil
}

// writeIn writes rel (slash-separated) under dataDir atomically: created
// exclusively beside its target and renamed over it, never through a
// link (safefs).
func writeIn(dataDir, rel string, b []byte) error {
	d, err := safefs.OpenDir(dataDir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.WriteFile(rel, b, 0o644)
}

// readState reads the state strictly (a field this decodebench does not
// write is refused, never ignored) and checks every value a resume would
// act on (parseState); it returns the file's bytes too.
func readState(dataDir string) (*state, []byte, error) {
	file := filepath.Join(dataDir, StateFile)
	b, err := safefs.ReadFile(file, maxStateBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%s: not a bisect's data folder: %w", dataDir, err)
	}
	if err != nil {
		return nil, nil, err // it names the file
	}
	st, err := parseState(b, filepath.Base(dataDir))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	return st, b, nil
}

// parseState decodes a state strictly and checks it (state.check) as the
// state of the data folder named stem.
func parseState(b []byte, stem string) (*state, error) {
	var st state
	if err := safefs.DecodeJSON(b, &st); err != nil {
		return nil, err
	}
	if err := st.check(stem); err != nil {
		return nil, err
	}
	return &st, nil
}

// fullHash is a full commit id (SHA-1 or SHA-256), as git prints it.
var fullHash = regexp.MustCompile(`^([0-9a-f]{40}|[0-9a-f]{64})$`)

// check refuses a state (of the data folder named stem) whose values a
// resume could not have been left by a bisect: every commit a full commit
// id, of the range, each measured once; every path it names absolute and
// clean (the repository, the scenario, the work folder), or (the steps'
// records, the build logs) a plain path inside the data folder, named as
// the bisect names them; the summary's names those of the data folder;
// the numbers in their ranges. A commit is a commit of the repository
// and the scenario the bisect's only once checkResume has asked git and
// loaded it.
func (st *state) check(stem string) error {
	sum := &st.Summary
	if sum.Schema != schema.BisectSchema {
		return fmt.Errorf("schema %q, want %q", sum.Schema, schema.BisectSchema)
	}
	for _, p := range []struct{ what, path string }{{"source", st.Source}, {"work_dir", st.WorkDir}, {"scenario_path", st.ScenarioPath}} {
		if p.what == "scenario_path" && strings.HasPrefix(p.path, "embedded:") {
			continue
		}
		if !filepath.IsAbs(p.path) || filepath.Clean(p.path) != p.path {
			return fmt.Errorf("%s %q is not an absolute, clean path", p.what, p.path)
		}
	}
	for _, x := range []float64{st.MaxSeconds, st.Elapsed, sum.Threshold} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("a time or threshold of %v", x)
		}
	}
	if st.BaseRounds < 1 || st.BaseRounds > scenarios.MaxRounds {
		return fmt.Errorf("base_rounds %d: want 1 to %d", st.BaseRounds, scenarios.MaxRounds)
	}
	if sum.Threshold <= 0 || sum.Threshold >= 1 {
		return fmt.Errorf("threshold %v: want a fraction between 0 and 1", sum.Threshold)
	}
	if s, err := recorder.ParseStem(stem, "bisect-"+sum.Feature); err != nil || s.Hardware != sum.Hardware || s.Date != sum.Date {
		return fmt.Errorf("feature %q, hardware %q and date %q do not name the data folder %s", sum.Feature, sum.Hardware, sum.Date, stem)
	}
	if want := "data/" + stem; sum.DataDir != want {
		return fmt.Errorf("data_dir %q, want %q", sum.DataDir, want)
	}
	if sum.Build == "" || sum.Reference == "" || sum.Candidate == "" || sum.Reference == sum.Candidate {
		return errors.New("no build command, or no reference and candidate arms")
	}
	return st.checkCommits()
}

// checkCommits checks the range, the steps and the pending step.
func (st *state) checkCommits() error {
	sum := &st.Summary
	if !fullHash.MatchString(sum.Good) || !fullHash.MatchString(sum.Bad) {
		return fmt.Errorf("good %q and bad %q: want full commit ids", sum.Good, sum.Bad)
	}
	if err := checkLog(sum.ReferenceBuild.Log, "reference-"+short(sum.Good)); err != nil {
		return err
	}
	inRange := map[string]bool{}
	for _, c := range sum.Commits {
		if !fullHash.MatchString(c.SHA) || inRange[c.SHA] || c.SHA == sum.Good {
			return fmt.Errorf("commit %q of the range: want a full commit id, once, not the good one", c.SHA)
		}
		inRange[c.SHA] = true
	}
	if n := len(sum.Commits); n == 0 || sum.Commits[n-1].SHA != sum.Bad {
		return errors.New("the range does not end at the bad commit")
	}
	steps := sum.Steps
	if sum.Pending != nil {
		steps = append(append([]schema.BisectStep{}, steps...), *sum.Pending)
	}
	seen := map[string]bool{}
	for i, s := range steps {
		if s.N != i+1 {
			return fmt.Errorf("step %d is numbered %d", i+1, s.N)
		}
		if !inRange[s.Commit] || seen[s.Commit] {
			return fmt.Errorf("step %d's commit %q: want a commit of the range, measured once", s.N, s.Commit)
		}
		seen[s.Commit] = true
		if err := checkLog(s.Build.Log, short(s.Commit)); err != nil {
			return fmt.Errorf("step %d: %w", s.N, err)
		}
		for _, c := range s.Campaigns {
			if err := st.checkCampaign(c); err != nil {
				return fmt.Errorf("step %d: %w", s.N, err)
			}
		}
	}
	for _, f := range sum.Files {
		if rel, ok := strings.CutPrefix(f.Path, buildsDir+"/"); !ok || !plainName(rel) {
			return fmt.Errorf("file %q is not a build log of the data folder", f.Path)
		}
	}
	return nil
}

// checkCampaign: a step's campaign is a record of the data folder's
// steps/, of the scenario's rounds or twice them.
func (st *state) checkCampaign(c schema.BisectCampaign) error {
	rel, ok := strings.CutPrefix(c.Record, st.Summary.DataDir+"/steps/")
	if !ok || !plainName(rel) || !strings.HasSuffix(rel, ".md") {
		return fmt.Errorf("record %q is not a record of the data folder's steps/", c.Record)
	}
	if c.Rounds != st.BaseRounds && c.Rounds != 2*st.BaseRounds {
		return fmt.Errorf("record %s ran %d rounds; a step runs %d or %d", c.Record, c.Rounds, st.BaseRounds, 2*st.BaseRounds)
	}
	return nil
}

// checkLog: a build's log is builds/<name>.log, or none (not built yet).
func checkLog(log, name string) error {
	if log != "" && log != buildsDir+"/"+name+".log" {
		return fmt.Errorf("build log %q, want %s/%s.log", log, buildsDir, name)
	}
	return nil
}

// maxElapsed is more time than a bisect spends: a state that says it
// spent more was written by one killed in its first step before its
// clock had started (the time since the zero time, 292 years).
const maxElapsed = 366 * 24 * 3600

// clampElapsed takes an implausible time spent (over maxElapsed) as the
// time the steps recorded, and says so: the bisect can resume, where it
// would otherwise be out of time at once, every time.
func (p *ResumePlan) clampElapsed() {
	sum := &p.st.Summary
	if p.st.Elapsed <= maxElapsed {
		return
	}
	spent := sum.ReferenceBuild.Seconds
	steps := sum.Steps
	if sum.Pending != nil {
		steps = append(append([]schema.BisectStep{}, steps...), *sum.Pending)
	}
	for _, s := range steps {
		spent += s.Seconds
	}
	p.Notes = append(p.Notes, fmt.Sprintf("the state says %.0f s were spent, more than a bisect spends (one killed in its first step wrote that): --max-time counts %.1f s instead, the time its steps recorded", p.st.Elapsed, spent))
	p.st.Elapsed = spent
}

// plainName is one file name: no folder, not hidden, clean.
func plainName(name string) bool {
	return name != "" && !strings.ContainsAny(name, `/\`) && !strings.HasPrefix(name, ".") && path.Clean(name) == name
}
