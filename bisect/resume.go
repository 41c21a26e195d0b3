package bisect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A ResumePlan is an interrupted bisect before it resumes: its state read
// from the data folder and checked against its summary, its repository
// and its scenario, for a person to see (WritePlan) and allow before Run
// builds or runs anything. bisect.json is a file in a folder that may
// come from someone else, and names a command to run.
type ResumePlan struct {
	// DataDir is the bisect's data folder, SummaryPath its summary.
	DataDir, SummaryPath string
	// Scenario is what each step runs, its arms' ${REFERENCE_DIR} and
	// ${CANDIDATE_DIR} left as written.
	Scenario *scenarios.Scenario
	// SameBuild is set when the build command was given again and is the
	// one the bisect started with: the person resuming asked for it.
	SameBuild bool
	// Owned is set when bisect.json is the state this user's decodebench
	// last wrote in the data folder (harness.OwnedState): the bisect this
	// user started on this machine, unchanged since. The same --build is
	// a yes only then: it asks for the build, and a state received or
	// edited names a repository and a scenario whose engine and version
	// commands it does not name.
	Owned bool
	// ReuseWork is set when the bisect's work folder still holds the good
	// commit's worktree, as its repository lists it; otherwise Run puts
	// the worktrees in a new temporary folder.
	ReuseWork bool
	// Notes say what the resume corrects in the state before it goes on.
	Notes []string
	// Leftovers are the worktrees a killed run left in the bisect's work
	// folder (leftoverWorktrees): Run removes them, after it has killed
	// the build that run left running.
	Leftovers []string

	st    *state
	raw   []byte
	build string
}

// PrepareResume reads an interrupted bisect's data folder
// (<out>/data/<stem>, summary <out>/<stem>.md) without running anything
// but git in its repository (engine.GitEnv: nothing the repository's
// configuration names runs). It refuses a state that its bisect could not
// have written (state.check), one that disagrees with the summary on what
// the bisect is (its range, build command, scenario, arms, threshold), a
// range that is not the repository's (every commit a commit of it, as git
// lists good..bad), and a scenario that is not the one the bisect started
// with. build is the build command given again (--build): needed when it
// held a secret, which is not stored, and refused when it is not the
// stored one.
func PrepareResume(ctx context.Context, dataDir, build string) (*ResumePlan, error) {
	dataDir, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, err
	}
	if filepath.Base(filepath.Dir(dataDir)) != "data" {
		return nil, fmt.Errorf("%s: a bisect's data folder is <out>/data/<name>", dataDir)
	}
	st, raw, err := readState(dataDir)
	if err != nil {
		return nil, err
	}
	p := &ResumePlan{DataDir: dataDir, SummaryPath: filepath.Join(filepath.Dir(filepath.Dir(dataDir)), filepath.Base(dataDir)+".md"), st: st, raw: raw,
		Owned: harness.OwnedBytes(dataDir, raw)}
	if err := p.agreesWithSummary(); err != nil {
		return nil, err
	}
	if p.Scenario, err = p.checkScenario(); err != nil {
		return nil, err
	}
	// The build command and the commits' subjects are masked as the
	// bisect masked them: through the scenario's campaign's redactor.
	if err := p.takeBuild(build); err != nil {
		return nil, err
	}
	if err := p.checkRepository(ctx); err != nil {
		return nil, err
	}
	p.clampElapsed()
	// A work folder is the bisect's own only where the bisect made it
	// (os.MkdirTemp's decodebench-bisect-*): one a received bisect.json
	// names elsewhere is left as it is, its files, worktrees and pid file
	// untouched, and the resume works in a new one.
	if st.ownWork() {
		p.ReuseWork = registeredWorktree(ctx, st.Source, filepath.Join(st.WorkDir, "reference"), st.Summary.Good)
		p.Leftovers = leftoverWorktrees(ctx, st, p.ReuseWork)
	}
	return p, nil
}

// agreesWithSummary refuses a state that says another bisect than its
// summary (the file check vouches for): the steps may differ (a crash
// between writing the two), what the bisect is may not.
func (p *ResumePlan) agreesWithSummary() error {
	src, err := safefs.ReadFile(p.SummaryPath, safefs.MaxRecord)
	if err != nil {
		return fmt.Errorf("the bisect's summary: %w", err)
	}
	sum, err := recorder.ParseBisect(src)
	if err != nil {
		return fmt.Errorf("%s: %w", p.SummaryPath, err)
	}
	a, _ := json.Marshal(identity(p.st.Summary))
	b, _ := json.Marshal(identity(*sum))
	if !bytes.Equal(a, b) {
		return fmt.Errorf("%s and %s disagree on what the bisect is (its range, build command, scenario, arms or threshold)", filepath.Join(p.DataDir, StateFile), p.SummaryPath)
	}
	return nil
}

// identity is what a bisect is, less where it stands.
func identity(b schema.Bisect) schema.Bisect {
	b.ReferenceBuild, b.Steps, b.Pending, b.Outcome, b.Files = schema.BisectBuild{}, nil, nil, schema.BisectOutcome{}, nil
	return b
}

// takeBuild takes the build command given again, or the stored one.
func (p *ResumePlan) takeBuild(build string) error {
	stored := p.st.Summary.Build
	if build == "" {
		if strings.Contains(stored, redact.Mask) {
			return fmt.Errorf("the build command held a secret, which the bisect did not store: give it again with --build")
		}
		p.build = stored
		return nil
	}
	b := &bisector{st: &state{}}
	b.setBuild(p.Scenario, build)
	if b.st.Summary.Build != stored {
		return fmt.Errorf("--build %q is not the command the bisect started with (%q)", b.st.Summary.Build, stored)
	}
	p.build, p.SameBuild = build, true
	return nil
}

// checkRepository refuses a range that is not the repository's: good and
// bad must be its commits, and git must list exactly the stored commits
// between them.
func (p *ResumePlan) checkRepository(ctx context.Context) error {
	sum := &p.st.Summary
	for _, sha := range []string{sum.Good, sum.Bad} {
		if got, err := resolve(ctx, p.st.Source, sha); err != nil || got != sha {
			return fmt.Errorf("%s is not a commit of the bisect's repository %s (%v)", sha, p.st.Source, err)
		}
	}
	commits, err := rangeCommits(ctx, p.st.Source, sum.Good, sum.Bad)
	if err != nil {
		return err
	}
	a, _ := json.Marshal(maskSubjects(p.Redactor(), commits))
	b, _ := json.Marshal(sum.Commits)
	if !bytes.Equal(a, b) {
		return fmt.Errorf("the commits from %.12s to %.12s in %s are not the ones the bisect lists", sum.Good, sum.Bad, p.st.Source)
	}
	return nil
}

// checkScenario loads the scenario (its worktree variables left as
// written) and refuses one that is not the bisect's: another meaning,
// other arms, other rounds. The state that names it may be anyone's, and
// name any file of this machine: a load's messages are withheld, as they
// may quote it (scenarios.Errors.Withheld).
func (p *ResumePlan) checkScenario() (*scenarios.Scenario, error) {
	sum := &p.st.Summary
	s, _, err := loadStep(p.st.ScenarioPath, "${"+CandidateVar+"}", "${"+ReferenceVar+"}", nil)
	var errs scenarios.Errors
	if errors.As(err, &errs) {
		return nil, fmt.Errorf("%w\n(%s is the file the bisect's state names: its messages are withheld, as they may quote it; decodebench validate %s shows them)",
			errs.Withheld(), p.st.ScenarioPath, p.st.ScenarioPath)
	}
	if err != nil {
		return nil, err
	}
	if s.Hash() != sum.ScenarioHash {
		return nil, fmt.Errorf("the scenario %s is not the one the bisect started with (hash %.12s, was %.12s)", s.Path, s.Hash(), sum.ScenarioHash)
	}
	ref, cand, err := bisectArms(s)
	if err != nil {
		return nil, err
	}
	if ref != sum.Reference || cand != sum.Candidate || baseRounds(s) != p.st.BaseRounds {
		return nil, fmt.Errorf("the scenario %s has arms %s and %s and %d rounds; the bisect, %s and %s and %d", s.Path, ref, cand, baseRounds(s), sum.Reference, sum.Candidate, p.st.BaseRounds)
	}
	return s, nil
}

// Redactor is the redactor the resumed bisect writes through (its
// campaign's, harness.NewRedactor, with the build command), for what the
// caller prints before it runs.
func (p *ResumePlan) Redactor() *redact.Redactor { return harness.NewRedactor(p.Scenario, p.build) }

// Finished reports whether the bisect has its outcome: a resume builds
// and runs nothing.
func (p *ResumePlan) Finished() bool {
	if p.st.Summary.Pending != nil {
		return false
	}
	sum := p.st.Summary
	_, done := nextCommit(&sum)
	return done
}

// Summary is the bisect as its state has it.
func (p *ResumePlan) Summary() *schema.Bisect { return &p.st.Summary }

// Run resumes the bisect: unless it is finished (then nothing is built,
// run or written), the pending step and the search go on. The state must
// still be what the plan read. opt.MaxTime, when set, replaces the
// bisect's --max-time.
func (p *ResumePlan) Run(ctx context.Context, opt Options) (*Outcome, error) {
	if p.Finished() {
		return &Outcome{Summary: p.Summary(), Path: p.SummaryPath, DataDir: p.DataDir}, nil
	}
	_, raw, err := readState(p.DataDir)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(raw, p.raw) {
		return nil, fmt.Errorf("%s changed since its plan was shown; nothing was built or run", filepath.Join(p.DataDir, StateFile))
	}
	st := p.st
	if opt.MaxTime > 0 {
		st.MaxSeconds = opt.MaxTime.Seconds()
	}
	if st.Summary.Outcome.Result == schema.OutOfTime {
		st.Summary.Outcome.Result = schema.Unfinished
	}
	p.clearLeftovers(ctx, func(format string, args ...any) {
		if w := opt.Harness.Progress; w != nil {
			fmt.Fprintf(w, "bisect: "+format+"\n", args...)
		}
	})
	if !p.ReuseWork {
		if st.WorkDir, err = os.MkdirTemp("", workPrefix); err != nil {
			return nil, err
		}
	}
	opt.Harness.Hardware, opt.Harness.Date = st.Summary.Hardware, st.Summary.Date
	b := &bisector{st: st, dataDir: p.DataDir, sumPath: p.SummaryPath, opt: opt}
	b.setBuild(p.Scenario, p.build)
	return b.search(ctx)
}

// registeredWorktree reports whether repo lists dir as one of its
// worktrees, checked out at sha.
func registeredWorktree(ctx context.Context, repo, dir, sha string) bool {
	out, err := git(ctx, repo, "worktree", "list", "--porcelain")
	if err != nil {
		return false
	}
	want := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		want = append(want, real)
	}
	for _, block := range strings.Split(out, "\n\n") {
		var path, head string
		for _, l := range strings.Split(block, "\n") {
			if v, ok := strings.CutPrefix(l, "worktree "); ok {
				path = v
			} else if v, ok := strings.CutPrefix(l, "HEAD "); ok {
				head = v
			}
		}
		for _, w := range want {
			if path == w && head == sha {
				if fi, err := os.Lstat(dir); err == nil && fi.IsDir() {
					return true
				}
			}
		}
	}
	return false
}
