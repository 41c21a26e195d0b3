package analysis

import (
	"slices"
	"sort"

	"github.com/decodebench/decodebench/internal/abbrev"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// Analysis is the outcome of Analyze: the verdict and the analysis the
// record stores. Marks are per input run (same index).
type Analysis struct {
	Verdict schema.Verdict
	schema.Analysis
}

// Analyze derives the verdict and every statistic from the runs.
//
// Precedence: a failed counter gate REJECTS (the arms are not proven to
// differ, so no number may be quoted; a counter whose source no run could
// read is left out of the gate), as do an arm's runs failed for lost
// counts beyond their bound (lostcounts.go); a counter source absent from every run of
// every arm FAILS the campaign as a scenario error; an identity mismatch
// under on_mismatch: fail REJECTS; an interrupted campaign is INCOMPLETE; a run failure
// that stopped the campaign FAILS it, as does an arm left with fewer than
// two runs; then UNVERIFIED for scenarios that allowed running without
// proof; then INCONCLUSIVE when a gate says the numbers must not be
// published; else VALID.
func Analyze(in Input) Analysis {
	in = resolved(in)
	p := in.Policy
	a := Analysis{Analysis: schema.Analysis{Marks: marks(in)}}
	a.FamilyAlpha, a.FamilySize = FamilyAlpha(p)
	var gateFailures, runFailures []schema.Reason
	absent := absentSources(in)
	failed := 0
	for i, run := range in.Runs {
		if !run.OK() {
			failed++
			runFailures = append(runFailures, schema.RunFailed{Run: run.Seq, Round: run.Round, Arm: run.Arm, Attempt: run.Attempt, Error: abbrev.FirstLine(run.Error)})
			continue
		}
		a.Marks[i].CounterOK = map[string]bool{}
		for _, c := range p.Counters {
			ex, has := c.Expect[run.Arm]
			if _, read := run.Counters[c.Name]; !has || !read {
				continue
			}
			ok := CounterHolds(c, ex, run.Counters[c.Name])
			a.Marks[i].CounterOK[c.Name] = ok
		}
		for _, r := range CounterFailures(p, run) {
			if cf, ok := r.(schema.CounterFailed); !ok || !hasCounter(absent, cf.Counter) {
				gateFailures = append(gateFailures, r)
			}
		}
		if run.HasContention && p.Gates.ContendedCPU > 0 && judged(run, p.Gates) {
			a.Marks[i].Contended = run.Contention > p.Gates.ContendedCPU || run.HostBusy || run.OutputFlood
		}
	}
	lostReject, lostWarn := lostCounts(in)
	gateFailures = append(gateFailures, lostReject...)
	stopped := failed > 0 && !finishedPlan(in)

	flagOutliers(in, a.Marks)
	a.Identity = checkIdentity(in)
	a.Anatomy = noiseAnatomy(in)
	var inconclusive, flags []schema.Reason
	if len(gateFailures) == 0 {
		s := newSamples(in, a.Marks)
		a.Results = results(in, s, a.Marks)
		var control []schema.Reason
		a.ArmVerdicts, a.Warnings, control = armVerdicts(in, s)
		in.Campaign.Rule.Rows.fill(a.Results, a.ArmVerdicts)
		inconclusive, flags = gates(in, s, a.Results, a.Marks)
		inconclusive = append(inconclusive, notCompared(a.ArmVerdicts, inconclusive, p.Primary)...)
		a.Sequential = sequential(in, a.ArmVerdicts, flags)
		// A control that differs from its baseline says the method finds
		// differences where there are none: that comes first.
		inconclusive = append(control, inconclusive...)
	}
	identityReject := false
	if id := a.Identity; id != nil {
		switch {
		case id.Verdict == schema.Divergent && p.Exactness.OnMismatch != schema.MismatchReport:
			identityReject = true
		case id.Verdict == schema.Divergent:
			flags = append(flags, schema.IdentityBroken{Divergence: divergence(id)})
		case id.Verdict == schema.Undecidable || id.Verdict == schema.IdentityError:
			if len(id.Notes) > 0 {
				inconclusive = append(inconclusive, id.Notes...)
			} else {
				inconclusive = append(inconclusive, schema.IdentityUndecided{})
			}
		}
	}
	thin := thinArms(in)
	switch {
	case len(gateFailures) > 0:
		// A counter whose source was read failed: the arms are not what
		// they claim, whatever an absent source adds.
		a.Verdict = schema.Rejected
		a.Reasons = append(append(gateFailures, absent...), runFailures...)
	case len(absent) > 0:
		// A source that no run could read is a scenario error (a
		// misspelled metric, a wrong path), not a zero: nothing the
		// counter says can be trusted.
		a.Verdict = schema.Failed
		a.Reasons = append(absent, runFailures...)
	case identityReject:
		a.Verdict = schema.Rejected
		a.Reasons = append([]schema.Reason{schema.IdentityMismatch{Divergence: divergence(a.Identity)}}, runFailures...)
	case in.Campaign.Interrupted:
		a.Verdict = schema.Incomplete
		a.Reasons = append([]schema.Reason{schema.Interrupted{Finished: countOK(in.Runs), Planned: in.Campaign.Planned}}, runFailures...)
	case stopped:
		a.Verdict = schema.Failed
		a.Reasons = runFailures
	case len(thin) > 0:
		a.Verdict = schema.Failed
		a.Reasons = append(thin, runFailures...)
	case p.AllowUnverified != "":
		a.Verdict = schema.Unverified
		a.Reasons = append(inconclusive, runFailures...)
	case len(inconclusive) > 0:
		a.Verdict = schema.Inconclusive
		a.Reasons = append(inconclusive, runFailures...)
	default:
		a.Verdict = schema.Valid
		a.Reasons = runFailures
	}
	var clockFlags []schema.Reason
	a.Clocks, clockFlags = clocks(in)
	a.Flags = append(flags, clockFlags...)
	if a.Verdict != schema.Inconclusive && a.Verdict != schema.Unverified {
		// The gates judged, but a verdict decided before them left them
		// out of its reasons: the record names them beside it.
		a.AlsoFailed = inconclusive
	}
	if failed > 0 && !stopped {
		a.Warnings = append(a.Warnings, schema.RunsExcluded{Failed: failed, OnFailure: string(p.Failure)})
	}
	a.Warnings = append(a.Warnings, lostWarn...)
	if relaxed := relaxedGates(p.Gates, in.Campaign.V2); relaxed != "" {
		a.Warnings = append(a.Warnings, schema.GatesRelaxed{Which: relaxed})
	}
	if p.AllowUnverified != "" {
		a.Warnings = append(a.Warnings, schema.AllowUnverified{Why: p.AllowUnverified})
	}
	a.Warnings = append(a.Warnings, hostWarnings(in)...)
	a.Warnings = append(a.Warnings, hostHistory(in, a.Results)...)
	if !in.Campaign.V2 {
		a.Warnings = append(a.Warnings, metricsWithoutValue(in)...)
	}
	a.ClientEngineRatio = clientEngineRatio(in.Runs, a.Clocks)
	a.Unmeasured = unmeasured(in)
	return a
}

// CounterFailures are the counter expectations one finished run fails: the
// counter gate of Analyze, exported so that the run loop stops a campaign
// at the first failure (on_gate_failure: stop) by the same rule as the
// analysis that rejects it.
func CounterFailures(p scenarios.Policy, run Run) []schema.Reason {
	if !run.OK() {
		return nil
	}
	var out []schema.Reason
	for _, c := range p.Counters {
		ex, has := c.Expect[run.Arm]
		rd, read := run.Counters[c.Name]
		if !has || !read || CounterHolds(c, ex, rd) {
			continue
		}
		cf := schema.CounterFailed{Run: run.Seq, Round: run.Round, Arm: run.Arm, Counter: c.Name, Value: rd.Value, Expected: ex.String()}
		if c.Kind.Text() {
			cf.Text = rd.Text
		}
		if rd.Impossible {
			cf.Text = "not a finite number"
		}
		out = append(out, cf)
	}
	if len(run.Declines) > 0 && p.Declines(run.Arm) {
		out = append(out, schema.Declined{Run: run.Seq, Round: run.Round, Arm: run.Arm, Lines: len(run.Declines), First: run.Declines[0]})
	}
	return append(out, streamFailures(p, run)...)
}

// absentSources names the counters whose source was absent in every
// finished run that read them, in every arm: a scenario error. A source
// absent in some runs but present in others is read as 0 there
// (llama-server omits a field when it has nothing to report).
func absentSources(in Input) []schema.Reason {
	var out []schema.Reason
	for _, c := range in.Policy.Counters {
		read, absent := 0, 0
		armsRead := map[string]bool{}
		for _, r := range in.Runs {
			if rd, ok := r.Counters[c.Name]; ok && r.OK() {
				read++
				armsRead[r.Arm] = true
				if rd.Absent && !rd.Impossible {
					absent++
				}
			}
		}
		// Only once every arm the counter expects has run: an interrupted
		// campaign whose speculative arm never ran proves nothing.
		everyArm := true
		for arm := range c.Expect {
			everyArm = everyArm && armsRead[arm]
		}
		if read > 0 && absent == read && everyArm {
			out = append(out, schema.SourceAbsent{Counter: c.Name, Kind: string(c.Kind), Source: c.Expr, Runs: read})
		}
	}
	return out
}

// marks are the runs' marks, in input order, before the analysis fills
// them.
func marks(in Input) []schema.Mark {
	var out []schema.Mark
	for _, r := range in.Runs {
		out = append(out, schema.Mark{Seq: r.Seq})
	}
	return out
}

func hasCounter(rs []schema.Reason, name string) bool {
	for _, r := range rs {
		if s, ok := r.(schema.SourceAbsent); ok && s.Counter == name {
			return true
		}
	}
	return false
}

// judged reports whether a run's measured window was long enough for its
// contention share to be judged.
func judged(r Run, g scenarios.GatesPolicy) bool { return ContentionJudged(r.Metrics, g) }

// ContentionJudged reports whether a run of these metrics had a measured
// window long enough for its contention share to be judged (the
// analysis's rule, which the console's run lines follow).
func ContentionJudged(metrics map[string]float64, g scenarios.GatesPolicy) bool {
	return metrics[schema.WallS] >= g.MinContentionWindow.Seconds()
}

// finishedPlan reports whether the last planned slot has a run that
// counts: the schedule ran to its end.
func finishedPlan(in Input) bool {
	if len(in.Runs) == 0 {
		return false
	}
	last := in.Runs[len(in.Runs)-1]
	if last.Seq < in.Campaign.Planned {
		return false
	}
	return last.OK() || in.Policy.Failure == schema.FailContinue
}

func thinArms(in Input) []schema.Reason {
	if len(in.Runs) == 0 {
		return nil
	}
	n := map[string]int{}
	for _, r := range in.Runs {
		if r.OK() {
			n[r.Arm]++
		}
	}
	var out []schema.Reason
	for _, a := range in.Policy.Arms {
		if n[a.Name] < 2 {
			out = append(out, schema.ThinArm{Arm: a.Name, Runs: n[a.Name]})
		}
	}
	return out
}

func countOK(runs []Run) int {
	n := 0
	for _, r := range runs {
		if r.OK() {
			n++
		}
	}
	return n
}

// clientEngineRatio is the median of the client-side decode rate over the
// engine's own: 1 means the two clocks agree. Where the runs kept the
// engine's timings per request (clocks), it is the median of every arm's
// ratio on the clocks' common definition; runs from before compared each
// run's rate with its first measured request's predicted_per_second.
func clientEngineRatio(runs []Run, clocks []schema.ArmClocks) float64 {
	if len(clocks) > 0 {
		var rs []float64
		for _, c := range clocks {
			rs = append(rs, c.Ratio)
		}
		return median(rs)
	}
	var xs []float64
	for _, r := range runs {
		if cl, ok := r.Metrics[schema.DecodeTokS]; ok && r.OK() && r.EngineRate > 0 {
			xs = append(xs, cl/r.EngineRate)
		}
	}
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	return stats.Quantile(xs, 0.5)
}

// unmeasured lists what the campaign itself could not measure.
func unmeasured(in Input) []schema.Reason {
	var out []schema.Reason
	missingTimings, eventCounted, noContention, impossible, noEnergy := 0, 0, 0, 0, 0
	energyWhy := ""
	for _, run := range in.Runs {
		if run.Impossible {
			impossible++
		}
		if !run.OK() {
			continue
		}
		if run.EngineRate == 0 {
			missingTimings++
		}
		if run.EventCountedTokens {
			eventCounted++
		}
		if run.NoEnergy != "" {
			if noEnergy == 0 {
				energyWhy = run.NoEnergy
			}
			noEnergy++
		}
		if !run.HasContention || !judged(run, in.Policy.Gates) {
			noContention++
		}
	}
	if missingTimings > 0 {
		out = append(out, schema.NoEngineTimings{Runs: missingTimings})
	}
	if eventCounted > 0 {
		out = append(out, schema.EventCounted{Runs: eventCounted})
	}
	if noContention > 0 {
		out = append(out, schema.NoContention{Runs: noContention, WindowS: in.Policy.Gates.MinContentionWindow.Seconds()})
	}
	if n := in.Campaign.Planned - len(in.Runs); n > 0 {
		out = append(out, schema.NotRun{Runs: n})
	}
	if in.Policy.Exactness == nil {
		out = append(out, schema.NoExactness{})
	}
	if impossible > 0 {
		out = append(out, schema.ImpossibleValues{Runs: impossible})
	}
	if noEnergy > 0 {
		out = append(out, schema.NoEnergy{Runs: noEnergy, Why: energyWhy})
	}
	for _, p := range in.Campaign.Diagnosis {
		_, notes := diagnoseArm(in, p.Arm)
		out = append(out, notes...)
	}
	return append(out, schema.KernelTiming{})
}

// notCompared are the arms whose primary comparison is undefined although
// both sides ran (a thin arm fails the campaign first), which no reason
// of the gates names yet: a verdict that compared nothing decides
// nothing, where it stood VALID beside "no comparison could be made".
func notCompared(verdicts []schema.ArmVerdict, named []schema.Reason, primary string) []schema.Reason {
	var out []schema.Reason
	for _, v := range verdicts {
		if v.Comparison.Defined() || slices.ContainsFunc(named, func(r schema.Reason) bool {
			switch r := r.(type) {
			case schema.TooFewSamples:
				return r.Arm == v.Arm
			case schema.TooFewRuns:
				return r.Arm == v.Arm
			}
			return false
		}) {
			continue
		}
		out = append(out, schema.NoComparison{Arm: v.Arm, Metric: primary})
	}
	return out
}
