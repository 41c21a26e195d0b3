package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// RefusedEstimate is what a comparison by round that is refused (more far
// rounds on one side than the trimming may take) states as its interval
// and p. A refused comparison decides nothing either way; what it states
// is read as the reason the campaign could not decide, and by what reads
// an undecided record's interval (an adaptive schedule's width, a bisect
// step ruling a slowdown out).
type RefusedEstimate int

const (
	// RefusedByT (rules robust-4 to robust-6) states the t interval and
	// t-test of the mean of all its rounds' differences, stalls included:
	// on the audit's host stalling one run in four, 85–90% of such
	// intervals held the true ratio (ten rounds).
	RefusedByT RefusedEstimate = iota
	// RefusedByHull (rule robust-8) states an interval that holds both
	// readings of the rounds (the stalls that refused it are a side's
	// stalls, or its level): the hull of the t interval of the mean and
	// the distribution-free interval of the median (SignInterval), and a
	// p that rejects only where both tests reject on the same side, so
	// that the p and the interval never disagree (HullP). The ratio stays
	// the mean's. With too few rounds for the median's interval at the
	// level asked (fewer than six at 95%), it states what RefusedByT does.
	RefusedByHull
)

// Restate gives a refused comparison the interval and p that the rule
// states for it, from the same rounds (RoundDifferences of ref and arm);
// a comparison that is not refused, and RefusedByT, are returned as they
// are. Only Lo, Hi, P and Method change: the ratio, Delta, SE, DF and
// Sigma stay the mean's (the minimum detectable effect, the control's
// equivalence and the histories read them). The interval is never
// narrower, nor the p smaller, than RefusedByT's.
func (e RefusedEstimate) Restate(r Robust, ref, arm []Timed, c Config) Robust {
	if e != RefusedByHull || !r.Refused || math.IsNaN(r.Lo) || math.IsNaN(r.Hi) {
		return r
	}
	c = c.withDefaults()
	d := RoundDifferences(ref, arm)
	lo, hi, ok := SignInterval(d, c.Confidence)
	if !ok {
		return r
	}
	r.Lo, r.Hi = math.Min(r.Lo, math.Exp(lo)), math.Max(r.Hi, math.Exp(hi))
	r.P = HullP(r, d)
	r.Method = "round blocks: the arm against its reference within each round; refused (too many rounds far out): " +
		"the hull of the t interval of the mean and the order-statistic interval of the median, both tests on one side for p"
	r.Significant = false
	return r
}

// HullP is the two-sided p of "the mean and the median moved the same
// way": twice the smaller, over the two directions, of the larger of the
// t-test's and the sign test's one-sided p in that direction. It is at
// most alpha exactly when both the t interval at 1 − alpha and
// SignInterval at 1 − alpha exclude 0 on the same side, that is when
// their hull does (up to the sign interval's attainable levels).
func HullP(r Robust, d []float64) float64 {
	tUp, tDown := tTails(r) // one-sided t p for an increase, a decrease
	sUp, sDown := signTails(d)
	return math.Min(1, 2*math.Min(math.Max(tUp, sUp), math.Max(tDown, sDown)))
}

// SignInterval is the distribution-free interval for the median of d at
// confidence at least conf: the k-th smallest and the k-th largest value,
// k the largest with P(Binomial(n, ½) < k) ≤ (1−conf)/2. ok is false when
// no k reaches conf (n too small: fewer than 6 at 95%, 8 at 99%).
func SignInterval(d []float64, conf float64) (lo, hi float64, ok bool) {
	n := len(d)
	if n == 0 || slices.ContainsFunc(d, math.IsNaN) {
		return math.NaN(), math.NaN(), false
	}
	b := distuv.Binomial{N: float64(n), P: 0.5}
	k := 0
	for j := 1; 2*j <= n+1; j++ {
		if b.CDF(float64(j-1)) <= (1-conf)/2*(1+1e-9) {
			k = j
		}
	}
	if k == 0 {
		return math.NaN(), math.NaN(), false
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[k-1], s[n-k], true
}

// signTails are the sign test's one-sided p for a median above 0 (few
// values at or below it) and below 0, a value equal to 0 counted on both
// sides (so a tie never helps reject): twice the smaller is the two-sided
// sign test, which rejects at α exactly when 0 is outside SignInterval at
// 1 − α, up to the interval's attainable levels.
func signTails(d []float64) (up, down float64) {
	atMost, atLeast := 0, 0 // values ≤ 0, ≥ 0
	for _, x := range d {
		if x <= 0 {
			atMost++
		}
		if x >= 0 {
			atLeast++
		}
	}
	if len(d) == 0 {
		return 0.5, 0.5
	}
	b := distuv.Binomial{N: float64(len(d)), P: 0.5}
	return b.CDF(float64(atMost)), b.CDF(float64(atLeast))
}
