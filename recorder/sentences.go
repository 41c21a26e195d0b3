package recorder

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// This file is the one place where the analysis' codes become sentences.

// style says how user-controlled text is written: escaped for Markdown,
// or as is for the console; and what of its record a sentence may point
// at: v2 for a v2 record, whose sentences stay as they were, and busy, the
// processes its runs caught using the CPU (a remedy names them only when
// there are some).
type style struct {
	md   bool
	v2   bool
	busy []string
}

// recordStyle is the style of a record's sentences.
func recordStyle(r *schema.Record, md bool) style {
	f := style{md: md, v2: r.Schema == schema.SchemaV2}
	for _, run := range r.Runs {
		if c := run.Contention; c != nil && c.Culprit != nil && !slices.Contains(f.busy, c.Culprit.Name) {
			f.busy = append(f.busy, c.Culprit.Name)
		}
	}
	return f
}

var (
	markdown = style{md: true}
	plain    = style{}
)

func (f style) text(s string) string {
	if f.md {
		return text(s)
	}
	return oneLine(s)
}

func (f style) code(s string) string {
	if f.md {
		return code(s)
	}
	return "`" + oneLine(s) + "`"
}

// reasonText states one reason.
func (f style) reason(r schema.Reason) string {
	switch r := r.(type) {
	case schema.SourceAbsent:
		return fmt.Sprintf("Scenario error: counter %s reads the %s source %s, which was absent in all %d runs of every arm. A source no run could read is a misspelled name or one this engine does not expose, not a zero; fix the scenario.", f.code(r.Counter), f.text(r.Kind), f.code(r.Source), r.Runs)
	case schema.ControlDiffers:
		return fmt.Sprintf("Negative control %s differs from the baseline %s on %s: %s%s, %s (alpha %s). The method finds a difference where none exists, so no arm's difference can be trusted. Remedies: a quieter host, more rounds, or find what differs between the two (warm-up, launch order).",
			f.code(r.Arm), f.code(r.Baseline), f.code(r.Metric), pct1(r.Ratio-1, true), interval(r.Lo-1, r.Hi-1, true, r.Lo == 0 && r.Hi == 0), formatP(r.P), count(r.Alpha))
	case schema.CounterFailed:
		seen := count(r.Value)
		if r.Text != "" {
			seen = f.code(r.Text)
		}
		if r.Stream > 0 {
			return fmt.Sprintf("Run %d (%s, round %d), stream %d: counter %s = %s, expected %s.", r.Run, f.code(r.Arm), r.Round, r.Stream, f.code(r.Counter), seen, r.Expected)
		}
		return fmt.Sprintf("Run %d (%s, round %d): counter %s = %s, expected %s.", r.Run, f.code(r.Arm), r.Round, f.code(r.Counter), seen, r.Expected)
	case schema.StreamsSerialised:
		return fmt.Sprintf("Run %d (%s, round %d): its %d streams never all decoded at once (the last first token came %.1f ms after the release, the first stream had finished at %.1f ms): the engine served them one after another, so their rates are not concurrent rates. Give the server at least as many slots as streams (llama-server: -np).", r.Run, f.code(r.Arm), r.Round, r.Streams, r.LatestFirstMs, r.EarliestLastMs)
	case schema.Declined:
		return fmt.Sprintf("Run %d (%s, round %d): the engine declined the feature under test (%d matching log line(s)), e.g. %s.", r.Run, f.code(r.Arm), r.Round, r.Lines, f.code(r.First))
	case schema.RunFailed:
		attempt := ""
		if r.Attempt > 1 {
			attempt = fmt.Sprintf(", attempt %d", r.Attempt)
		}
		return fmt.Sprintf("Run %d (%s, round %d%s) failed: %s", r.Run, f.code(r.Arm), r.Round, attempt, f.text(r.Error))
	case schema.IdentityMismatch:
		return "Output identity: " + f.divergence(r.Divergence) + " (on_mismatch: fail)."
	case schema.IdentityBroken:
		return "Output identity contract broken: " + f.divergence(r.Divergence) + " (on_mismatch: report keeps the timing results valid)."
	case schema.IdentityUndecided:
		return "Output identity undecidable: see the Output identity section."
	case schema.Interrupted:
		return fmt.Sprintf("Interrupted after %d of %d planned runs.", r.Finished, r.Planned)
	case schema.ThinArm:
		return fmt.Sprintf("Arm %s has %d successful run(s); at least 2 are needed to say anything.", f.code(r.Arm), r.Runs)
	case schema.TooNoisy:
		return fmt.Sprintf("Too noisy: arm %s has a spread of %.1f%% (interquartile range over median of %s), %.1f points above the %s limit. Remedies: a quieter host (see Machine), or relax gates.max_spread (the record will disclose it).", f.code(r.Arm), r.Spread*100, f.code(r.Metric), (r.Spread-r.Limit)*100, f.pct(r.Limit))
	case schema.TooFewRuns:
		return fmt.Sprintf("Too few runs: %s has %d finished run(s) and the baseline %d; the regression needs at least %d each to tell a stalled run from a change. Run at least %d rounds.", f.code(r.Arm), r.N2, r.N1, r.Min, r.Min)
	case schema.TooFewSamples:
		if r.Paired {
			return fmt.Sprintf("Too few samples: with %d rounds the signed-rank test cannot reach p < %s whatever the data (smallest possible p is %.3f); run at least %d rounds.", r.N1, count(round3(r.Alpha)), r.SmallestP, signedRankRounds(r.Alpha))
		}
		return fmt.Sprintf("Too few samples: with %d and %d runs the U test cannot reach p < %s whatever the data (smallest possible p is %.3f); run at least %d rounds.", r.N1, r.N2, count(round3(r.Alpha)), r.SmallestP, uTestRounds(r.Alpha))
	case schema.ContendedHost:
		if !f.v2 {
			return fmt.Sprintf("Contended host: in %d of %d runs (%s) other processes used more than %s of the CPU during the measured request, above the %s limit. Remedies: %s and run again, or relax gates.max_contended (the record will disclose it).", r.Runs, r.Judged, share(r.Runs, r.Judged), f.pct(r.ContendedCPU), f.pct(r.MaxContended), f.busyRemedy())
		}
		return fmt.Sprintf("Contended host: in %d of %d runs (%s) other processes used more than %s of the CPU during the measured request, above the %s limit. Remedies: stop the busy processes named under Machine and run again, or relax gates.max_contended (the record will disclose it).", r.Runs, r.Judged, pctShort(float64(r.Runs)/float64(max(r.Judged, 1))), pctShort(r.ContendedCPU), pctShort(r.MaxContended))
	case schema.RelativeDrift:
		return fmt.Sprintf("Drift: arm %s moved %+.1f%% over the campaign relative to the baseline %s (difference of trends, p=%s < %s): a drift of that arm alone, which interleaving does not cancel; check the machine (heat, clocks).", f.code(r.Arm), r.Change*100, f.code(r.Baseline), strconv.FormatFloat(r.P, 'g', 2, 64), count(r.Alpha))
	case schema.Drift:
		return fmt.Sprintf("Drift: arm %s drifted %+.1f%% over the campaign (first to last third; rank correlation with time %.2f). Interleaving spreads drift over the arms, but check the machine.", f.code(r.Arm), r.Change*100, r.Rho)
	case schema.Contention:
		return fmt.Sprintf("Contention: %d of %d runs had other processes using more than %s of the CPU during the measured request (limit %s of runs).", r.Runs, r.Judged, f.pct(r.ContendedCPU), f.pct(r.MaxContended))
	case schema.ComparisonNote:
		return fmt.Sprintf("%s vs %s: %s.", f.code(r.Arm), f.code(r.Baseline), f.text(r.Note))
	case schema.RunsExcluded:
		return fmt.Sprintf("%d run(s) failed and are excluded from the statistics (on_failure: %s).", r.Failed, f.text(r.OnFailure))
	case schema.GatesRelaxed:
		return "This scenario relaxes the publishability gates (" + f.text(r.Which) + "); a VALID verdict here holds under those gates only."
	case schema.AllowUnverified:
		return fmt.Sprintf("Unverified: no counter tells the arms apart. The scenario's reason: %s.", f.text(strconv.Quote(r.Why)))
	case schema.NoEngineTimings:
		return fmt.Sprintf("Engine-side timings: the engine reported no `timings.predicted_per_second` in %d run(s), so the client-side decode rate could not be cross-checked there.", r.Runs)
	case schema.EventCounted:
		return fmt.Sprintf("Exact token counts in %d run(s): the engine returned no totals, so tokens were counted as stream events, which undercounts when the engine merges tokens.", r.Runs)
	case schema.NoContention:
		return fmt.Sprintf("Contention during the measured request in %d run(s): the engine's CPU time could not be read, or the request took less than %ss, too short to judge.", r.Runs, count(r.WindowS))
	case schema.NotRun:
		return fmt.Sprintf("%d planned run(s) did not run.", r.Runs)
	case schema.NoExactness:
		return "Output identity between arms: the scenario has no `exactness` block, so generated text was recorded (runs.jsonl) but not compared."
	case schema.NoEnergy:
		return fmt.Sprintf("Energy in %d run(s): %s.", r.Runs, f.text(r.Why))
	case schema.NoDiagnosis:
		return diagnosisSentence(f, r)
	case schema.KernelTiming:
		return "Engine-internal timing of individual kernels or layers: decodebench measures the production request path only."
	case schema.IdentityEmptyBaseline:
		return fmt.Sprintf("Refused: the baseline %s %s; an empty comparison proves nothing.", f.code(r.Arm), f.text(r.Why))
	case schema.IdentityUncomparable:
		return fmt.Sprintf("The baseline %s cannot show that it agrees with itself: %s (it needs at least 2 finished runs).", f.code(r.Arm), f.text(r.Why))
	case schema.IdentityNonDeterministic:
		return fmt.Sprintf("The baseline %s is not deterministic: %d of its %d runs differ from its first (first difference between runs %d and %d), so identity between arms is undecidable.", f.code(r.Arm), r.Disagreeing, r.Runs, r.RunA, r.RunB)
	case schema.IdentityEmptyArm:
		return fmt.Sprintf("Refused: arm %s %s.", f.code(r.Arm), f.text(r.Why))
	case schema.IdentityNoRuns:
		return fmt.Sprintf("Arm %s has no finished runs to compare.", f.code(r.Arm))
	case schema.HostOnBattery:
		return fmt.Sprintf("On battery: the machine ran on battery power around %d of %d finished runs; a Mac on battery may run slower than on AC.", r.Runs, r.Finished)
	case schema.HostLowPower:
		return fmt.Sprintf("Low-power mode: low-power mode was on around %d of %d finished runs, which lowers clock speeds.", r.Runs, r.Finished)
	case schema.HostPowerModeChanged:
		return fmt.Sprintf("Power mode changed during the campaign: macOS's energy mode was %s around different runs; the arms did not run under one regime.", f.text(strings.ReplaceAll(r.Modes, ",", ", then ")))
	case schema.HostThermal:
		return fmt.Sprintf("Thermal warning: the machine reported a thermal limit around %d of %d finished runs (%s); throttled runs are slower than the hardware can be.", r.Runs, r.Finished, f.code(r.Conditions))
	case schema.HostGPUPowerCap:
		return fmt.Sprintf("GPU power capping: a GPU's clocks were capped for power around %d of %d finished runs.", r.Runs, r.Finished)
	case schema.MetricNoValue:
		return fmt.Sprintf("No value: metric %s has no value in any of the %d finished runs, so it has no section; its source was absent in every run, or an input of its expression was. Check the source against an engine log or reply in the data folder.", f.code(r.Metric), r.Runs)
	case schema.OutputFlood:
		return fmt.Sprintf("Engine output flood: in %d of %d finished runs the engine wrote more than %s MiB to its standard output and error during the measured request; writing it competes with decoding, so those runs count as contended. Their logs keep the first and last 4 MiB.", r.Runs, r.Finished, count(r.LimitMiB))
	case schema.ImpossibleValues:
		return fmt.Sprintf("Impossible values: in %d run(s) the engine reported numbers that cannot be true (not finite, negative, or more tokens than max_tokens allows); they are recorded as absent, and each run's %s list in %s says what they were.", r.Runs, f.code("impossible"), f.code("runs.jsonl"))
	case schema.QuietTimedOut:
		return fmt.Sprintf("Busy host: the quiet gate's maximum wait passed before %d of %d finished runs, which then ran anyway (on_busy: %s).", r.Runs, r.Finished, f.text(r.OnBusy))
	}
	return fmt.Sprintf("Unknown reason code %s.", f.code(string(r.Code())))
}

// signedRankRounds is the fewest rounds whose signed-rank test can reach
// p < limit.
func signedRankRounds(limit float64) int {
	n := 1
	for n < 64 && stats.MinSignedRankP(n) >= limit {
		n++
	}
	return n
}

// uTestRounds is the fewest rounds (runs per arm) whose U test can reach
// p < limit.
func uTestRounds(limit float64) int {
	n := 1
	for n < 64 && analysis.MinP(n, n) >= limit {
		n++
	}
	return n
}

// divergence states where an arm first diverged.
func (f style) divergence(d schema.Divergence) string {
	where := fmt.Sprintf("byte %d", d.ByteOffset)
	if d.TokenIndex >= 0 {
		where = fmt.Sprintf("token %d / byte %d", d.TokenIndex, d.ByteOffset)
	}
	return fmt.Sprintf("arm %s diverges from %s (%d of %d runs) at %s", f.code(d.Arm), f.code(d.Against), d.Diverging, d.Runs, where)
}

// comparisonSentence states a comparison in plain words, e.g.
//
//	+6.1% faster [+3.9%, +8.2%], p=0.008
//	+33.5% slower [+20.0%, +48.1%], p=0.002   (time to first token)
//	no significant difference (~): -0.4% [-1.9%, +1.2%], p=0.55
//	inconclusive: p=0.041 but the interval [-0.5%, +8.0%] includes no change
//
// The change is new/old − 1 on the metric's own scale, with its interval
// on the same scale; "faster" or "slower" (for a speed; else "lower" or
// "higher" and whether that is better) is chosen by the metric's sense. Only a judged comparison (the primary metric's, corrected
// for the family of arms) gets those words: a secondary metric is
// described, never judged. The "~" is benchstat's mark for "no
// difference".
func comparisonSentence(c schema.Comparison, sn sense, judged bool) string {
	p := pText(c)
	if !c.Defined() {
		return "no comparison could be made: " + noComparisonWhy(c)
	}
	change := pct1(c.Ratio-1, true) + interval(c.Lo-1, c.Hi-1, true, !c.HasInterval())
	if !judged {
		return "described, not judged (secondary metric): " + change + ", " + p
	}
	word := sn.word(c.Ratio)
	ci := interval(c.Lo-1, c.Hi-1, true, !c.HasInterval())
	switch {
	case c.Significant:
		return fmt.Sprintf("%s %s%s, %s", pct1(c.Ratio-1, true), word, ci, p)
	case c.Disagreement == schema.PWithoutCI:
		return fmt.Sprintf("inconclusive: %s but the interval%s includes no change (%s)", p, ci, pct1(c.Ratio-1, true))
	case c.Disagreement == schema.CIWithoutP:
		return fmt.Sprintf("inconclusive: the interval%s excludes no change but %s is not significant (%s)", ci, p, pct1(c.Ratio-1, true))
	case c.Disagreement == schema.TooSmallDiff:
		return fmt.Sprintf("no difference that matters (~): %s, %s, below the minimum effect", change, p)
	}
	return "no significant difference (~): " + change + ", " + p
}

// noComparisonWhy says why a comparison has no ratio.
func noComparisonWhy(c schema.Comparison) string {
	switch {
	case c.N1 == 0 && c.N2 == 0:
		return "neither arm has a finished run"
	case c.N1 == 0:
		return "the baseline has no finished run"
	case c.N2 == 0:
		return "this arm has no finished run"
	}
	return "the baseline's median is 0"
}

// pText states a comparison's p-value, its test, and its Holm adjustment.
func pText(c schema.Comparison) string {
	s := formatP(c.P)
	if c.AdjustedP != 0 {
		s += ", Holm-adjusted " + formatP(c.AdjustedP)
	}
	if c.Paired {
		s += fmt.Sprintf(" (paired by round, %d rounds)", c.N1)
	}
	return s
}

func pct1(f float64, signed bool) string {
	if signed {
		return fmt.Sprintf("%+.1f%%", 100*f)
	}
	return fmt.Sprintf("%.1f%%", 100*f)
}

func interval(lo, hi float64, signed, none bool) string {
	if none || math.IsNaN(lo) || math.IsNaN(hi) {
		return ""
	}
	return " [" + pct1(lo, signed) + ", " + pct1(hi, signed) + "]"
}

// formatP writes a p-value with two significant digits, and as p<0.001
// below 0.001.
func formatP(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return "p=" + strconv.FormatFloat(p, 'g', 2, 64)
}

// armVerdictSentence is an arm's verdict line.
func armVerdictSentence(v schema.ArmVerdict, baseline string, sn sense) string {
	return markdown.armVerdict(v, baseline, sn)
}

func (f style) armVerdict(v schema.ArmVerdict, baseline string, sn sense) string {
	if v.Comparison.Robust {
		return f.armVerdictRobust(v, baseline, sn)
	}
	code := f.code
	c := v.Comparison
	s := fmt.Sprintf("%s vs %s: %s", code(v.Arm), code(baseline), comparisonSentence(c, sn, true))
	switch {
	case v.Control && c.Significant:
		s += " — negative control DIFFERS from the baseline: the method finds a difference where none exists"
	case v.Control:
		s += " — negative control: this is the method's noise floor"
	case v.ControlArm != "" && v.VsControl != nil:
		word := "no"
		if v.SeparatesFromNoise {
			word = "yes"
		}
		s += fmt.Sprintf("; separates from noise (vs control %s: %s): %s", code(v.ControlArm), comparisonSentence(*v.VsControl, sn, true), word)
	}
	if v.MDE > 0 {
		s += fmt.Sprintf("; minimum detectable effect ±%s at %s power (alpha %s)", pct1(v.MDE, false), pctShort(analysis.MDEPower), count(round3(v.MDEAlpha)))
	}
	return s
}

// armVerdictRobust is an arm's verdict line under RuleRobust1: the
// control's equivalence test, the comparison with the control only beside
// a significant arm, the MDE in both directions.
func (f style) armVerdictRobust(v schema.ArmVerdict, baseline string, sn sense) string {
	code := f.code
	c := v.Comparison
	ref := code(baseline)
	for _, p := range v.Pooled {
		ref += " + " + code(p)
	}
	if len(v.Pooled) > 0 {
		ref += " (pooled)"
	}
	s := fmt.Sprintf("%s vs %s: %s", code(v.Arm), ref, comparisonSentence(c, sn, true))
	if c.Trimmed > 0 {
		s += fmt.Sprintf(" (%d stalled run(s) trimmed)", c.Trimmed)
	}
	switch {
	case v.Control && c.Significant:
		s += " — negative control DIFFERS from the baseline: the method finds a difference where none exists"
	case v.Control && v.Equivalent:
		s += fmt.Sprintf(" — negative control: equivalent to the baseline within ±%s (two one-sided tests at alpha %s)", pct1(v.EquivalenceMargin, false), count(round3(v.MDEAlpha)))
	case v.Control:
		s += fmt.Sprintf(" — negative control: not shown equivalent to the baseline within ±%s (two one-sided tests at alpha %s): an artefact that size cannot be ruled out", pct1(v.EquivalenceMargin, false), count(round3(v.MDEAlpha)))
	case c.Significant && v.ControlArm != "" && v.VsControl != nil:
		word := "no"
		if v.SeparatesFromNoise {
			word = "yes"
		}
		s += fmt.Sprintf("; separates from noise (vs control %s: %s): %s", code(v.ControlArm), comparisonSentence(*v.VsControl, sn, true), word)
	}
	if v.MDE > 0 || v.MDEDown > 0 {
		s += fmt.Sprintf("; minimum detectable effect +%s (increase) / −%s (decrease) at %s power (alpha %s)", pct1(v.MDE, false), pct1(v.MDEDown, false), pctShort(analysis.MDEPower), count(round3(v.MDEAlpha)))
	}
	return s
}

func round3(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// methodStatistics describes the statistics, with the constants of the
// stats package.
func methodStatistics(me schema.Method) string {
	if me.Rule == schema.RuleRobust1 {
		return fmt.Sprintf("Statistics (rule %s): medians with distribution-free confidence intervals (benchmath); each arm against the baseline by a least-squares regression of log values on the arm and the run's place in the plan, which takes out a trend common to the arms, after trimming runs whose studentized residual is beyond the Bonferroni t quantile at %s over the runs (a stall, at most a quarter of the runs); t interval and two-sided t-test of the arm's coefficient, Holm over the test arms. A change counts only when the adjusted p < %s and it is at least %s. The minimum detectable effect is stated for an increase and a decrease from the regression's standard error (unbiased for small n), at least min_effect plus its margin. Drift is an arm's trend relative to the baseline's (t-test at %s). A negative control is an equivalence test within ±%s.",
			code(string(me.Rule)), count(stats.TrimAlpha), count(me.Alpha), pctShort(me.MinEffect), count(analysis.DriftAlpha), pctShort(analysis.EquivalenceMargin*me.MinEffect))
	}
	if me.Rule.Robust() {
		return fmt.Sprintf("Statistics (rule %s): medians with distribution-free confidence intervals (benchmath); each arm against the baseline by a least-squares regression of log values on the arm and the run's place in the plan, which takes out a trend common to the arms, after trimming runs whose studentized residual is beyond the Bonferroni t quantile at %s over the runs (a stall, at most a quarter of the runs); t interval and two-sided t-test of the arm's coefficient, Holm over the test arms. A change counts only when the adjusted p < %s and it is at least %s. The minimum detectable effect is stated for an increase and a decrease: the effect a campaign like this one (the same runs, noise and stalls) claims with the stated power, from the noise of the runs not far out (unbiased for small n), the runs its stalls cost or move (over every comparison of the campaign%s), the chance that the control's noise vetoes, and the looks taken; at least min_effect plus its margin. Drift is an arm's trend relative to the baseline's (t-test at %s). A negative control is an equivalence test within ±%s.%s",
			code(string(me.Rule)), count(stats.TrimAlpha), count(me.Alpha), pctShort(me.MinEffect), stallRatePhrase(me.Rule), count(analysis.DriftAlpha), pctShort(analysis.EquivalenceMargin*me.MinEffect), pooledSentence(me))
	}
	return fmt.Sprintf("Statistics: medians with distribution-free confidence intervals (benchmath; the level actually achievable with n samples is shown); ratio of medians with a percentile-bootstrap interval (%d resamples, seeded); two-sided Mann–Whitney U test. A change counts only when p < %s, the interval excludes 1, and it is at least %s.",
		me.Resamples, count(me.Alpha), pctShort(me.MinEffect))
}

// stallRatePhrase says how the MDE takes the stalls' rate under rules
// that average over its uncertainty; nothing under the rules before.
func stallRatePhrase(r schema.Rule) string {
	if !r.UncertainStallRate() {
		return ""
	}
	return "; their rate is taken with its uncertainty, a few stalls being a rough estimate of it"
}

// pooledSentence states stats.pool_control, when set.
func pooledSentence(me schema.Method) string {
	if !me.PoolControl {
		return ""
	}
	return " The negative controls are pooled with the baseline into the reference of every test arm (stats.pool_control); each control is still tested against the baseline alone."
}

// outlierRule names the outlier rule.
func outlierRule() string {
	return fmt.Sprintf("modified z-score > %s", count(stats.OutlierThreshold))
}

// ReasonText states a reason of the record as a sentence, for the
// console.
func ReasonText(rec *schema.Record, r schema.Reason) string { return recordStyle(rec, false).reason(r) }

// busyRemedy says what to do about the other processes: stop those the
// runs caught, or, when none was caught, find them.
func (f style) busyRemedy() string {
	if len(f.busy) == 0 {
		return "find what else was running (no single process was caught using the CPU; see the load under Machine)"
	}
	names := f.busy
	more := ""
	if len(names) > 3 {
		names, more = names[:3], ", …"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = f.code(n)
	}
	return "stop the busy processes the raw runs name under \"busiest other process\" (" + strings.Join(q, ", ") + more + ")"
}

// pct formats a threshold: to ten significant digits (7%, not the
// 7.000000000000001% of 0.07×100), every digit in a v2 record.
func (f style) pct(v float64) string {
	if f.v2 {
		return pctShort(v)
	}
	return scenarios.Percent(v)
}

// share is n of d as a percentage to one decimal (61.1%, not
// 61.111111111111114%), without a trailing .0.
func share(n, d int) string {
	if d == 0 {
		return "—"
	}
	return strings.TrimSuffix(strconv.FormatFloat(float64(n)/float64(d)*100, 'f', 1, 64), ".0") + "%"
}

// ArmVerdictText is an arm's verdict line, for the console.
func ArmVerdictText(r *schema.Record, v schema.ArmVerdict) string {
	return plain.armVerdict(v, r.Scenario.Baseline, senseOf(r, r.Scenario.Primary))
}

// IdentityLines states an identity check per arm, for the console.
func IdentityLines(id *schema.IdentityResult) []string {
	var out []string
	for _, n := range id.Notes {
		out = append(out, plain.reason(n))
	}
	for _, a := range append([]schema.IdentityArm{id.Baseline}, id.Arms...) {
		line := fmt.Sprintf("%s vs %s: %s", a.Arm, id.Against, a.Verdict)
		if a.Diverging > 0 {
			line += fmt.Sprintf(" (%d of %d runs differ; first: run %d vs run %d at byte %d", a.Diverging, a.Runs, a.RunA, a.RunB, a.ByteOffset)
			if a.TokensCompared && a.TokenIndex >= 0 {
				line += fmt.Sprintf(", token %d", a.TokenIndex)
			}
			line += ")"
		}
		if a.Error != "" {
			line += ": " + a.Error
		}
		out = append(out, line)
	}
	return out
}

// diagnosisSentence states what a divergence diagnosis could not measure.
func diagnosisSentence(f style, r schema.NoDiagnosis) string {
	side := ""
	if r.Side != "" {
		side = " (" + f.code(r.Side) + ")"
	}
	var why string
	switch schema.DiagnosisProblem(r.Why) {
	case schema.DiagnosisArmNoCandidate:
		return fmt.Sprintf("Divergence diagnosis of %s: the arm's own candidates at the first divergence; its engine returned none there (llama-server returns no log-probabilities for tokens accepted from a draft), so only the baseline's margin is known.", f.code(r.Arm))
	case schema.DiagnosisLaterDifference:
		return fmt.Sprintf("Divergence diagnosis of %s: the diagnosis request%s generated the measured run's output through the first divergence but not after it (it leaves that output at byte %s), so its candidates at the divergence are the measured run's.", f.code(r.Arm), side, f.text(r.Detail))
	case schema.DiagnosisProbeFailed:
		why = "the diagnosis request failed" + side + ": " + f.text(r.Detail)
	case schema.DiagnosisNotReproduced:
		why = "the diagnosis request" + side + " did not generate the measured run's output again, so its candidates describe another output"
	case schema.DiagnosisNoDifference:
		why = "the two diagnosis replies do not differ within the engine's log-probability entries"
	case schema.DiagnosisNoCandidates:
		why = "the engine returned no candidates at the first divergence" + side
	case schema.DiagnosisMergedPiece:
		why = "the divergent token" + side + " ends inside a multi-byte character, and the engine merged it into the next entry, whose candidates are another token's"
	default:
		why = f.text(r.Why)
	}
	return fmt.Sprintf("Divergence diagnosis of %s: %s.", f.code(r.Arm), why)
}
