package recorder

import (
	"fmt"
	"math"
	"strconv"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/stats"
)

// This file is the one place where the analysis' codes become sentences.

// style says how user-controlled text is written: escaped for Markdown,
// or as is for the console.
type style struct{ md bool }

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

func reasonText(r Reason) string { return markdown.reason(r) }

// reasonText states one reason.
func (f style) reason(r Reason) string {
	switch analysis.Code(r.Code) {
	case analysis.CounterFailed:
		return fmt.Sprintf("Run %d (%s, round %d): counter %s = %s, expected %s.", r.Run, f.code(r.Arm), r.Round, f.code(r.Counter), count(r.Value), r.Text)
	case analysis.RunFailed:
		attempt := ""
		if r.Attempt > 1 {
			attempt = fmt.Sprintf(", attempt %d", r.Attempt)
		}
		return fmt.Sprintf("Run %d (%s, round %d%s) failed: %s", r.Run, f.code(r.Arm), r.Round, attempt, f.text(r.Text))
	case analysis.IdentityMismatch:
		return "Output identity: " + f.divergence(r) + " (on_mismatch: fail)."
	case analysis.IdentityBrokenNote:
		return "Output identity contract broken: " + f.divergence(r) + " (on_mismatch: report keeps the timing results valid)."
	case analysis.IdentityUndecided:
		return "Output identity undecidable: see the Output identity section."
	case analysis.Interrupted:
		return fmt.Sprintf("Interrupted after %d of %d planned runs.", r.N, r.M)
	case analysis.ThinArm:
		return fmt.Sprintf("Arm %s has %d successful run(s); at least 2 are needed to say anything.", f.code(r.Arm), r.N)
	case analysis.TooNoisy:
		return fmt.Sprintf("Too noisy: arm %s has a spread of %.1f%% (interquartile range over median of %s), above the %s limit.", f.code(r.Arm), r.Value*100, f.code(r.Metric), pctShort(r.Limit))
	case analysis.TooFewSamples:
		return fmt.Sprintf("Too few samples: with %d and %d runs the U test cannot reach p < %s whatever the data (smallest possible p is %.3f); add rounds.", r.N, r.M, count(r.Limit), r.Value)
	case analysis.ContendedHost:
		return fmt.Sprintf("Contended host: in %d of %d runs other processes used more than %s of the CPU during the measured request, above the %s limit.", r.N, r.M, pctShort(r.Value), pctShort(r.Limit))
	case analysis.Drift:
		return fmt.Sprintf("Drift: arm %s drifted %+.1f%% over the campaign (first to last third; rank correlation with time %.2f). Interleaving spreads drift over the arms, but check the machine.", f.code(r.Arm), r.Value*100, r.Limit)
	case analysis.Contention:
		return fmt.Sprintf("Contention: %d of %d runs had other processes using more than %s of the CPU during the measured request (limit %s of runs).", r.N, r.M, pctShort(r.Value), pctShort(r.Limit))
	case analysis.ComparisonNote:
		return fmt.Sprintf("%s vs %s: %s.", f.code(r.Arm), f.code(r.Other), f.text(r.Text))
	case analysis.RunsExcluded:
		return fmt.Sprintf("%d run(s) failed and are excluded from the statistics (on_failure: %s).", r.N, f.text(r.Text))
	case analysis.GatesRelaxed:
		return "This scenario relaxes the publishability gates (" + f.text(r.Text) + "); a VALID verdict here holds under those gates only."
	case analysis.AllowUnverified:
		return fmt.Sprintf("Unverified: no counter tells the arms apart. The scenario's reason: %s.", f.text(strconv.Quote(r.Text)))
	case analysis.NoEngineTimings:
		return fmt.Sprintf("Engine-side timings: the engine reported no `timings.predicted_per_second` in %d run(s), so the client-side decode rate could not be cross-checked there.", r.N)
	case analysis.EventCounted:
		return fmt.Sprintf("Exact token counts in %d run(s): the engine returned no totals, so tokens were counted as stream events, which undercounts when the engine merges tokens.", r.N)
	case analysis.NoContention:
		return fmt.Sprintf("Contention during the measured request in %d run(s): the engine's CPU time could not be read, or the request took less than %ss, too short to judge.", r.N, count(r.Value))
	case analysis.NotRun:
		return fmt.Sprintf("%d planned run(s) did not run.", r.N)
	case analysis.NoExactness:
		return "Output identity between arms: the scenario has no `exactness` block, so generated text was recorded (runs.jsonl) but not compared."
	case analysis.KernelTiming:
		return "Engine-internal timing of individual kernels or layers: decodebench measures the production request path only."
	case analysis.IdentityEmptyBaseline:
		return fmt.Sprintf("Refused: the baseline %s %s; an empty comparison proves nothing.", f.code(r.Arm), f.text(r.Text))
	case analysis.IdentityUncomparable:
		return fmt.Sprintf("The baseline %s cannot show that it agrees with itself: %s (it needs at least 2 finished runs).", f.code(r.Arm), f.text(r.Text))
	case analysis.IdentityNotDeterminist:
		return fmt.Sprintf("The baseline %s is not deterministic: %d of its %d runs differ from its first (first difference between runs %d and %d), so identity between arms is undecidable.", f.code(r.Arm), r.N, r.M, r.Run, r.Round)
	case analysis.IdentityEmptyArm:
		return fmt.Sprintf("Refused: arm %s %s.", f.code(r.Arm), f.text(r.Text))
	case analysis.IdentityNoRuns:
		return fmt.Sprintf("Arm %s has no finished runs to compare.", f.code(r.Arm))
	default:
		if t, ok := f.hostReason(r); ok {
			return t
		}
	}
	return fmt.Sprintf("Unknown reason code %s.", f.code(r.Code))
}

// divergenceText states where an arm first diverged (IdentityMismatch and
// IdentityBrokenNote: Run is the token index, N the byte offset, M the
// diverging runs, Round the runs compared).
func (f style) divergence(r Reason) string {
	where := fmt.Sprintf("byte %d", r.N)
	if r.Run >= 0 {
		where = fmt.Sprintf("token %d / byte %d", r.Run, r.N)
	}
	return fmt.Sprintf("arm %s diverges from %s (%d of %d runs) at %s", f.code(r.Arm), f.code(r.Other), r.M, r.Round, where)
}

// comparisonSentence states a comparison in plain words, e.g.
//
//	faster by 6.1% [3.9%, 8.2%], p=0.008
//	no significant difference (~): -0.4% [-1.9%, +1.2%], p=0.55
//
// The percent is oriented so that positive means better: Ratio−1 when
// higher is better (tokens/s), 1−Ratio otherwise (latency, wall time). The
// "~" is benchstat's mark for "no difference".
func comparisonSentence(c Comparison, higherIsBetter bool) string {
	p := formatP(c.P)
	if c.Ratio == 0 {
		return "no comparison could be made (a group has no samples or its median is 0), " + p
	}
	pct, lo, hi := c.Ratio-1, c.Lo-1, c.Hi-1
	if !higherIsBetter {
		pct, lo, hi = 1-c.Ratio, 1-c.Hi, 1-c.Lo
	}
	noCI := c.Lo == 0 && c.Hi == 0
	switch {
	case c.Significant && pct > 0:
		return fmt.Sprintf("faster by %s%s, %s", pct1(pct, false), interval(lo, hi, false, noCI), p)
	case c.Significant && pct < 0:
		return fmt.Sprintf("slower by %s%s, %s", pct1(-pct, false), interval(-hi, -lo, false, noCI), p)
	default:
		return fmt.Sprintf("no significant difference (~): %s%s, %s", pct1(pct, true), interval(lo, hi, true, noCI), p)
	}
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
func armVerdictSentence(v ArmVerdict, baseline string, higherIsBetter bool) string {
	return markdown.armVerdict(v, baseline, higherIsBetter)
}

func (f style) armVerdict(v ArmVerdict, baseline string, higherIsBetter bool) string {
	code := f.code
	s := fmt.Sprintf("%s vs %s: %s", code(v.Arm), code(baseline), comparisonSentence(v.Comparison, higherIsBetter))
	c := v.Comparison
	switch {
	case v.Control:
		s += fmt.Sprintf(" — negative control: this is the method's noise floor (ratio %.4f [%.4f, %.4f])", c.Ratio, c.Lo, c.Hi)
	case v.ControlArm != "":
		word := "no"
		if v.SeparatesFromNoise {
			word = "yes"
		}
		s += fmt.Sprintf("; separates from noise (control %s): %s", code(v.ControlArm), word)
	}
	return s
}

// methodStatistics describes the statistics, with the constants of the
// stats package.
func methodStatistics(me Method) string {
	return fmt.Sprintf("Statistics: medians with distribution-free confidence intervals (benchmath; the level actually achievable with n samples is shown); ratio of medians with a percentile-bootstrap interval (%d resamples, seeded); two-sided Mann–Whitney U test. A change counts only when p < %s, the interval excludes 1, and it is at least %s.",
		me.Resamples, count(me.Alpha), pctShort(me.MinEffect))
}

// outlierRule names the outlier rule.
func outlierRule() string {
	return fmt.Sprintf("modified z-score > %s", count(stats.OutlierThreshold))
}

// ReasonText states a reason as a sentence, for the console.
func ReasonText(r Reason) string { return plain.reason(r) }

// ArmVerdictText is an arm's verdict line, for the console.
func (r *Record) ArmVerdictText(v ArmVerdict) string {
	return plain.armVerdict(v, r.Scenario.Baseline, higherIsBetter(r, r.Scenario.Primary))
}

// IdentityLines states an identity check per arm, for the console.
func IdentityLines(id *IdentityResult) []string {
	var out []string
	for _, n := range id.Notes {
		out = append(out, plain.reason(n))
	}
	for _, a := range append([]IdentityArm{id.Baseline}, id.Arms...) {
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

// hostReason states the host warnings (analysis/host.go).
func (f style) hostReason(r Reason) (string, bool) {
	switch analysis.Code(r.Code) {
	case analysis.HostOnBattery:
		return fmt.Sprintf("On battery: the machine ran on battery power around %d of %d finished runs; a Mac on battery may run slower than on AC.", r.N, r.M), true
	case analysis.HostLowPower:
		return fmt.Sprintf("Low-power mode: low-power mode was on around %d of %d finished runs, which lowers clock speeds.", r.N, r.M), true
	case analysis.HostThermal:
		return fmt.Sprintf("Thermal warning: the machine reported a thermal limit around %d of %d finished runs (%s); throttled runs are slower than the hardware can be.", r.N, r.M, f.code(r.Text)), true
	case analysis.HostGPUPowerCap:
		return fmt.Sprintf("GPU power capping: a GPU's clocks were capped for power around %d of %d finished runs.", r.N, r.M), true
	case analysis.QuietTimedOut:
		return fmt.Sprintf("Busy host: the quiet gate's maximum wait passed before %d of %d finished runs, which then ran anyway (on_busy: %s).", r.N, r.M, f.text(r.Text)), true
	}
	return "", false
}
