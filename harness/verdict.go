package harness

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
)

// conclude applies the counter gate, the identity check and the
// publishability gates, computes the statistics, and sets the verdict.
//
// Precedence: a failed counter gate REJECTS (the arms are not proven to
// differ, so no number may be quoted), as does an identity mismatch under
// on_mismatch: fail; an interrupted campaign is INCOMPLETE; a run failure
// that stopped the campaign FAILS it; then UNVERIFIED for scenarios that
// allowed running without proof; then INCONCLUSIVE when a gate says the
// numbers must not be published; else VALID.
func (c *campaign) conclude(interrupted bool) {
	s := c.scenario
	rec := c.rec
	rec.Reasons, rec.Warnings = nil, nil
	rec.Results, rec.ArmVerdicts = nil, nil
	var gateFailures, runFailures []string
	failed := 0
	for _, run := range rec.Runs {
		if !run.OK() {
			failed++
			runFailures = append(runFailures, fmt.Sprintf("Run %d (`%s`, round %d%s) failed: %s", run.Seq, run.Arm, run.Round, attemptText(run), firstLine(run.Error)))
			continue
		}
		for _, k := range s.Counters {
			cr, ok := run.Counters[k.Name]
			if ok && !cr.OK {
				gateFailures = append(gateFailures, fmt.Sprintf("Run %d (`%s`, round %d): counter `%s` = %g, expected %s.", run.Seq, run.Arm, run.Round, k.Name, cr.Value, cr.Expect))
			}
		}
	}
	stopped := failed > 0 && !c.finishedPlan()

	c.flagOutliers()
	rec.Identity = c.checkIdentity()
	var inconclusive, flags []string
	if len(gateFailures) == 0 {
		rec.Results = c.results()
		rec.ArmVerdicts = c.armVerdicts()
		inconclusive, flags = c.gates()
	} else {
		rec.Results, rec.ArmVerdicts = nil, nil
	}
	identityReject := false
	if id := rec.Identity; id != nil {
		switch {
		case id.Verdict == "DIVERGENT" && id.OnMismatch == "fail":
			identityReject = true
		case id.Verdict == "DIVERGENT":
			flags = append(flags, "Output identity contract broken: "+identitySummary(id)+" (on_mismatch: report keeps the timing results valid).")
		case id.Verdict == "INCONCLUSIVE" || id.Verdict == "ERROR":
			inconclusive = append(inconclusive, "Output identity undecidable: "+identitySummary(id))
		}
	}

	switch {
	case len(gateFailures) > 0:
		rec.Verdict = recorder.Rejected
		rec.Reasons = append(gateFailures, runFailures...)
	case identityReject:
		rec.Verdict = recorder.Rejected
		rec.Reasons = append([]string{"Output identity: " + identitySummary(rec.Identity) + " (on_mismatch: fail)."}, runFailures...)
	case interrupted:
		rec.Verdict = recorder.Incomplete
		rec.Reasons = append([]string{fmt.Sprintf("Interrupted after %d of %d planned runs.", countOK(rec.Runs), len(rec.Method.Planned))}, runFailures...)
	case stopped:
		rec.Verdict = recorder.Failed
		rec.Reasons = runFailures
	case len(c.thinArms()) > 0:
		rec.Verdict = recorder.Failed
		rec.Reasons = append(c.thinArms(), runFailures...)
	case s.AllowUnverified != "":
		rec.Verdict = recorder.Unverified
		rec.Reasons = append(inconclusive, runFailures...)
	case len(inconclusive) > 0:
		rec.Verdict = recorder.Inconclusive
		rec.Reasons = append(inconclusive, runFailures...)
	default:
		rec.Verdict = recorder.Valid
		rec.Reasons = runFailures
	}
	rec.Reasons = append(rec.Reasons, flags...)
	if failed > 0 && !stopped {
		rec.Warnings = append(rec.Warnings, fmt.Sprintf("%d run(s) failed and are excluded from the statistics (on_failure: %s).", failed, s.OnFailure))
	}
	if relaxed := relaxedGates(s.Gates); relaxed != "" {
		rec.Warnings = append(rec.Warnings, "This scenario relaxes the publishability gates ("+relaxed+"); a VALID verdict here holds under those gates only.")
	}
	if s.AllowUnverified != "" {
		rec.Warnings = append(rec.Warnings, fmt.Sprintf("Unverified: no counter tells the arms apart. The scenario's reason: %q.", s.AllowUnverified))
	}
	rec.Method.ClientEngineRatio = clientEngineRatio(rec.Runs)
	rec.NotMeasured = nil
	for _, n := range s.Unmeasured {
		rec.NotMeasured = append(rec.NotMeasured, string(n))
	}
	rec.NotMeasured = append(rec.NotMeasured, c.unmeasuredByRun()...)
}

// gates applies the publishability rules to the primary metric. It returns
// the reasons that make the campaign INCONCLUSIVE and the flags that are
// reported without changing the verdict.
func (c *campaign) gates() (inconclusive, flags []string) {
	s, rec := c.scenario, c.rec
	res, ok := rec.Result(s.Metrics.Primary)
	if !ok {
		return nil, nil
	}
	for _, a := range res.Arms {
		if g := float64(s.Gates.MaxSpread); g > 0 && a.Spread() > g {
			inconclusive = append(inconclusive, fmt.Sprintf("Too noisy: arm `%s` has a spread of %.1f%% (interquartile range over median of `%s`), above the %s limit.", a.Arm, a.Spread()*100, s.Metrics.Primary, s.Gates.MaxSpread))
		}
		if g := float64(s.Gates.MaxDrift); g > 0 && a.N >= 6 && abs(a.Drift) >= g && abs(a.DriftRho) >= 0.5 {
			flags = append(flags, fmt.Sprintf("Drift: arm `%s` drifted %+.1f%% over the campaign (first to last third; rank correlation with time %.2f). Interleaving spreads drift over the arms, but check the machine.", a.Arm, a.Drift*100, a.DriftRho))
		}
		if a.Arm != s.Baseline {
			if n0 := baseN(res, s.Baseline); minP(n0, a.N) >= float64(s.Stats.Alpha) {
				inconclusive = append(inconclusive, fmt.Sprintf("Too few samples: with %d and %d runs the U test cannot reach p < %s whatever the data (smallest possible p is %.3f); add rounds.", n0, a.N, num(float64(s.Stats.Alpha)), minP(n0, a.N)))
			}
		}
	}
	contended, measured := 0, 0
	for _, r := range rec.Runs {
		if !r.OK() || r.Contention == nil || r.Metrics[scenarios.WallS] < minContentionWindow.Seconds() {
			continue
		}
		measured++
		if r.Contended {
			contended++
		}
	}
	if g := float64(s.Gates.MaxContended); measured > 0 && g > 0 && float64(contended)/float64(measured) > g {
		inconclusive = append(inconclusive, fmt.Sprintf("Contended host: in %d of %d runs other processes used more than %s of the CPU during the measured request, above the %s limit.", contended, measured, s.Gates.ContendedCPU, s.Gates.MaxContended))
	} else if contended > 0 {
		flags = append(flags, fmt.Sprintf("Contention: %d of %d runs had other processes using more than %s of the CPU during the measured request (limit %s of runs).", contended, measured, s.Gates.ContendedCPU, s.Gates.MaxContended))
	}
	return inconclusive, flags
}

// thinArms names arms left with fewer than two successful runs, about
// which nothing can be said.
func (c *campaign) thinArms() []string {
	n := map[string]int{}
	for _, r := range c.rec.Runs {
		if r.OK() {
			n[r.Arm]++
		}
	}
	var out []string
	for _, a := range c.scenario.ArmNames() {
		if n[a] < 2 && len(c.rec.Runs) > 0 {
			out = append(out, fmt.Sprintf("Arm `%s` has %d successful run(s); at least 2 are needed to say anything.", a, n[a]))
		}
	}
	return out
}

// finishedPlan reports whether the last planned slot has a run.
func (c *campaign) finishedPlan() bool {
	if len(c.rec.Runs) == 0 {
		return false
	}
	last := c.rec.Runs[len(c.rec.Runs)-1]
	if last.Seq < len(c.rec.Method.Planned) {
		return false
	}
	policy, _ := c.failurePolicy()
	return last.OK() || policy == "continue"
}

func attemptText(r recorder.Run) string {
	if r.Attempt > 1 {
		return fmt.Sprintf(", attempt %d", r.Attempt)
	}
	return ""
}

func countOK(runs []recorder.Run) int {
	n := 0
	for _, r := range runs {
		if r.OK() {
			n++
		}
	}
	return n
}

// clientEngineRatio is the median of the client-side decode rate over the
// engine's own predicted_per_second: 1 means the two clocks agree.
func clientEngineRatio(runs []recorder.Run) float64 {
	var xs []float64
	for _, r := range runs {
		eng := r.EngineTimings["predicted_per_second"]
		if cl, ok := r.Metrics["decode_tok_s"]; ok && r.OK() && eng > 0 {
			xs = append(xs, cl/eng)
		}
	}
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

// unmeasuredByRun lists what the campaign itself could not measure.
func (c *campaign) unmeasuredByRun() []string {
	rec := c.rec
	var out []string
	missingTimings, eventCounted, noContention := 0, 0, 0
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
		if run.Contention == nil || run.Metrics[scenarios.WallS] < minContentionWindow.Seconds() {
			noContention++
		}
	}
	if missingTimings > 0 {
		out = append(out, fmt.Sprintf("Engine-side timings: the engine reported no `timings.predicted_per_second` in %d run(s), so the client-side decode rate could not be cross-checked there.", missingTimings))
	}
	if eventCounted > 0 {
		out = append(out, fmt.Sprintf("Exact token counts in %d run(s): the engine returned no totals, so tokens were counted as stream events, which undercounts when the engine merges tokens.", eventCounted))
	}
	if noContention > 0 {
		out = append(out, fmt.Sprintf("Contention during the measured request in %d run(s): the engine's CPU time could not be read, or the request took less than %s, too short to judge.", noContention, minContentionWindow))
	}
	if n := len(rec.Method.Planned) - len(rec.Runs); n > 0 {
		out = append(out, fmt.Sprintf("%d planned run(s) did not run.", n))
	}
	if c.scenario.Exactness == nil {
		out = append(out, "Output identity between arms: the scenario has no `exactness` block, so generated text was recorded (runs.jsonl) but not compared.")
	}
	out = append(out, "Engine-internal timing of individual kernels or layers: decodebench measures the production request path only.")
	return out
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func baseN(res recorder.MetricResult, baseline string) int {
	for _, a := range res.Arms {
		if a.Arm == baseline {
			return a.N
		}
	}
	return 0
}

// minP is the smallest two-sided p-value the Mann–Whitney U test can give
// for samples of n1 and n2: complete separation, 2 / C(n1+n2, n1). With 3
// runs per arm it is 0.1, so nothing could ever be significant at 0.05.
func minP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	c := 1.0
	for i := 1; i <= n2; i++ {
		c = c * float64(n1+i) / float64(i)
	}
	return min(1, 2/c)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// relaxedGates lists the gates the scenario set looser than the defaults
// (or turned off), for the record's warnings.
func relaxedGates(g scenarios.Gates) string {
	var out []string
	check := func(name string, v scenarios.Fraction, def float64) {
		switch {
		case v == 0:
			out = append(out, name+" off")
		case float64(v) > def:
			out = append(out, fmt.Sprintf("%s %s instead of %s", name, v, scenarios.Fraction(def)))
		}
	}
	check("max_spread", g.MaxSpread, scenarios.DefaultMaxSpread)
	check("max_contended", g.MaxContended, scenarios.DefaultMaxContended)
	check("contended_cpu", g.ContendedCPU, scenarios.DefaultContendedCPU)
	return strings.Join(out, ", ")
}
