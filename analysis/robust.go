package analysis

import (
	"math"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// This file is schema.RuleRobust1: every comparison is a regression of log
// values on the arm and the run's place in the plan, stalled runs trimmed
// (stats.CompareRobust); the MDE is stated for an increase and a
// decrease; drift is an arm's trend relative to the baseline's; the
// control is an equivalence test; a sequential schedule spends alpha over
// its looks.

// EquivalenceMargin is the margin within which RuleRobust1 calls a
// negative control equivalent to the baseline, as a multiple of
// min_effect (2% at the default 1%): a control artefact smaller than
// twice the smallest change that counts cannot fake a change that counts
// once the control shows it absent.
const EquivalenceMargin = 2

// RobustMinRuns is schema.RobustMinRuns, the fewest finished runs the
// baseline and each arm need under RuleRobust1.
const RobustMinRuns = schema.RobustMinRuns

// DriftAlpha is the level of the relative-trend test that flags drift.
const DriftAlpha = 0.05

// levels are the alpha and the interval confidence every comparison is
// judged at: the policy's, or for a sequential schedule the policy's
// spent over its planned looks (Bonferroni), and the sequential account.
func levels(in Input, s samples) (alpha, confidence float64, seq *schema.Sequential) {
	p := in.Policy
	alpha, confidence = p.Stats.Alpha, p.Stats.Confidence
	looks := p.Schedule.Rounds.Looks()
	if len(looks) == 0 {
		return alpha, confidence, nil
	}
	k := float64(len(looks))
	alpha /= k
	confidence = 1 - (1-confidence)/k
	rounds := roundsRun(in)
	seq = &schema.Sequential{Every: p.Schedule.Rounds.Every, PlannedLooks: len(looks), AlphaPerLook: alpha}
	for _, l := range looks {
		if l <= rounds {
			seq.Looks = append(seq.Looks, l)
		}
	}
	seq.AlphaSpent = alpha * float64(len(seq.Looks))
	return alpha, confidence, seq
}

// looksTaken are the rounds of the sequential looks taken so far; nil for
// a fixed schedule.
func looksTaken(in Input) []int {
	rounds := roundsRun(in)
	var out []int
	for _, l := range in.Policy.Schedule.Rounds.Looks() {
		if l <= rounds {
			out = append(out, l)
		}
	}
	return out
}

// roundsRun is the highest round with a run.
func roundsRun(in Input) int {
	n := 0
	for _, r := range in.Runs {
		n = max(n, r.Round)
	}
	return n
}

func (s samples) timed(in Input, arm, metric string) []stats.Timed {
	var out []stats.Timed
	for _, i := range s[arm] {
		if v, ok := in.Runs[i].Metrics[metric]; ok {
			out = append(out, stats.Timed{Pos: float64(in.Runs[i].Seq), Value: v})
		}
	}
	return out
}

func compareRobust(in Input, s samples, ref, arm, metric string, alpha, confidence float64) stats.Robust {
	return compareRobustPooled(in, s, []string{ref}, arm, metric, alpha, confidence)
}

// compareRobustPooled compares arm with the runs of every arm of refs
// together.
func compareRobustPooled(in Input, s samples, refs []string, arm, metric string, alpha, confidence float64) stats.Robust {
	cfg := statsConfig(in.Policy)
	cfg.Alpha, cfg.Confidence = alpha, confidence
	var ref []stats.Timed
	for _, r := range refs {
		ref = append(ref, s.timed(in, r, metric)...)
	}
	return stats.CompareRobust(ref, s.timed(in, arm, metric), cfg)
}

// robustComparison stores a robust comparison.
func robustComparison(r stats.Robust, alpha, minEffect float64) schema.Comparison {
	c := comparison(r.Result)
	c.Trimmed, c.Robust = r.Trimmed1+r.Trimmed2, true
	c.Disagreement = disagreement(c, alpha, minEffect)
	return c
}

// armVerdictsRobust is armVerdicts under RuleRobust1.
func armVerdictsRobust(in Input, s samples) ([]schema.ArmVerdict, []schema.Reason, []schema.Reason) {
	p := in.Policy
	alpha, confidence, _ := levels(in, s)
	family := testArms(p)
	controlName := ""
	refs := []string{p.Baseline}
	var pooled []string
	for _, a := range p.Arms {
		if a.Control && controlName == "" {
			controlName = a.Name
		}
		if a.Control && p.Stats.PoolControl {
			pooled = append(pooled, a.Name)
		}
	}
	refs = append(refs, pooled...)
	var out []schema.ArmVerdict
	var vsControl []stats.Robust
	var warnings, inconclusive []schema.Reason
	var ps []float64
	// A test arm's MDE is the effect the campaign claims with MDEPower: a
	// significant arm is claimed only when the control does not veto, so
	// the chance that the control's own noise vetoes is made up for.
	power := MDEPower
	if controlName != "" {
		rc := compareRobust(in, s, p.Baseline, controlName, p.Primary, alpha, confidence)
		power = math.Min(0.99, MDEPower/(1-vetoChance(rc, alpha, EquivalenceMargin*p.Stats.MinEffect)))
	}
	rs := map[string]stats.Robust{}
	var stalls []stats.Stalls
	// seen is the campaign's runs of the primary metric: the pooled
	// stall rates are estimated from them.
	seen := 0
	for _, a := range p.Arms {
		seen += len(s.timed(in, a.Name, p.Primary))
	}
	for _, a := range p.Arms {
		if a.Name == p.Baseline {
			continue
		}
		// A test arm is compared with the reference (the baseline, and the
		// controls when pooled); a control with the baseline alone.
		r := compareRobust(in, s, p.Baseline, a.Name, p.Primary, alpha, confidence)
		if !a.Control {
			r = compareRobustPooled(in, s, refs, a.Name, p.Primary, alpha, confidence)
		}
		rs[a.Name] = r
		stalls = append(stalls, r.Stalls)
	}
	for _, a := range p.Arms {
		if a.Name == p.Baseline {
			continue
		}
		r := rs[a.Name]
		for _, w := range r.Warnings {
			warnings = append(warnings, schema.ComparisonNote{Arm: a.Name, Baseline: p.Baseline, Note: w})
		}
		v := schema.ArmVerdict{Arm: a.Name, Control: a.Control, Comparison: robustComparison(r, alpha, p.Stats.MinEffect)}
		if !a.Control {
			v.Pooled = pooled
		}
		level := alpha
		if !a.Control {
			level = alpha / float64(len(family))
			ps = append(ps, r.P)
		}
		v.MDEAlpha = level
		pw := power
		if a.Control {
			pw = MDEPower
		}
		// Stalls are the host's: the MDE takes how many runs are lost to
		// them or stay in from every comparison of the campaign (a
		// comparison of ten runs an arm sees none in a third of the
		// campaigns on a host where one run in twenty stalls).
		rm := r
		rm.Stalls = stats.PoolStalls(r.Stalls, stalls)
		rm.Stalls.Seen = seen
		rate := stats.StallRateSeen
		if in.Campaign.Rule.UncertainStallRate() {
			rate = stats.StallRateUncertain
		}
		up, down := stats.MDERobust(rm, level, pw, p.Stats.MinEffect, looksTaken(in), rate)
		if !in.Campaign.Rule.ModelledMDE() {
			up, down = stats.MDERobust1(r.SE, r.DF, level, MDEPower, p.Stats.MinEffect)
		}
		v.MDE, v.MDEDown = finite(up), finite(down)
		var vc stats.Robust
		if a.Control {
			v.EquivalenceMargin = EquivalenceMargin * p.Stats.MinEffect
			v.Equivalent = equivalent(r, alpha, v.EquivalenceMargin)
		} else if controlName != "" {
			vc = compareRobust(in, s, controlName, a.Name, p.Primary, alpha, confidence)
			cc := robustComparison(vc, alpha, p.Stats.MinEffect)
			v.ControlArm, v.VsControl = controlName, &cc
		}
		if a.Control {
			vc = r
		}
		vsControl = append(vsControl, vc)
		out = append(out, v)
	}
	adj := stats.Holm(ps)
	k := 0
	for i := range out {
		c := &out[i].Comparison
		if out[i].Control {
			// The control vetoes only an artefact it shows to exceed the
			// margin: a non-significant control proves nothing, and a
			// significant one within the margin cannot fake a change that
			// counts.
			c.Significant = c.Significant && beyond(vsControl[i], alpha, out[i].EquivalenceMargin)
			if c.Significant {
				inconclusive = append(inconclusive, schema.ControlDiffers{Arm: out[i].Arm, Baseline: p.Baseline, Metric: p.Primary,
					Ratio: c.Ratio, P: c.P, Lo: c.Lo, Hi: c.Hi, Alpha: alpha})
			}
			continue
		}
		if len(family) > 1 {
			c.AdjustedP = adj[k]
		}
		pp := adj[k]
		k++
		c.Significant = c.Significant && pp < alpha
		c.Disagreement = disagreement(schema.Comparison{Ratio: c.Ratio, Lo: c.Lo, Hi: c.Hi, P: pp}, alpha, p.Stats.MinEffect)
		// An arm separates from noise only when it is itself significant
		// and differs from the control in the same direction.
		if vc := vsControl[i]; out[i].VsControl != nil {
			out[i].SeparatesFromNoise = c.Significant && vc.Significant && (vc.Ratio > 1) == (c.Ratio > 1)
		}
	}
	return out, warnings, inconclusive
}

// equivalent is the two one-sided tests at alpha: the interval of the
// log ratio at 1 − 2·alpha lies within ±log(1+margin).
func equivalent(r stats.Robust, alpha, margin float64) bool {
	if math.IsNaN(r.SE) || r.DF < 1 || margin <= 0 {
		return false
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}.Quantile(1 - alpha)
	return math.Abs(r.Delta)+q*r.SE < math.Log1p(margin)
}

// beyond is the one-sided test at alpha that the log ratio exceeds
// ±log(1+margin): the control shows an artefact larger than the margin.
func beyond(r stats.Robust, alpha, margin float64) bool {
	if math.IsNaN(r.SE) || r.DF < 1 {
		return false
	}
	if r.SE == 0 {
		return math.Abs(r.Delta) > math.Log1p(margin)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}.Quantile(1 - alpha)
	return math.Abs(r.Delta)-q*r.SE > math.Log1p(margin)
}

// vetoChance is the chance that beyond fires for a control with no
// artefact at all, at the control comparison's standard error: the share
// of campaigns its noise alone makes INCONCLUSIVE.
func vetoChance(r stats.Robust, alpha, margin float64) float64 {
	if math.IsNaN(r.SE) || r.SE <= 0 || r.DF < 1 {
		return 0
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}
	return 2 * t.Survival(t.Quantile(1-alpha)+math.Log1p(margin)/r.SE)
}

// robustDrift fills an arm's drift under RuleRobust1: the baseline's own
// trend over the campaign, any other arm's trend relative to it.
func robustDrift(in Input, s samples, ar *schema.ArmResult, metric string, alpha, confidence float64) {
	p := in.Policy
	base := s.timed(in, p.Baseline, metric)
	if ar.Arm == p.Baseline {
		t := stats.Trend(base)
		ar.Drift, ar.DriftP = finite(t.Change), finite(t.P)
		return
	}
	t := stats.TrendDifference(base, s.timed(in, ar.Arm, metric))
	ar.Drift, ar.DriftP = finite(t.Change), finite(t.P)
}

// robustDriftFlagged is the drift flag under RuleRobust1: an arm other
// than the baseline whose trend relative to the baseline's is significant
// at DriftAlpha and at least max_drift over the campaign.
func robustDriftFlagged(a schema.ArmResult, baseline string, maxDrift float64) bool {
	return a.Arm != baseline && maxDrift > 0 && a.DriftP > 0 && a.DriftP < DriftAlpha && math.Abs(a.Drift) >= maxDrift
}

// SequentialDone reports whether a sequential schedule may stop after the
// runs in: at a look, when every test arm's verdict is decided (a
// significant change), or at the last look; and the analysis it judged.
// It is false between looks and for a schedule without looks.
func SequentialDone(in Input) (bool, Analysis) {
	r := in.Policy.Schedule.Rounds
	looks := r.Looks()
	rounds := roundsRun(in)
	atLook := false
	for _, l := range looks {
		atLook = atLook || l == rounds
	}
	if !atLook || !in.Campaign.Rule.Robust() {
		return false, Analysis{}
	}
	a := Analyze(in)
	if rounds >= r.Max {
		return true, a
	}
	return a.Sequential != nil && a.Sequential.Decided, a
}

// sequential is the sequential account of a campaign under a schedule
// with looks; Decided when every test arm is significant.
func sequential(in Input, s samples, verdicts []schema.ArmVerdict) *schema.Sequential {
	_, _, seq := levels(in, s)
	if seq == nil {
		return nil
	}
	decided, any := true, false
	for _, v := range verdicts {
		if !v.Control {
			any = true
			decided = decided && v.Comparison.Significant
		}
	}
	seq.Decided = any && decided
	return seq
}
