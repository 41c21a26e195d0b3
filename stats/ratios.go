package stats

import (
	"math"
	"math/rand/v2"
	"slices"
)

// RatioChange is how an arm's ratio to its baseline moved between two
// campaigns: (median(newArm)/median(newBase)) / (median(oldArm)/median(oldBase)).
// That ratio of ratios survives a change of machine where raw rates do
// not: both campaigns' arms share their machine with their own baseline.
type RatioChange struct {
	Old, New, Change float64
	// Lo and Hi bound Change at Confidence: a percentile bootstrap that
	// resamples each of the four groups independently.
	Lo, Hi, Confidence float64
	// P is that bootstrap's two-sided p-value of no change (percentileP):
	// below 1 − Confidence exactly when the interval excludes 1; 1 when
	// there is no interval.
	P float64
}

// CompareRatios bootstraps the change of an arm's ratio to its baseline
// between two campaigns. Every group needs two samples; otherwise the
// interval is NaN.
func CompareRatios(oldBase, oldArm, newBase, newArm []float64, c Config) RatioChange {
	c = c.withDefaults()
	ob, oa, nb, na := sorted(oldBase), sorted(oldArm), sorted(newBase), sorted(newArm)
	out := RatioChange{Old: math.NaN(), New: math.NaN(), Change: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: c.Confidence, P: 1}
	med := func(x []float64) float64 { return Quantile(x, 0.5) }
	// Each campaign's ratio where it has both groups, though the other
	// has not: the change is then unknown, not the ratios.
	if len(ob) > 0 && len(oa) > 0 {
		out.Old = Ratio(med(oa), med(ob))
	}
	if len(nb) > 0 && len(na) > 0 {
		out.New = Ratio(med(na), med(nb))
	}
	if len(ob) == 0 || len(oa) == 0 || len(nb) == 0 || len(na) == 0 {
		return out
	}
	out.Change = Ratio(out.New, out.Old)
	if len(ob) < 2 || len(oa) < 2 || len(nb) < 2 || len(na) < 2 {
		return out
	}
	rng := rand.New(rand.NewPCG(c.Seed, pcgStream))
	groups := []*resampler{newResampler(ob), newResampler(oa), newResampler(nb), newResampler(na)}
	var changes []float64
	for range c.Resamples {
		var m [4]float64
		for i, g := range groups {
			m[i] = g.median(rng)
		}
		v := Ratio(Ratio(m[3], m[2]), Ratio(m[1], m[0]))
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			changes = append(changes, v)
		}
	}
	if len(changes) == 0 {
		return out
	}
	slices.Sort(changes)
	tail := (1 - c.Confidence) / 2
	out.Lo, out.Hi = Quantile(changes, tail), Quantile(changes, 1-tail)
	out.P = percentileP(ones(changes), len(changes))
	return out
}
