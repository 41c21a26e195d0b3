// Package bisect finds the commit where a performance regression started:
// each step checks a commit out into its own git worktree, builds it, and
// runs the scenario as a full interleaved campaign (the harness's run path,
// as `decodebench run` takes it) with ${CANDIDATE_DIR} set to that
// worktree and ${REFERENCE_DIR} to the good commit's, built once. Each
// campaign is classified from its record (analysis.ClassifyStep) and the
// search narrows as `git bisect` does, skipping commits that do not build
// or stay undecided. A summary record with the evidence chain is written
// after every step, and an interrupted bisect resumes from its state.
package bisect

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// The variables each step sets for the scenario.
const (
	CandidateVar = "CANDIDATE_DIR"
	ReferenceVar = "REFERENCE_DIR"
)

// Config is a new bisect.
type Config struct {
	// Source is a folder of the repository's checkout; it is only read.
	Source    string
	Good, Bad string
	// Build is run with sh -c in each commit's worktree.
	Build string
	// Threshold is the slowdown (a fraction) past which a commit is bad.
	Threshold float64
	// MaxTime stops the search before a step would start past it; 0 is
	// no limit.
	MaxTime time.Duration
	// Scenario is a path or a shipped scenario's name.
	Scenario string
	// WorkDir holds the worktrees; a fresh temporary folder when empty. A
	// resume reuses and cleans it only where its name begins
	// decodebench-bisect- (as a temporary one's does).
	WorkDir string
}

// Options are what every step's campaign takes (harness.Options as
// `decodebench run` builds them; OutDir is where the summary goes, the
// steps' records go into its data folder) and where steps are reported.
type Options struct {
	Harness harness.Options
	// OnStep is called after each finished step.
	OnStep func(schema.BisectStep)
	// MaxTime, when set, replaces a resumed bisect's --max-time (counted
	// from its start, over every resume).
	MaxTime time.Duration
	// BuildTimeout bounds each build (0: no bound but --max-time's); a
	// build past it is killed whole and its commit skipped.
	BuildTimeout time.Duration
}

// Outcome is the summary written and where.
type Outcome struct {
	Summary *schema.Bisect
	Path    string
	DataDir string
	// Interrupted is set when the context ended before the search did.
	Interrupted bool
}

type bisector struct {
	st *state
	// build is the build command as given; the summary and the state
	// hold it with its secrets masked.
	build   string
	redact  *redact.Redactor
	dataDir string
	sumPath string
	opt     Options
	started time.Time
	// refBuilt is set once the good commit's worktree is built, in this
	// process: a resume builds it again only when a campaign is to run.
	refBuilt bool
}

// Run starts a bisect.
func Run(ctx context.Context, cfg Config, opt Options) (*Outcome, error) {
	src, err := filepath.Abs(cfg.Source)
	if err != nil {
		return nil, err
	}
	good, err := resolve(ctx, src, cfg.Good)
	if err != nil {
		return nil, fmt.Errorf("--good: %w", err)
	}
	bad, err := resolve(ctx, src, cfg.Bad)
	if err != nil {
		return nil, fmt.Errorf("--bad: %w", err)
	}
	commits, err := rangeCommits(ctx, src, good, bad)
	if err != nil {
		return nil, err
	}
	if cfg.Threshold <= 0 || cfg.Threshold >= 1 {
		return nil, fmt.Errorf("--threshold %v: want a slowdown between 0 and 100%%", cfg.Threshold)
	}
	scenarioPath := cfg.Scenario
	if _, err := os.Stat(scenarioPath); err == nil {
		if scenarioPath, err = filepath.Abs(scenarioPath); err != nil {
			return nil, err
		}
	}
	s, _, err := loadStep(scenarioPath, "/nonexistent/candidate", "/nonexistent/reference", nil)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(s.Path, "embedded:") {
		scenarioPath = s.Path // a shipped scenario, by the name a state gives it
	}
	ref, cand, err := bisectArms(s)
	if err != nil {
		return nil, err
	}
	hw := opt.Harness.Hardware
	if hw == "" && s.Hardware != "" && s.Hardware != "auto" {
		hw = s.Hardware
	}
	if hw == "" {
		id, _ := machine.Identify(ctx)
		hw = id.Slug
	}
	opt.Harness.Hardware = hw
	date := opt.Harness.Date
	if date == "" {
		date = time.Now().Format("2006-01-02")
	}
	opt.Harness.Date = date
	out := opt.Harness.OutDir
	if out == "" {
		out = filepath.Join("docs", "benchmark_results")
	}
	sumPath, dataDir, err := recorder.Reserve(out, "bisect-"+s.Feature, hw, date)
	if err != nil {
		return nil, err
	}
	work := cfg.WorkDir
	if work == "" {
		if work, err = os.MkdirTemp("", workPrefix); err != nil {
			return nil, err
		}
	}
	if work, err = filepath.Abs(work); err != nil {
		return nil, err
	}
	st := &state{
		Source: src, ScenarioPath: scenarioPath, WorkDir: work, MaxSeconds: cfg.MaxTime.Seconds(), BaseRounds: baseRounds(s),
		Summary: schema.Bisect{
			Schema: schema.BisectSchema, Feature: s.Feature, Hardware: hw, Date: date,
			Good: good, GoodRef: cfg.Good, Bad: bad, BadRef: cfg.Bad, Threshold: cfg.Threshold,
			ScenarioPath: s.Path, ScenarioHash: s.Hash(), Reference: ref, Candidate: cand,
			Commits: commits, Steps: []schema.BisectStep{}, Outcome: schema.BisectOutcome{Result: schema.Unfinished},
			DataDir: filepath.ToSlash(filepath.Join("data", filepath.Base(dataDir))),
		},
	}
	// The clock starts before the first save: the state never counts the
	// time since the zero time (a bisect killed in its first step could
	// never resume, out of time at once).
	b := &bisector{st: st, dataDir: dataDir, sumPath: sumPath, opt: opt, started: time.Now()}
	b.setBuild(s, cfg.Build)
	if err := b.save(); err != nil {
		return nil, err
	}
	return b.search(ctx)
}

// setBuild takes the build command: it is run as given, and stored (in
// the summary and the state) and its logs are kept through the campaign's
// redactor (harness.NewRedactor, the one each step's campaign writes
// through): the secrets the build command shows (a NAME=value whose name
// says it is a credential, a token flag's value, URL credentials), the
// scenario's, and those of the environment the build inherits, which a
// build may print (`export -p`, a configure step's summary). Each step's
// campaign learns the build command's secrets too, and the console masks
// them from now on. The commits' subjects are stored through it too.
func (b *bisector) setBuild(s *scenarios.Scenario, cmd string) {
	b.build = cmd
	b.redact = harness.NewRedactor(s, cmd)
	b.opt.Harness.Shell = []string{cmd}
	b.st.Summary.Build = b.redact.Text(cmd)
	b.st.Summary.Commits = maskSubjects(b.redact, b.st.Summary.Commits)
	if b.opt.Harness.LearnSecrets != nil {
		b.opt.Harness.LearnSecrets(b.redact)
	}
}

// maskSubjects returns the commits with their subjects (a commit's
// message, the repository's text: "rotate the key ghp_…") masked by r,
// as the summary and the state store them and a resume compares them.
func maskSubjects(r *redact.Redactor, cs []schema.BisectCommit) []schema.BisectCommit {
	out := make([]schema.BisectCommit, len(cs))
	for i, c := range cs {
		out[i] = schema.BisectCommit{SHA: c.SHA, Subject: r.Text(c.Subject)}
	}
	return out
}

// search runs steps until the outcome is decided, time runs out or the
// context ends. Nothing is built until a campaign is to run: resuming a
// finished bisect, or one whose pending step was decided, builds nothing.
func (b *bisector) search(ctx context.Context) (*Outcome, error) {
	if b.started.IsZero() {
		b.started = time.Now()
	}
	sum := &b.st.Summary
	for {
		if sum.Pending == nil {
			next, done := nextCommit(sum)
			if done {
				break
			}
			if b.outOfTime() {
				b.endOutOfTime()
				break
			}
			sum.Pending = &schema.BisectStep{N: len(sum.Steps) + 1, Commit: next}
		}
		err := b.step(ctx, sum.Pending)
		if errors.Is(err, errOutOfTime) {
			// A build cut short by --max-time: the step stays pending.
			b.endOutOfTime()
			break
		}
		if err != nil {
			return b.stopped(ctx, err)
		}
		step := *sum.Pending
		sum.Steps = append(sum.Steps, step)
		sum.Pending = nil
		if err := b.save(); err != nil {
			return nil, err
		}
		if b.opt.OnStep != nil {
			b.opt.OnStep(step)
		}
	}
	if err := b.save(); err != nil {
		return nil, err
	}
	b.removeReference()
	return &Outcome{Summary: sum, Path: b.sumPath, DataDir: b.dataDir}, nil
}

// errOutOfTime is --max-time reached while a step builds.
var errOutOfTime = errors.New("out of time")

// outOfTime reports whether --max-time has run out.
func (b *bisector) outOfTime() bool {
	return b.st.MaxSeconds > 0 && b.elapsed() >= b.st.MaxSeconds
}

// endOutOfTime concludes the search as --max-time leaves it.
func (b *bisector) endOutOfTime() {
	sum := &b.st.Summary
	sum.Outcome = analysis.ConcludeBisect(commitIDs(sum.Commits), classesOf(sum.Steps))
	sum.Outcome.Result = schema.OutOfTime
}

// refDir is the good commit's worktree.
func (b *bisector) refDir() string { return filepath.Join(b.st.WorkDir, "reference") }

// removeReference removes the good commit's worktree and the work folder
// (when empty). An interrupted bisect keeps them for its resume.
func (b *bisector) removeReference() {
	_ = removeWorktree(context.Background(), b.st.Source, b.refDir())
	_ = os.Remove(b.st.WorkDir)
}

func (b *bisector) progress(format string, args ...any) {
	if w := b.opt.Harness.Progress; w != nil {
		fmt.Fprintf(w, "bisect: "+format+"\n", args...)
	}
}

// stopped saves what there is when a step could not finish: an ended
// context is an interruption (the summary says unfinished), anything else
// an error.
func (b *bisector) stopped(ctx context.Context, err error) (*Outcome, error) {
	if serr := b.save(); serr != nil {
		return nil, errors.Join(err, serr)
	}
	if ctx.Err() != nil {
		return &Outcome{Summary: &b.st.Summary, Path: b.sumPath, DataDir: b.dataDir, Interrupted: true}, nil
	}
	b.removeReference()
	// The summary and the data folder are written: an error never says
	// that nothing was (a refused campaign's does, for itself).
	if why, ok := harness.RefusedBeforeStart(err); ok {
		err = fmt.Errorf("%s; the step's campaign did not start", why)
	}
	return nil, fmt.Errorf("%w; the bisect's summary %s and its data folder %s are kept (decodebench bisect --resume %s goes on from there once that is fixed)",
		err, b.sumPath, b.dataDir, b.dataDir)
}

// elapsed is the seconds spent over every run of the bisect: the state's
// and this process's since its clock started (none before it has).
func (b *bisector) elapsed() float64 {
	if b.started.IsZero() {
		return b.st.Elapsed
	}
	return b.st.Elapsed + time.Since(b.started).Seconds()
}

// save writes the state and the summary (its outcome as the steps so far
// give it, and the build logs' hashes).
func (b *bisector) save() error {
	sum := &b.st.Summary
	if sum.Outcome.Result != schema.OutOfTime {
		sum.Outcome = analysis.ConcludeBisect(commitIDs(sum.Commits), classesOf(sum.Steps))
	}
	files, err := recorder.HashDataDir(filepath.Join(b.dataDir, buildsDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	sum.Files = sum.Files[:0]
	for _, f := range files {
		sum.Files = append(sum.Files, schema.FileSum{Path: buildsDir + "/" + f.Path, SHA256: f.SHA256})
	}
	st := *b.st
	st.Elapsed = b.elapsed()
	if err := writeState(b.dataDir, &st); err != nil {
		return err
	}
	return recorder.WriteBisectFile(b.sumPath, sum)
}
