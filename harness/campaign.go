package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/stats"
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
	// Version, Commit and Dirty identify decodebench in the record.
	Version, Commit string
	Dirty           bool
}

// Outcome is what a campaign left behind.
type Outcome struct {
	Record     *recorder.Record
	RecordPath string
	DataDir    string
}

type campaign struct {
	scenario    *scenarios.Scenario
	opt         Options
	dataDir     string
	progress    *Progress
	counters    []*engine.Counter
	expect      map[string]map[string]scenarios.Expectation
	needMetrics bool
}

// Run runs the campaign the scenario describes and writes its record. The
// record is written on every path that gets as far as choosing its name:
// valid, rejected, failed or interrupted. The returned error is non-nil
// only when no record could be written.
func Run(ctx context.Context, s *scenarios.Scenario, opt Options) (*Outcome, error) {
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join("docs", "benchmark_results")
	}
	if opt.Progress == nil {
		opt.Progress = io.Discard
	}
	c := &campaign{scenario: s, opt: opt, expect: map[string]map[string]scenarios.Expectation{}}
	for _, sc := range s.Counters {
		k, err := engine.NewCounter(sc)
		if err != nil {
			return nil, err
		}
		c.counters = append(c.counters, k)
		c.needMetrics = c.needMetrics || k.NeedsMetrics()
		c.expect[sc.Name] = map[string]scenarios.Expectation{}
		for arm, ex := range sc.Expect {
			e, err := scenarios.ParseExpectation(ex)
			if err != nil {
				return nil, fmt.Errorf("counter %s: %w", sc.Name, err)
			}
			c.expect[sc.Name][arm] = e
		}
	}
	plan, err := Plan(s.ArmNames(), s.Schedule.Rounds, s.Schedule.Order, s.Schedule.Seed)
	if err != nil {
		return nil, err
	}

	id, err := machine.Identify(ctx)
	if err != nil {
		return nil, fmt.Errorf("machine identity: %w", err)
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
	recPath, dataDir, err := recorder.Reserve(opt.OutDir, s.Feature, hw, date)
	if err != nil {
		return nil, err
	}
	c.dataDir = dataDir
	if err := os.MkdirAll(filepath.Join(dataDir, "logs"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dataDir, "scenario.yaml"), s.Source, 0o644); err != nil {
		return nil, err
	}

	rec := c.newRecord(hw, date, id, plan, recPath)
	rec.Engine = engine.Identify(ctx, s.Engine.Command[0], os.Environ(), s.Engine.Source)

	journal, err := OpenJournal(filepath.Join(dataDir, "runs.jsonl"))
	if err != nil {
		return nil, err
	}
	defer journal.Close()

	c.progress = NewProgress(opt.Progress, opt.Live, len(plan), s.Schedule.Cooldown.Duration)
	c.progress.Printf("campaign %s: %d runs (%d arms × %d rounds, order %s), record %s", s.Feature, len(plan), len(s.Arms), s.Schedule.Rounds, s.Schedule.Order, recPath)
	sampler := machine.NewSampler()
	interrupted := false
	var lastEnd time.Time
	for i, slot := range plan {
		if ctx.Err() != nil {
			interrupted = true
			break
		}
		run := recorder.Run{Seq: slot.Seq, Round: slot.Round, Arm: slot.Arm}
		if i > 0 && s.Schedule.Cooldown.Duration > 0 {
			c.progress.Phase(slot.Seq, slot.Arm, "cooldown "+s.Schedule.Cooldown.String())
			select {
			case <-time.After(s.Schedule.Cooldown.Duration):
			case <-ctx.Done():
			}
		}
		if ctx.Err() != nil {
			interrupted = true
			break
		}
		if !lastEnd.IsZero() {
			run.CooldownS = time.Since(lastEnd).Seconds()
		}
		if l, err := sampler.Sample(ctx); err == nil {
			run.LoadBefore = &l
		}
		run.Start = time.Now()
		err := c.runOne(ctx, slot, &run)
		run.Seconds = time.Since(run.Start).Seconds()
		if l, err := sampler.Sample(context.WithoutCancel(ctx)); err == nil {
			run.LoadAfter = &l
		}
		lastEnd = time.Now()
		if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
			interrupted = true
			break // an interrupted run is not a finished run: it is not kept
		}
		if err != nil {
			run.Error = err.Error()
		}
		if jerr := journal.Append(run); jerr != nil {
			return nil, jerr
		}
		rec.Runs = append(rec.Runs, run)
		c.progress.RunDone(slot.Seq, slot.Arm, time.Duration(run.Seconds*float64(time.Second)), runSummary(run, s.Metrics.Primary))
		if err != nil {
			c.progress.Printf("run %d failed: %s\nstopping the campaign (finished runs are kept)", slot.Seq, run.Error)
			break
		}
	}
	c.progress.Close()
	rec.Method.Finished = time.Now()
	c.conclude(rec, interrupted)
	if err := recorder.WriteFile(recPath, rec); err != nil {
		return nil, err
	}
	return &Outcome{Record: rec, RecordPath: recPath, DataDir: dataDir}, nil
}

func runSummary(r recorder.Run, primary string) string {
	if !r.OK() {
		return "FAILED: " + firstLine(r.Error)
	}
	var parts []string
	if v, ok := r.Metrics[primary]; ok {
		parts = append(parts, fmt.Sprintf("%s %.4g", primary, v))
	}
	names := make([]string, 0, len(r.Counters))
	for n := range r.Counters {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		cr := r.Counters[n]
		mark := "ok"
		if !cr.OK {
			mark = "FAILS " + cr.Expect
		}
		parts = append(parts, fmt.Sprintf("%s=%g (%s)", n, cr.Value, mark))
	}
	return strings.Join(parts, ", ")
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func (c *campaign) newRecord(hw, date string, id machine.Identity, plan []Slot, recPath string) *recorder.Record {
	s := c.scenario
	rec := &recorder.Record{
		Schema:   recorder.Schema,
		Feature:  s.Feature,
		Title:    s.Title,
		Issue:    s.Issue,
		Hardware: hw,
		Date:     date,
		Machine:  id,
		Scenario: recorder.ScenarioInfo{
			Path:            s.Path,
			Hash:            s.Hash(),
			Baseline:        s.Baseline,
			Primary:         s.Metrics.Primary,
			Vars:            s.VarsUsed(),
			AllowUnverified: s.AllowUnverified,
			Request: recorder.RequestInfo{
				Endpoint: s.Engine.Request.Endpoint, Prompt: s.Engine.Request.Prompt, MaxTokens: s.Engine.Request.MaxTokens,
				Temperature: s.Engine.Request.Temperature, Seed: s.Engine.Request.Seed, IgnoreEOS: s.Engine.Request.IgnoreEOS,
			},
		},
		Method: recorder.Method{
			Rounds: s.Schedule.Rounds, Warmup: s.Schedule.Warmup, Order: s.Schedule.Order, Seed: s.Schedule.Seed,
			Cooldown: s.Schedule.Cooldown.String(), Planned: Arms(plan), Started: time.Now(),
			Version: c.opt.Version, Commit: c.opt.Commit, Dirty: c.opt.Dirty,
		},
	}
	rel, err := filepath.Rel(filepath.Dir(recPath), c.dataDir)
	if err != nil {
		rel = c.dataDir
	}
	rec.DataDir = filepath.ToSlash(rel)
	for _, a := range s.Arms {
		rec.Scenario.Arms = append(rec.Scenario.Arms, recorder.ArmInfo{
			Name:    a.Name,
			Command: append(append([]string{}, s.Engine.Command...), a.Args...),
			Env:     mergeEnv(s.Engine.Env, a.Env),
		})
	}
	for _, sc := range s.Counters {
		kind, expr := sc.Source()
		rec.Counters = append(rec.Counters, recorder.CounterSpec{Name: sc.Name, Kind: kind, Expr: expr, Expect: sc.Expect})
	}
	return rec
}

// conclude applies the counter gate, computes statistics and sets the
// verdict.
func (c *campaign) conclude(rec *recorder.Record, interrupted bool) {
	s := c.scenario
	var gateFailures, runFailures []string
	for _, run := range rec.Runs {
		if !run.OK() {
			runFailures = append(runFailures, fmt.Sprintf("Run %d (`%s`, round %d) failed: %s", run.Seq, run.Arm, run.Round, firstLine(run.Error)))
			continue
		}
		for _, k := range s.Counters {
			cr, ok := run.Counters[k.Name]
			if ok && !cr.OK {
				gateFailures = append(gateFailures, fmt.Sprintf("Run %d (`%s`, round %d): counter `%s` = %g, expected %s.", run.Seq, run.Arm, run.Round, k.Name, cr.Value, cr.Expect))
			}
		}
	}
	switch {
	case len(gateFailures) > 0:
		rec.Verdict = recorder.Rejected
		rec.Reasons = append(gateFailures, runFailures...)
	case interrupted:
		rec.Verdict = recorder.Incomplete
		rec.Reasons = append([]string{fmt.Sprintf("Interrupted after %d of %d planned runs.", len(rec.Runs), len(rec.Method.Planned))}, runFailures...)
	case len(runFailures) > 0:
		rec.Verdict = recorder.Failed
		rec.Reasons = runFailures
	case s.AllowUnverified != "":
		rec.Verdict = recorder.Unverified
	default:
		rec.Verdict = recorder.Valid
	}
	if s.AllowUnverified != "" {
		rec.Warnings = append(rec.Warnings, fmt.Sprintf("Unverified: no counter tells the arms apart. The scenario's reason: %q.", s.AllowUnverified))
	}
	if len(gateFailures) == 0 {
		rec.Results = results(rec, s)
	}
	rec.NotMeasured = nil
	for _, n := range s.Unmeasured {
		rec.NotMeasured = append(rec.NotMeasured, string(n))
	}
	rec.NotMeasured = append(rec.NotMeasured, c.unmeasuredByRun(rec)...)
	if rec.Verdict == recorder.Valid {
		for _, res := range rec.Results {
			for _, a := range res.Arms {
				if a.N < len(rec.Method.Planned)/len(s.Arms) {
					rec.Verdict = recorder.Failed
					rec.Reasons = append(rec.Reasons, fmt.Sprintf("Arm `%s` has %d samples of `%s`, fewer than planned.", a.Arm, a.N, res.Metric))
				}
			}
		}
	}
}

// results computes per-arm statistics for every metric, primary first.
func results(rec *recorder.Record, s *scenarios.Scenario) []recorder.MetricResult {
	metrics := []string{s.Metrics.Primary}
	for _, m := range scenarios.MetricNames {
		if m != s.Metrics.Primary {
			metrics = append(metrics, m)
		}
	}
	var out []recorder.MetricResult
	for _, m := range metrics {
		res := recorder.MetricResult{Metric: m, Unit: scenarios.Unit(m), Primary: m == s.Metrics.Primary, HigherIsBetter: scenarios.HigherIsBetter(m)}
		sums := map[string]stats.Summary{}
		for _, arm := range s.ArmNames() {
			var xs []float64
			for _, run := range rec.Runs {
				if v, ok := run.Metrics[m]; ok && run.OK() && run.Arm == arm {
					xs = append(xs, v)
				}
			}
			sums[arm] = stats.Summarize(xs)
		}
		base := sums[s.Baseline].Median
		for _, arm := range s.ArmNames() {
			r := stats.Ratio(sums[arm].Median, base)
			if math.IsNaN(r) {
				r = 0
			}
			res.Arms = append(res.Arms, recorder.ArmResult{Arm: arm, Summary: sums[arm], Ratio: r})
		}
		out = append(out, res)
	}
	return out
}

// unmeasuredByRun lists what the campaign itself could not measure.
func (c *campaign) unmeasuredByRun(rec *recorder.Record) []string {
	var out []string
	missingTimings, eventCounted := 0, 0
	for _, run := range rec.Runs {
		if !run.OK() {
			continue
		}
		if _, ok := run.EngineTimings["predicted_per_second"]; !ok {
			missingTimings++
		}
		if run.TokenSource == "stream events" {
			eventCounted++
		}
	}
	if missingTimings > 0 {
		out = append(out, fmt.Sprintf("Engine-side timings: the engine reported no `timings.predicted_per_second` in %d run(s), so the client-side decode rate could not be cross-checked there.", missingTimings))
	}
	if eventCounted > 0 {
		out = append(out, fmt.Sprintf("Exact token counts in %d run(s): the engine returned no totals, so tokens were counted as stream events, which undercounts when the engine merges tokens.", eventCounted))
	}
	out = append(out, "Statistical significance and confidence intervals: this record reports medians, dispersion and ratios of medians, without a significance test.")
	if len(rec.Runs) < len(rec.Method.Planned) {
		out = append(out, fmt.Sprintf("%d planned run(s) did not run.", len(rec.Method.Planned)-len(rec.Runs)))
	}
	return out
}
