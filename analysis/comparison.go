package analysis

import (
	"math"
	"slices"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// Comparison is how a rule compares an arm's runs of a metric with its
// reference's. Every comparison comes back as a stats.Robust: the ratio,
// interval and p of its Result, and for a regression its coefficient,
// standard error, trimmed runs and stalls (NaN and zero otherwise).
type Comparison interface {
	// compare judges arm against the runs of every arm of refs together,
	// at alpha, with its interval at confidence.
	compare(in Input, s samples, refs []string, arm, metric string, alpha, confidence float64) stats.Robust
	// store is a comparison as the record keeps it, whether the test and
	// the interval disagree judged at alpha.
	store(r stats.Robust, alpha, minEffect float64) schema.Comparison
	// tooFew is why the comparison of arm with ref cannot decide at
	// level whatever the values are; nil when it can.
	tooFew(in Input, s samples, ref, arm string, level float64) schema.Reason
}

// RatioOfMedians compares the medians: their ratio with a percentile
// bootstrap interval and the Mann–Whitney U test (stats.Compare); by
// round when the policy pairs the arms and every round holds one run of
// each, the median within-round ratio and the signed-rank test
// (stats.ComparePaired). Pairing is off by default, as chosen by
// simulation: see schema.PairOff.
type RatioOfMedians struct{}

func (RatioOfMedians) compare(in Input, s samples, refs []string, arm, metric string, alpha, confidence float64) stats.Robust {
	cfg := statsConfig(in.Policy)
	cfg.Alpha, cfg.Confidence = alpha, confidence
	nan := math.NaN()
	out := stats.Robust{Delta: nan, SE: nan, DF: nan, Sigma: nan}
	if len(refs) == 1 {
		if b, a, ok := pairs(in, s, refs[0], arm, metric); ok {
			out.Result = stats.ComparePaired(b, a, cfg)
			return out
		}
	}
	var ref []float64
	for _, r := range refs {
		ref = append(ref, s.values(in, r, metric)...)
	}
	out.Result = stats.Compare(ref, s.values(in, arm, metric), cfg)
	return out
}

func (RatioOfMedians) store(r stats.Robust, alpha, minEffect float64) schema.Comparison {
	c := comparison(r.Result)
	c.Disagreement = disagreement(c, alpha, minEffect)
	return c
}

// tooFew: Holm's first step compares the smallest p with alpha/m, so an
// arm must be able to get below its level; the rank tests have a floor.
func (RatioOfMedians) tooFew(in Input, s samples, ref, arm string, level float64) schema.Reason {
	if mp, paired := minPFor(in, s, ref, arm); mp >= level {
		return schema.TooFewSamples{Arm: arm, N1: len(s.values(in, ref, in.Policy.Primary)), N2: len(s.values(in, arm, in.Policy.Primary)),
			SmallestP: mp, Alpha: level, Paired: paired}
	}
	return nil
}

// LogRegression compares by a regression of log values on the arm and the
// run's place in the plan, stalled runs trimmed (stats.CompareRobust): a
// trend common to the arms is taken out, and the t-test and t interval of
// the arm's coefficient never disagree.
type LogRegression struct{}

func (LogRegression) compare(in Input, s samples, refs []string, arm, metric string, alpha, confidence float64) stats.Robust {
	cfg := statsConfig(in.Policy)
	cfg.Alpha, cfg.Confidence = alpha, confidence
	var ref []stats.Timed
	for _, r := range refs {
		ref = append(ref, s.timed(in, r, metric)...)
	}
	return stats.CompareRobust(ref, s.timed(in, arm, metric), cfg)
}

func (LogRegression) store(r stats.Robust, alpha, minEffect float64) schema.Comparison {
	c := comparison(r.Result)
	c.Trimmed, c.Robust = r.Trimmed1+r.Trimmed2, true
	c.Disagreement = disagreement(c, alpha, minEffect)
	return c
}

// tooFew: the t-test has no floor on its p, but the regression needs
// enough runs of each arm to trim a stall.
func (LogRegression) tooFew(in Input, s samples, ref, arm string, _ float64) schema.Reason {
	if n1, n2 := len(s.values(in, ref, in.Policy.Primary)), len(s.values(in, arm, in.Policy.Primary)); min(n1, n2) < RobustMinRuns {
		return schema.TooFewRuns{Arm: arm, N1: n1, N2: n2, Min: RobustMinRuns}
	}
	return nil
}

// RobustMinRuns is schema.RobustMinRuns, the fewest finished runs the
// baseline and each arm need for a regression.
const RobustMinRuns = schema.RobustMinRuns

// comparison stores a comparison's result: NaN and ±Inf become 0.
func comparison(c stats.Result) schema.Comparison {
	return schema.Comparison{Ratio: orZero(c.Ratio), Lo: orZero(c.Lo), Hi: orZero(c.Hi), Confidence: orZero(c.Confidence), P: orZero(c.P),
		Significant: c.Significant, Paired: c.Paired, N1: c.N1, N2: c.N2}
}

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
	slices.Sort(rounds)
	for _, r := range rounds {
		b, a = append(b, rb[r]), append(a, ra[r])
	}
	return b, a, true
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

// MinP is the smallest two-sided p-value the Mann–Whitney U test can give
// for samples of n1 and n2: complete separation, 2 / C(n1+n2, n1). With 3
// runs per arm it is 0.1, so nothing could ever be significant at 0.05.
func MinP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	c := 1.0
	for i := 1; i <= n2; i++ {
		c = c * float64(n1+i) / float64(i)
	}
	return min(1, 2/c)
}

// orZero keeps NaN and ±Inf out of stored results: JSON cannot carry them.
func orZero(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}
