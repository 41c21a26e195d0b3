package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/machine"
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
	// Version, Commit and Dirty identify decodebench in the record.
	Version, Commit string
	Dirty           bool
	// ScenarioWarnings are what validation reported without refusing the
	// scenario (a non-loopback bind, say); the record repeats them.
	ScenarioWarnings []string
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
	rule        analysis.Rule
	progress    *Progress
	journal     *Journal
	counters    []*engine.Counter
	needMetrics bool
	needProps   bool
	// engines are the campaign's engines, identified once each, and
	// checked at every run start (engines.go).
	engines *engineSet
	sampler *machine.Sampler
	lastEnd time.Time
	// extra reads the scenario's own metrics.
	extra []extraMetric
	// exec performs each measured run: the real engine, or a fake in the
	// run loop's unit tests.
	exec Executor
	// redact masks secrets in every file the campaign writes.
	redact *redact.Redactor
	// host holds the baselines of the quiet gate and cooldown (host.go).
	host hostState
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
	hw := opt.Hardware
	if hw == "" && s.Hardware != "" && s.Hardware != "auto" {
		hw = s.Hardware
	}
	if hw == "" {
		hw = id.Slug
	}
	date := opt.Date
	if date == "" {
		date = time.Now().Format("2006-01-02")
	}
	// Everything that can be refused is refused before Reserve creates the
	// output folder: a campaign that cannot start leaves nothing behind.
	if err := recorder.CheckName(s.Feature, hw, date); err != nil {
		return nil, fmt.Errorf("record name: %w; nothing was written", err)
	}
	c.engines = identifyEngines(ctx, s)
	if err := c.engines.refuse(s); err != nil {
		return nil, err
	}
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
	// The state names the scenario by absolute path, so that a resume from
	// another folder finds it. It names no path to write to: a resume
	// derives those from the data folder (resumeTarget).
	scenarioPath := s.Path
	if !strings.HasPrefix(scenarioPath, "embedded:") {
		if abs, err := filepath.Abs(scenarioPath); err == nil {
			scenarioPath = abs
		}
	}
	st := state{ScenarioPath: scenarioPath, ScenarioHash: s.Hash(), Started: c.rec.Method.Started, EngineSHA256: c.rec.Engine.SHA256, ArmEngines: c.engines.armHashes(), Overrides: s.Overrides}
	c.redact.Walk(&st)
	if err := writeStateIn(c.data, st); err != nil {
		return nil, err
	}
	return c.execute(ctx)
}

func newCampaign(s *scenarios.Scenario, opt Options) (*campaign, error) {
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join("docs", "benchmark_results")
	}
	if opt.Progress == nil {
		opt.Progress = io.Discard
	}
	c := &campaign{scenario: s, policy: s.Policy, opt: opt, sampler: machine.NewSampler(), redact: NewRedactor(s)}
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
	}
	c.progress = NewProgress(opt.Progress, opt.Live, 0, s.Schedule.Cooldown.Duration)
	return c, nil
}

func (c *campaign) prepareDataDir() error {
	if err := c.data.Mkdir("logs"); err != nil {
		return err
	}
	return c.data.WriteFile(recorder.ScenarioFile, c.redact.YAML(c.scenario.Source), 0o644)
}

// holdFolders opens the data folder and the record's folder, never through
// a link, for the rest of the campaign.
func (c *campaign) holdFolders() error {
	var err error
	if c.data, err = safefs.OpenDir(c.dataDir); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	if c.out, err = safefs.OpenDir(filepath.Dir(c.recPath)); err != nil {
		c.data.Close()
		return fmt.Errorf("record folder: %w", err)
	}
	return nil
}

func (c *campaign) releaseFolders() {
	c.data.Close()
	c.out.Close()
}

// checkFolders says whether the data folder, its logs folder and the
// record's folder are still the ones the campaign holds: before each run
// (whose engine log is opened by path) and before the data folder is
// hashed. A swapped folder stops the campaign; nothing more is written.
func (c *campaign) checkFolders() error {
	if err := c.data.Verify(); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	logs, err := c.data.Sub("logs", false)
	if err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	defer logs.Close()
	if err := logs.Verify(); err != nil {
		return fmt.Errorf("data folder: %w", err)
	}
	if err := c.out.Verify(); err != nil {
		return fmt.Errorf("record folder: %w", err)
	}
	return nil
}

// execute runs the schedule from where the record's runs leave off, then
// concludes and writes the record.
func (c *campaign) execute(ctx context.Context) (*Outcome, error) {
	s := c.scenario
	if err := c.data.Mkdir("logs"); err != nil {
		return nil, err
	}
	journal, err := OpenJournalIn(c.data, recorder.RunsFile)
	if err != nil {
		return nil, err
	}
	defer journal.Close()
	journal.Redactor = c.redact
	c.journal = journal
	c.reapStale()
	c.readHost(ctx)
	restoreIndexing := c.pauseIndexing(ctx)
	defer restoreIndexing()
	defer c.stopGPUSampler()
	freezeMaxProcs()

	rounds := s.Schedule.Rounds.Min
	for len(c.rec.Runs) > 0 && rounds*len(s.Arms) < c.rec.Runs[len(c.rec.Runs)-1].Seq {
		rounds++ // an adaptive campaign had grown before it was interrupted
	}
	plan, err := Plan(s.ArmNames(), rounds, c.policy.Schedule.Order, s.Schedule.Seed)
	if err != nil {
		return nil, err
	}
	next, attempt := c.resumePoint()
	c.progress.SetTotal(len(plan), next)
	c.progress.Printf("campaign %s: %d runs (%d arms × %d rounds, order %s), record %s", s.Feature, len(plan), len(s.Arms), rounds, s.Schedule.Order, c.recPath)

	interrupted, aborted := false, false
	for !interrupted && !aborted {
		for next < len(plan) {
			slot := plan[next]
			if err := c.checkFolders(); err != nil {
				return nil, err
			}
			run, err := c.measure(ctx, slot, attempt)
			if err != nil {
				if errors.Is(err, errInterrupted) {
					interrupted = true
					break
				}
				var busy errBusyHost
				if errors.As(err, &busy) {
					// Stopped before the run: resumable, like an interrupt.
					interrupted = true
					c.rec.Method.StoppedBy = busy.Error()
					c.progress.Printf("run %d: %v; stopping the campaign (finished runs are kept)", slot.Seq, busy)
					break
				}
				return nil, err
			}
			if run.OK() && c.gateStops(run) {
				aborted = true
				c.rec.Method.StoppedBy = fmt.Sprintf("run %d failed its counter expectation (on_gate_failure: stop)", slot.Seq)
				c.progress.Printf("run %d failed its counter expectation: the campaign is REJECTED whatever follows, so it stops here (finished runs are kept; on_gate_failure: continue runs on)", slot.Seq)
				break
			}
			if run.OK() {
				next, attempt = next+1, 1
				continue
			}
			switch f := c.policy.Failure; {
			case attempt <= f.Retries():
				attempt++
				c.progress.Printf("run %d failed; retrying (attempt %d of %d)", slot.Seq, attempt, f.Retries()+1)
			case f == schema.FailContinue:
				next, attempt = next+1, 1
				c.progress.Printf("run %d failed; continuing (on_failure: continue)", slot.Seq)
			default:
				aborted = true
				c.progress.Printf("run %d failed; stopping the campaign (finished runs are kept; on_failure: %s)", slot.Seq, s.OnFailure)
			}
			if aborted {
				break
			}
		}
		if interrupted || aborted {
			break
		}
		stop, why := c.scheduleDone(rounds)
		if stop {
			c.rec.Method.StoppedBy = why
			break
		}
		rounds++
		if plan, err = Plan(s.ArmNames(), rounds, c.policy.Schedule.Order, s.Schedule.Seed); err != nil {
			return nil, err
		}
		c.progress.SetTotal(len(plan), next)
		c.progress.Printf("adaptive rounds: %s; adding round %d", why, rounds)
	}
	if !interrupted {
		c.diagnose(ctx)
	}
	c.progress.Close()
	c.rec.Method.Planned = Arms(plan)
	c.rec.Method.RoundsRun = rounds
	c.rec.Method.Finished = time.Now().Round(0)
	c.rec.Method.Interrupted = interrupted
	restoreIndexing() // before the record says so; the deferred call is then a no-op
	c.conclude()
	if err := c.writeOutputs(); err != nil {
		return nil, err
	}
	if interrupted {
		fmt.Fprintf(c.opt.Progress, "interrupted: resume with  decodebench run --resume %s\n", c.dataDir)
	}
	return &Outcome{Record: c.rec, RecordPath: c.recPath, DataDir: c.dataDir}, nil
}

var errInterrupted = errors.New("interrupted")

// measure cools down, runs one slot, samples load around it, and journals
// the run. It returns errInterrupted, without journaling, when ctx is done
// before the run finished: an interrupted run is not a finished run.
func (c *campaign) measure(ctx context.Context, slot Slot, attempt int) (schema.Run, error) {
	run := schema.Run{Seq: slot.Seq, Round: slot.Round, Arm: slot.Arm}
	if attempt > 1 {
		run.Attempt = attempt
	}
	run.Cooldown = c.cooldown(ctx, slot)
	if ctx.Err() != nil {
		return run, errInterrupted
	}
	run.Quiet = c.quietGate(ctx, slot)
	if ctx.Err() != nil {
		return run, errInterrupted
	}
	if q := run.Quiet; q != nil && q.OnBusy == schema.BusyAbort {
		return run, errBusyHost{q}
	}
	if !c.lastEnd.IsZero() {
		run.CooldownS = time.Since(c.lastEnd).Seconds()
	}
	run.ConditionsBefore = c.conditions(ctx)
	if l, err := c.sampler.Sample(ctx); err == nil {
		run.LoadBefore = &l
	}
	run.Start = time.Now().Round(0)
	err := c.engines.check(slot.Arm)
	if err == nil {
		err = c.exec.Execute(ctx, slot, &run)
	}
	run.Seconds = time.Since(run.Start).Seconds()
	if l, err := c.sampler.Sample(context.WithoutCancel(ctx)); err == nil {
		run.LoadAfter = &l
	}
	run.ConditionsAfter = c.conditions(ctx)
	c.lastEnd = time.Now()
	if err != nil && ctx.Err() != nil {
		return run, errInterrupted
	}
	if err != nil {
		run.Error = clipError(err.Error())
	}
	// The analysis sees exactly what is stored: the redacted run, every
	// number in it finite.
	c.redact.Walk(&run)
	finiteRun(&run)
	if err := c.journal.Append(run); err != nil {
		return run, err
	}
	c.rec.Runs = append(c.rec.Runs, run)
	c.progress.RunDone(slot.Seq, slot.Arm, time.Duration(run.Seconds*float64(time.Second)), c.runSummary(run))
	if !run.OK() {
		c.progress.Printf("run %d failed: %s", slot.Seq, run.Error)
	}
	return run, nil
}

// gateStops reports whether a finished run fails a counter expectation and
// the policy stops the campaign there. The rule is the analysis' own
// (analysis.CounterFailures), so the loop stops exactly when the analysis
// would reject.
func (c *campaign) gateStops(run schema.Run) bool {
	if c.policy.GateFailure == schema.GateContinue {
		return false
	}
	in := c.input([]schema.Run{run})
	return len(analysis.CounterFailures(c.policy, in.Runs[0])) > 0
}

// scheduleDone decides, after the planned rounds, whether to stop: a fixed
// schedule always does; an adaptive one when every arm's ratio interval is
// narrower than the target or the maximum is reached.
func (c *campaign) scheduleDone(rounds int) (bool, string) {
	r := c.scenario.Schedule.Rounds
	if !r.Adaptive() {
		return true, fmt.Sprintf("fixed schedule of %d rounds", rounds)
	}
	if r.Sequential() && c.rule.Sequential() {
		return c.sequentialDone(rounds)
	}
	width, arm := analysis.WidestInterval(c.input(c.rec.Runs))
	switch {
	case width < float64(r.UntilCIWidth):
		return true, fmt.Sprintf("every ratio interval narrower than %s after %d rounds (widest: `%s`, %.2f%%)", r.UntilCIWidth, rounds, arm, width*100)
	case rounds >= r.Max:
		return true, fmt.Sprintf("maximum of %d rounds reached; widest ratio interval `%s` %.2f%%, target %s", r.Max, arm, width*100, r.UntilCIWidth)
	}
	return false, fmt.Sprintf("widest ratio interval `%s` %.2f%% ≥ target %s", arm, width*100, r.UntilCIWidth)
}

// sequentialDone is scheduleDone for a schedule with looks: the
// analysis' own rule (analysis.SequentialDone) stops at a look that
// decides every test arm, or at the last.
func (c *campaign) sequentialDone(rounds int) (bool, string) {
	r := c.scenario.Schedule.Rounds
	done, a := analysis.SequentialDone(c.input(c.rec.Runs))
	switch {
	case done && a.Sequential != nil && a.Sequential.Decided:
		return true, fmt.Sprintf("sequential look after %d rounds decided every test arm (look %d of %d, alpha %.4g a look)", rounds, len(a.Sequential.Looks), a.Sequential.PlannedLooks, a.Sequential.AlphaPerLook)
	case done:
		return true, fmt.Sprintf("maximum of %d rounds reached at the last sequential look: no decision for every test arm", r.Max)
	}
	return false, fmt.Sprintf("no decision after %d rounds (looks every %d rounds from %d to %d)", rounds, r.Every, r.Min, r.Max)
}

// runSummary is the progress line's account of a finished run.
func (c *campaign) runSummary(r schema.Run) string {
	if !r.OK() {
		return "FAILED: " + abbrev.FirstLine(r.Error)
	}
	p := c.policy
	var parts []string
	if v, ok := r.Metrics[p.Primary]; ok {
		parts = append(parts, fmt.Sprintf("%s %.4g", p.Primary, v))
	}
	for _, k := range p.Counters {
		cr, ok := r.Counters[k.Name]
		if !ok {
			continue
		}
		mark := "ok"
		if ex, has := k.Expect[r.Arm]; has && !analysis.CounterHolds(k, ex, analysis.Reading{Value: cr.Value, Text: cr.Text}) {
			mark = "FAILS " + ex.String()
		}
		if cr.Absent {
			mark += ", source absent"
		}
		seen := fmt.Sprintf("%g", cr.Value)
		if cr.Text != "" {
			seen = cr.Text
		}
		parts = append(parts, fmt.Sprintf("%s=%s (%s)", k.Name, seen, mark))
	}
	if g := p.Gates.ContendedCPU; r.Contention != nil && g > 0 && r.Contention.Others > g {
		parts = append(parts, fmt.Sprintf("CONTENDED: other processes used %.0f%% of the CPU", r.Contention.Others*100))
	}
	return strings.Join(parts, ", ")
}
