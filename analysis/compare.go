package analysis

import (
	"math"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// disagreement classifies a comparison judged at alpha.
func disagreement(c schema.Comparison, alpha, minEffect float64) schema.Disagreement {
	if !c.Defined() || !c.HasInterval() {
		return schema.Agree
	}
	pSig, ciSig := c.P < alpha, c.Lo > 1 || c.Hi < 1
	switch {
	case pSig && !ciSig:
		return schema.PWithoutCI
	case ciSig && !pSig:
		return schema.CIWithoutP
	case pSig && ciSig && math.Abs(c.Ratio-1) < minEffect:
		return schema.TooSmallDiff
	}
	return schema.Agree
}

// compareArms compares arm with ref on one metric. When the policy allows
// pairing and every round that holds a sample of either arm holds exactly
// one of each, the comparison is paired by round (stats.ComparePaired);
// otherwise it compares two groups (stats.Compare). Pairing is off by
// default, as chosen by simulation: see schema.PairOff.
func compareArms(in Input, s samples, ref, arm, metric string) stats.Result {
	cfg := statsConfig(in.Policy)
	if b, a, ok := pairs(in, s, ref, arm, metric); ok {
		return stats.ComparePaired(b, a, cfg)
	}
	return stats.Compare(s.values(in, ref, metric), s.values(in, arm, metric), cfg)
}

// pairs returns ref's and arm's values of metric paired by round, ok only
// when pairing applies: the policy allows it, there are at least two
// rounds, and no round holds a sample of one arm without one of the other.
func pairs(in Input, s samples, ref, arm, metric string) (b, a []float64, ok bool) {
	if in.Policy.Stats.Pairing != schema.PairAuto {
		return nil, nil, false
	}
	byRound := func(name string) (map[int]float64, bool) {
		m := map[int]float64{}
		for _, i := range s[name] {
			r := in.Runs[i]
			v, has := r.Metrics[metric]
			if !has {
				return nil, false
			}
			if _, dup := m[r.Round]; dup {
				return nil, false
			}
			m[r.Round] = v
		}
		return m, true
	}
	rb, ok1 := byRound(ref)
	ra, ok2 := byRound(arm)
	if !ok1 || !ok2 || len(rb) != len(ra) || len(rb) < 2 {
		return nil, nil, false
	}
	rounds := make([]int, 0, len(rb))
	for r := range rb {
		if _, both := ra[r]; !both {
			return nil, nil, false
		}
		rounds = append(rounds, r)
	}
	sortInts(rounds)
	for _, r := range rounds {
		b, a = append(b, rb[r]), append(a, ra[r])
	}
	return b, a, true
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// noiseSigma is the robust standard deviation of log values behind a
// comparison: of the per-round log ratios when paired, else pooled over
// the two groups.
func noiseSigma(in Input, s samples, ref, arm, metric string, paired bool) float64 {
	if paired {
		b, a, _ := pairs(in, s, ref, arm, metric)
		r := make([]float64, len(b))
		for i := range b {
			r[i] = a[i] / b[i]
		}
		return stats.RobustSigmaLog(r)
	}
	xb, xa := s.values(in, ref, metric), s.values(in, arm, metric)
	return stats.PooledSigma(stats.RobustSigmaLog(xb), len(xb), stats.RobustSigmaLog(xa), len(xa))
}

// MDEPower is the power at which a record states its minimum detectable
// effect.
const MDEPower = 0.8

// testArms are the arms whose primary comparison with the baseline forms
// the family: every arm but the baseline and negative controls.
func testArms(p scenarios.Policy) []string {
	var out []string
	for _, a := range p.Arms {
		if a.Name != p.Baseline && !a.Control {
			out = append(out, a.Name)
		}
	}
	return out
}

// armVerdicts judges every arm but the baseline on the primary metric.
//
// Test arms form a family whose p-values are adjusted by Holm's method,
// so that the chance of any false "faster"/"slower" among them stays at
// alpha. A negative-control arm is judged alone at alpha (a stricter
// check of the method); when the campaign has one, each test arm is also
// compared with the control by the same rule as with the baseline
// (SeparatesFromNoise). It returns the verdicts, the warnings of the
// statistics library, and the reasons that make the campaign
// INCONCLUSIVE (a control that differs from its baseline).
func armVerdicts(in Input, s samples) ([]schema.ArmVerdict, []schema.Reason, []schema.Reason) {
	p := in.Policy
	alpha := p.Stats.Alpha
	family := testArms(p)
	var out []schema.ArmVerdict
	var warnings, inconclusive []schema.Reason
	controlName := ""
	for _, a := range p.Arms {
		if a.Control {
			controlName = a.Name
			break
		}
	}
	var ps []float64
	for _, a := range p.Arms {
		if a.Name == p.Baseline {
			continue
		}
		c := compareArms(in, s, p.Baseline, a.Name, p.Primary)
		for _, w := range c.Warnings {
			warnings = append(warnings, schema.ComparisonNote{Arm: a.Name, Baseline: p.Baseline, Note: w})
		}
		v := schema.ArmVerdict{Arm: a.Name, Control: a.Control, Comparison: comparison(c)}
		level := alpha
		if !a.Control {
			level = alpha / float64(len(family))
			ps = append(ps, c.P)
		}
		v.MDEAlpha = level
		v.MDE = finite(stats.MDE(noiseSigma(in, s, p.Baseline, a.Name, p.Primary, c.Paired), c.N1, c.N2, level, MDEPower, c.Paired))
		if !a.Control && controlName != "" {
			vc := compareArms(in, s, controlName, a.Name, p.Primary)
			cc := comparison(vc)
			cc.Significant = vc.Significant && (vc.Ratio > 1) == (c.Ratio > 1)
			cc.Disagreement = disagreement(cc, alpha, p.Stats.MinEffect)
			v.ControlArm, v.VsControl, v.SeparatesFromNoise = controlName, &cc, cc.Significant
		}
		out = append(out, v)
	}
	adj := stats.Holm(ps)
	k := 0
	for i := range out {
		c := &out[i].Comparison
		if out[i].Control {
			c.Disagreement = disagreement(*c, alpha, p.Stats.MinEffect)
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
	}
	return out, warnings, inconclusive
}

// FamilyAlpha is the family-wise error rate the verdict controls, and the
// number of arms in the family.
func FamilyAlpha(p scenarios.Policy) (float64, int) {
	return p.Stats.Alpha, len(testArms(p))
}

// minPFor is the smallest p-value the comparison of two arms can reach with
// their samples: the signed-rank test's when they pair by round, else the
// U test's.
func minPFor(in Input, s samples, ref, arm string) (float64, bool) {
	if b, _, ok := pairs(in, s, ref, arm, in.Policy.Primary); ok {
		return stats.MinSignedRankP(len(b)), true
	}
	return MinP(len(s.values(in, ref, in.Policy.Primary)), len(s.values(in, arm, in.Policy.Primary))), false
}
