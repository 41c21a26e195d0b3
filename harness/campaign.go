package harness

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/outputs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/redact"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Options configures a campaign.
type Options struct {
	// OutDir is where records go (docs/benchmark_results by default).
	OutDir string
	// Hardware overrides the hardware slug.
	Hardware string
	// Date overrides the record date (YYYY-MM-DD); today by default.
	Date string
	// Progress receives progress output; Live selects the in-place
	// terminal line.
	Progress io.Writer
	Live     bool
	// LearnSecrets, when set, is given the campaign's redactor as soon as
	// it is built, so that what the caller prints is masked as the files
	// are.
	LearnSecrets func(*redact.Redactor)
	// Shell are the shell commands run beside the campaign (a bisect's
	// build command): the campaign's redactor (NewRedactor) learns their
	// secrets, which an engine they built may print again.
	Shell []string
	// Version, Commit and Dirty identify decodebench in the record.
	Version, Commit string
	Dirty           bool
	// ScenarioWarnings are what validation reported without refusing the
	// scenario (a non-loopback bind, say); the record repeats them.
	ScenarioWarnings []string
	// Records, when set, reads the data blocks of the records in a
	// folder (review.LoadHistory); as the campaign ends, the earlier
	// records of this host and scenario in the record's folder are its
	// host history (hosthistory.go). Checked, when set, says whether a
	// record passes check (and, where not, why, on its own): one that
	// does not is left out of it.
	Records func(dir string) ([]history.Record, []error, error)
	Checked func(path string) bool
	// FailedOut, when set, is where a campaign whose verdict is FAILED
	// or REJECTED moves its record and data folder (scratch.go): a failed
	// try kept out of the records.
	FailedOut string
	// RunIdentical runs two arms whose engines are byte-identical files
	// rather than refusing them as an accidental A/A comparison
	// (IdenticalEngines, and the libraries they load): the caller has
	// found that the bytes hashed are not all that runs (a bisect step
	// whose worktrees' engines are the same script and interpreter, each
	// running its own worktree's code).
	RunIdentical bool
	// ReceivedScenario marks a resume's scenario that a data folder this
	// user's decodebench did not write named, outside itself: a refusal
	// names the keys that changed, never a value the file holds.
	ReceivedScenario bool
}

// Outcome is what a campaign left behind.
type Outcome struct {
	Record     *schema.Record
	RecordPath string
	DataDir    string
}

type campaign struct {
	scenario *scenarios.Scenario
	policy   scenarios.Policy
	opt      Options
	dataDir  string
	recPath  string
	// data and out hold the data folder and the record's folder open for
	// the whole campaign: everything decodebench writes goes through
	// them, and the engine's log (written by path) only after
	// checkFolders has found both paths still naming them, so a folder
	// swapped for a link mid-campaign redirects nothing.
	data, out *safefs.Dir
	rec       *schema.Record
	// rule is the statistical rule the record is written under
	// (schema.RuleCurrent), resolved once.
	rule analysis.Rule
	// st is the campaign's resume state, written again when a budgeted
	// schedule plans a look.
	st          state
	progress    *Progress
	journal     *Journal
	counters    []*engine.Counter
	needMetrics bool
	// needLogWindow: a counter or metric reads the measured window's log
	// lines, so the engine's log settles before the window begins.
	needLogWindow bool
	needProps     bool
	// needStartup: a counter reads the engine's start-up log lines.
	needStartup bool
	// engines are the campaign's engines, identified once each, and
	// checked at every run start (engines.go).
	engines *engineSet
	sampler *machine.Sampler
	lastEnd time.Time
	// cutOff is the time of the run a stop cut off (an interrupt, or a
	// busy host under on_busy: abort): from its span's start to the stop,
	// its work lost (Method.CutOffS).
	cutOff time.Duration
	// extra reads the scenario's own metrics.
	extra []extraMetric
	// exec performs each measured run: the real engine, or a fake in the
	// run loop's unit tests.
	exec Executor
	// seals are the data folder's files as decodebench left them
	// (sealed.go): the record lists these.
	seals seals
	// pending is the quiet gate the run in progress went on beside
	// (gateoverlap.go); nil otherwise.
	pending *pendingGate
	// credit is the last run's measured window where the quiet gate's
	// rule found it quiet: the next run's gate counts it toward its
	// window (machine.QuietCredit); nil otherwise.
	credit *machine.QuietCredit
	// wholeFailed are the arms whose warmup sent whole for the token ids
	// failed (warmupids.go): their warmups stream from then on.
	wholeFailed map[string]bool
	// redact masks secrets in every file the campaign writes.
	redact *redact.Redactor
	// host holds the baselines of the quiet gate and cooldown (host.go).
	host hostState
	// replayGaps are the outputs, by arm, whose token replay came back
	// without every id, and why (replay.go).
	replayGaps map[replayKey]string
	// stripper is the exactness strip patterns, compiled once when the
	// campaign starts (stripped).
	stripper *outputs.Stripper
}

// Executor performs one measured run of a slot, filling in run. An error
// is the run's failure (recorded, then on_failure decides), unless the
// context is done, which interrupts the campaign.
type Executor interface {
	Execute(ctx context.Context, slot Slot, run *schema.Run) error
}

// Run runs the campaign the scenario describes and writes its record. The
// record is written on every path that gets as far as choosing its name:
// valid, rejected, failed or interrupted. The returned error is non-nil
// only when no record could be written.
func Run(ctx context.Context, s *scenarios.Scenario, opt Options) (*Outcome, error) {
	c, err := newCampaign(s, opt)
	if err != nil {
		return nil, err
	}
	id, err := machine.Identify(ctx)
	if err != nil {
		// A partial identity is still worth recording; say what failed.
		c.progress.Printf("machine identity incomplete: %v", err)
	}
	hw, date := recordName(opt, s, id)
	// Everything that can be refused is refused before Reserve creates the
	// output folder: a campaign that cannot start leaves nothing behind.
	if err := recorder.CheckName(s.Feature, hw, date); err != nil {
		return nil, fmt.Errorf("record name: %w; nothing was written", err)
	}
	c.engines = identifyEngines(ctx, s)
	c.engines.runIdentical = c.opt.RunIdentical
	if err := c.engines.refuse(s); err != nil {
		return nil, err
	}
	c.engines.sayProblems(c.progress)
	c.recPath, c.dataDir, err = recorder.Reserve(c.opt.OutDir, s.Feature, hw, date)
	if err != nil {
		return nil, err
	}
	if err := c.holdFolders(); err != nil {
		return nil, err
	}
	defer c.releaseFolders()
	if err := c.prepareDataDir(); err != nil {
		return nil, err
	}
	c.rec = c.newRecord(hw, date, id, time.Now().Round(0))
	c.engines.record(c.rec, s.Baseline)
	st := c.startState()
	c.redact.Walk(&st)
	if err := writeStateIn(c.data, st); err != nil {
		return nil, err
	}
	c.st = st
	return c.execute(ctx)
}

// recordName is the hardware slug and the date the record is named by:
// the options', else the scenario's hardware, else the machine's slug;
// today by default.
func recordName(opt Options, s *scenarios.Scenario, id schema.MachineInfo) (hw, date string) {
	hw = opt.Hardware
	if hw == "" && s.Hardware != "" && s.Hardware != "auto" {
		hw = s.Hardware
	}
	if hw == "" {
		hw = id.Slug
	}
	date = opt.Date
	if date == "" {
		date = time.Now().Format("2006-01-02")
	}
	return hw, date
}

func newCampaign(s *scenarios.Scenario, opt Options) (*campaign, error) {
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join("docs", "benchmark_results")
	}
	if opt.Progress == nil {
		opt.Progress = io.Discard
	}
	c := &campaign{scenario: s, policy: s.Policy, opt: opt, sampler: machine.NewSampler(), redact: NewRedactor(s, opt.Shell...)}
	if x := s.Policy.Exactness; x != nil {
		c.stripper = outputs.NewStripper(x.Strip)
	}
	if opt.LearnSecrets != nil {
		opt.LearnSecrets(c.redact)
	}
	var extraNeedsMetrics bool
	c.extra, extraNeedsMetrics = newExtraMetrics(s.Policy)
	c.needMetrics = extraNeedsMetrics
	c.exec = serverExecutor{c}
	if s.Engine.IsCommand() {
		c.exec = newCommandExecutor(c)
	}
	for _, cp := range s.Policy.Counters {
		k, err := engine.NewCounter(cp)
		if err != nil {
			return nil, err
		}
		c.counters = append(c.counters, k)
		c.needMetrics = c.needMetrics || k.NeedsMetrics()
		c.needProps = c.needProps || k.NeedsProps()
		c.needStartup = c.needStartup || k.NeedsStartup()
		c.needLogWindow = c.needLogWindow || cp.Kind == schema.SourceLog && cp.Phase != schema.PhaseStartup
	}
	for _, em := range c.extra {
		c.needLogWindow = c.needLogWindow || em.log != nil
	}
	var quiet time.Duration
	if q := c.policy.Gates.Quiet; q != nil {
		quiet = q.Window
	}
	c.progress = NewProgress(opt.Progress, opt.Live, 0, s.Schedule.Cooldown.Duration, quiet)
	if uq := c.policy.Schedule.UntilQuiet; uq != nil {
		// An adaptive cooldown waits at least its min, and the quiet
		// gate's window after it in full: no run's quiet time counts
		// (waitBefore).
		c.progress.cooldown, c.progress.uncredited = uq.Min, true
	}
	return c, nil
}

// execute runs the schedule from where the record's runs leave off, then
// concludes and writes the record: the journal opened, the host prepared,
// the schedule resumed, its rounds run under the failure policy (more of
// them while an adaptive schedule is not done), and the campaign finished.
func (c *campaign) execute(ctx context.Context) (*Outcome, error) {
	if err := c.openJournal(); err != nil {
		return nil, err
	}
	defer c.journal.Close()
	restoreIndexing := c.prepareHost(ctx)
	defer restoreIndexing()
	defer c.stopGPUSampler()
	c.hostCheck(ctx)
	sch, err := c.resumeSchedule()
	if err != nil {
		return nil, err
	}
	stopped, err := c.runRounds(ctx, sch)
	if err != nil {
		return nil, err
	}
	return c.finish(ctx, sch, stopped == stopInterrupted, restoreIndexing)
}
