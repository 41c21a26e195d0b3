package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// Stalls is what a robust comparison saw of the runs far from their
// arm's median (beyond TrimZ robust standard deviations): those it trimmed
// (each costs a run) and those it kept (each moves the estimate): the
// MDE's model of the stalls a campaign like this one meets.
type Stalls struct {
	// Runs1 and Runs2 are the base's and the arm's valid runs, trimmed or
	// not; Trimmed the runs trimmed, Kept the runs far out but kept.
	Runs1, Runs2, Trimmed, Kept int
	// TrimRate and KeptRate are the shares of runs trimmed and kept far
	// out; Shift is the kept ones' mean log residual from their arm's
	// median and RMS its root mean square: the comparison's own, or the
	// campaign's (PoolStalls), since stalls are the host's, not an arm's.
	TrimRate, KeptRate, Shift, RMS float64
	// Sigma and DF are the residual standard deviation and degrees of
	// freedom of the fit without the runs far out (the fit's own when
	// there are none).
	Sigma, DF float64
	// Seen is the number of distinct runs the rates were estimated from
	// (the campaign's, when pooled); 0 means the comparison's own.
	Seen int
	// Far are how far off each far round was, kept or trimmed (a
	// comparison by round's): the sizes a model of put-back draws from.
	Far []float64
	// diffs are a comparison by round's differences, whose clean rounds
	// Sigma is of (cleanDF); nil otherwise.
	diffs []float64
}

// PoolStalls is s with the rates, shift and RMS of every comparison of a
// campaign pooled (runs counted once per comparison they are in).
func PoolStalls(s Stalls, all []Stalls) Stalls {
	var runs, trimmed, kept int
	var shift, sq float64
	for _, o := range all {
		runs += o.Runs1 + o.Runs2
		trimmed += o.Trimmed
		kept += o.Kept
		shift += o.Shift * float64(o.Kept)
		sq += o.RMS * o.RMS * float64(o.Kept)
	}
	s.TrimRate, s.KeptRate, s.Shift, s.RMS = 0, 0, 0, 0
	if runs == 0 {
		return s
	}
	s.TrimRate = float64(trimmed) / float64(runs)
	s.KeptRate = float64(kept) / float64(runs)
	if kept > 0 {
		s.Shift, s.RMS = shift/float64(kept), math.Sqrt(sq/float64(kept))
	}
	return s
}

// MergeStalls is what one comparison would have seen of stalls had it
// seen all of theirs: runs, trimmed and kept far rounds summed, the sizes
// of every far round, the kept ones' shift and RMS pooled by their count,
// the rates of the sums. A planner reading many records' comparisons
// merges them into as many as the campaign it plans will have: a model
// of the campaign's refusals counts its comparisons.
func MergeStalls(all []Stalls) Stalls {
	var out Stalls
	for _, o := range all {
		out.Runs1, out.Runs2 = out.Runs1+o.Runs1, out.Runs2+o.Runs2
		out.Trimmed, out.Kept = out.Trimmed+o.Trimmed, out.Kept+o.Kept
		out.Far = append(out.Far, o.Far...)
	}
	return PoolStalls(out, all)
}

// MDERobust is the minimum detectable effect of CompareRobust at the
// given power and two-sided level alpha, for an increase (up, as
// new/old − 1) and for a decrease (down, as 1 − new/old); looks are the
// rounds at the sequential looks taken (nil for a fixed schedule).
//
// It is the effect that a campaign like this one (the same runs per arm,
// the same noise, the same stalls) detects with the given power, and it
// models what makes a small campaign miss:
//
//   - the noise σ of the runs that are not far out, unbiased by c4(ν+1)
//     (a standard deviation from few runs is on average below σ), in
//     the standard error of the fit's design;
//   - the t quantiles at the fit's degrees of freedom, and min_effect:
//     an effect must clear both t(1−α/2)·SE and log(1+min_effect);
//   - stalls: a share of the runs (the share trimmed) is lost to the
//     trimming, and another (the share far out but kept) stays
//     in and moves the estimate by shift/n and widens σ. The power is
//     averaged over the number of stalls each arm keeps (binomial), not
//     taken at the average, since one kept stall in the faster arm
//     costs far more power than none gains;
//   - sequential looks: a campaign judged at several looks (alpha per
//     look) can decide at any of them, so the effect is scaled by the
//     ratio of the plan's MDE to the last look's, computed for a Brownian
//     path of the estimate through the looks (seeded paths).
//
// Without runs far out and with one look it is the textbook
//
//	δ = max((t(1−α/2, ν) + t(power, ν)) · SE, m + t(power, ν) · SE).
//
// With StallRateUncertain, the number of kept stalls an arm meets is
// averaged over the uncertainty of their rate (beta-binomial under a
// posterior of the rate the campaign saw), not taken at the
// rate seen: a rate seen in one or two events of thirty runs is rough,
// and the power lost to two or three kept stalls is far more than the
// power gained by none.
//
// Up is exp(δ)−1, down 1−exp(−δ). NaN when SE is undefined.
func MDERobust(r Robust, alpha, power, minEffect float64, looks []int, rate StallRate) (up, down float64) {
	if math.IsNaN(r.SE) || r.DF < 1 || r.Sigma <= 0 || alpha <= 0 || alpha >= 1 || power <= 0 || power >= 1 {
		if r.SE == 0 && r.DF >= 1 && alpha > 0 && alpha < 1 {
			return minEffect, minEffect
		}
		return math.NaN(), math.NaN()
	}
	m := mdeModel(r)
	m.uncertain = rate == StallRateUncertain
	f := sequentialFactor(looks, alpha, power)
	dUp := f * m.effect(1, alpha, power, math.Log1p(minEffect))
	dDown := f * m.effect(-1, alpha, power, -math.Log1p(-minEffect))
	return math.Expm1(dUp), -math.Expm1(-dDown)
}

// mde is MDERobust's model of a campaign.
type mde struct {
	n1, n2 float64 // valid runs per arm
	// design is SE/σ per unit of 1/n1+1/n2: the fit's design factor.
	design float64
	sigma  float64 // noise of the clean runs, unbiased
	// trimRate is the share of runs trimmed, keptRate the share of runs
	// kept far out, shift and rms their log shift.
	trimRate, keptRate, shift, rms float64
	// uncertain averages the kept stalls over their rate's uncertainty,
	// estimated from seen runs.
	uncertain bool
	seen      float64
}

// StallRate is how MDERobust takes the rate of the stalls a comparison
// kept.
type StallRate int

const (
	// StallRateSeen takes the rate the comparison saw (rule robust-2).
	StallRateSeen StallRate = iota
	// StallRateUncertain averages over the rate's posterior (robust-3).
	StallRateUncertain
)

func mdeModel(r Robust) mde {
	s := r.Stalls
	n1, n2 := float64(max(s.Runs1, r.N1)), float64(max(s.Runs2, r.N2))
	m := mde{n1: n1, n2: n2, design: r.SE / r.Sigma / math.Sqrt(1/float64(r.N1)+1/float64(r.N2))}
	sigma, df := s.Sigma, s.DF
	if !(sigma > 0) || df < 1 {
		sigma, df = r.Sigma, r.DF
	}
	m.sigma = sigma / c4(df+1)
	m.trimRate, m.keptRate, m.shift, m.rms = s.TrimRate, s.KeptRate, s.Shift, s.RMS
	m.seen = n1 + n2
	if s.Seen > 0 {
		m.seen = float64(s.Seen)
	}
	return m
}

// effect is the log effect in direction dir (+1 an increase, −1 a
// decrease) that the model detects with the given power: the power,
// averaged over the stalls each arm keeps, solved by bisection.
func (m mde) effect(dir, alpha, power, floor float64) float64 {
	n1 := m.n1 * (1 - m.trimRate)
	n2 := m.n2 * (1 - m.trimRate)
	df := math.Max(n1+n2-3, 1)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	c := t.Quantile(1 - alpha/2)
	var states []powerState
	for k2 := 0; k2 <= min(4, int(m.n2)); k2++ {
		for k1 := 0; k1 <= min(4, int(m.n1)); k1++ {
			w := m.keptChance(int(math.Round(m.n1)), k1) * m.keptChance(int(math.Round(m.n2)), k2)
			if w < 1e-6 {
				continue
			}
			a, b := float64(k1), float64(k2)
			v := m.sigma*m.sigma + m.rms*m.rms*(a*(1-a/n1)+b*(1-b/n2))/df
			states = append(states, powerState{w: w, shift: dir * m.shift * (b/n2 - a/n1),
				se: m.design * math.Sqrt(v*(1/n1+1/n2))})
		}
	}
	return effectAtPower(states, t, c, floor, power)
}

// keptChance is the chance that an arm of n runs keeps k stalls: binomial
// at the rate seen or, when the rate is uncertain, beta-binomial under the
// posterior Beta(x+w, seen−x+w) of the rate (w = priorStalls), where x = rate·seen
// is the stalls seen in the seen runs (Stalls.Seen: the campaign's runs
// when the rates are pooled over it, else the comparison's n1+n2).
func (m mde) keptChance(n, k int) float64 {
	if !m.uncertain || m.keptRate == 0 {
		return binomial(n, k, m.keptRate)
	}
	a, b := m.keptRate*m.seen+priorStalls, (1-m.keptRate)*m.seen+priorStalls
	if k > n {
		return 0
	}
	lc, _ := math.Lgamma(float64(n + 1))
	l1, _ := math.Lgamma(float64(k + 1))
	l2, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(lc - l1 - l2 + lbeta(float64(k)+a, float64(n-k)+b) - lbeta(a, b))
}

// lbeta is log B(a, b).
func lbeta(a, b float64) float64 {
	x, _ := math.Lgamma(a)
	y, _ := math.Lgamma(b)
	z, _ := math.Lgamma(a + b)
	return x + y - z
}

// binomial is the chance of k successes in n trials of chance p.
func binomial(n, k int, p float64) float64 {
	if k > n {
		return 0
	}
	lc, _ := math.Lgamma(float64(n + 1))
	l1, _ := math.Lgamma(float64(k + 1))
	l2, _ := math.Lgamma(float64(n - k + 1))
	if p == 0 {
		return b2f(k == 0)
	}
	if p == 1 {
		return b2f(k == n)
	}
	return math.Exp(lc - l1 - l2 + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

// sequentialPaths is the number of seeded Brownian paths sequentialFactor
// averages over.
const sequentialPaths = 4000

var pathCache sync.Map // key: looks as a string of ints → []float64 per path per look

// sequentialFactor is the ratio of the effect a campaign judged at every
// look (each at alpha) detects with the given power to the one its last
// look alone detects: the estimate is a Brownian path through the looks,
// its standard error at look k that of the last look times
// √(rounds/rounds_k). 1 for fewer than two looks.
func sequentialFactor(looks []int, alpha, power float64) float64 {
	if len(looks) < 2 {
		return 1
	}
	last := float64(looks[len(looks)-1])
	c := distuv.UnitNormal.Quantile(1 - alpha/2)
	w := brownian(looks)
	need := make([]float64, sequentialPaths)
	for p := range need {
		need[p] = math.Inf(1)
		for k, l := range looks {
			frac := math.Sqrt(float64(l) / last)
			// z_k = λ·frac + W_k crosses c for λ ≥ (c − W_k)/frac.
			need[p] = math.Min(need[p], (c-w[p*len(looks)+k])/frac)
		}
	}
	slices.Sort(need)
	plan := need[int(math.Ceil(power*sequentialPaths))-1]
	return plan / (c + distuv.UnitNormal.Quantile(power))
}

// brownian is sequentialPaths seeded paths of W_k = B(l_k)/√l_k at the
// looks l_k (standard normal at each look, correlated as the looks'
// shared rounds), path-major.
func brownian(looks []int) []float64 {
	key := fmt.Sprint(looks)
	if w, ok := pathCache.Load(key); ok {
		return w.([]float64)
	}
	rng := rand.New(rand.NewPCG(18, 1800))
	w := make([]float64, sequentialPaths*len(looks))
	for p := range sequentialPaths {
		b, prev := 0.0, 0
		for k, l := range looks {
			b += math.Sqrt(float64(l-prev)) * rng.NormFloat64()
			prev = l
			w[p*len(looks)+k] = b / math.Sqrt(float64(l))
		}
	}
	pathCache.Store(key, w)
	return w
}

// c4 is E[s]/σ for a sample of n normal values.
func c4(n float64) float64 {
	lg1, _ := math.Lgamma(n / 2)
	lg2, _ := math.Lgamma((n - 1) / 2)
	return math.Sqrt(2/(n-1)) * math.Exp(lg1-lg2)
}

// MDERobust1 is the minimum detectable effect of rule robust-1 (records
// written under it re-derive it): from the regression's standard error
// and degrees of freedom alone, for an increase (up, as new/old − 1) and a
// decrease (down, as 1 − new/old):
//
//	δ = max((t(1−α/2, ν) + t(power, ν)) · SE, m + t(power, ν) · SE)
//
// where m is log(1+minEffect) for an increase and −log(1−minEffect) for a
// decrease, and SE is unbiased for σ by c4(ν+1). NaN when SE is undefined.
func MDERobust1(se, df, alpha, power, minEffect float64) (up, down float64) {
	if math.IsNaN(se) || df < 1 || alpha <= 0 || alpha >= 1 || power <= 0 || power >= 1 {
		return math.NaN(), math.NaN()
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	se /= c4(df + 1)
	ta, tb := t.Quantile(1-alpha/2), t.Quantile(power)
	dUp := math.Max((ta+tb)*se, math.Log1p(minEffect)+tb*se)
	dDown := math.Max((ta+tb)*se, -math.Log1p(-minEffect)+tb*se)
	return math.Expm1(dUp), -math.Expm1(-dDown)
}

// priorStalls is the prior weight, in stalls and in clean runs, of the
// rate's posterior Beta(x+w, seen−x+w): between Haldane's 0 (the rate
// seen, its variance alone) and Jeffreys' ½. The calibration simulation
// (TestCalibration, 2,000 campaigns a cell) chose it: at 0 the MDE after
// ten fixed rounds on the CV 9% host is met with 77% power, at ½ the
// sequential one with 86%; at ¼ they are 78% and 85%.
const priorStalls = 0.25

// powerState is one way a campaign can turn out, with its weight: the
// estimate's shift from the true effect (stalls kept) and its standard
// error.
type powerState struct{ w, shift, se float64 }

// effectAtPower is the smallest effect (on the log scale) that the
// t-test at critical value c, claiming only past floor, detects with the
// given power, averaged over the weighted states (bisection; at most 64).
func effectAtPower(states []powerState, t distuv.StudentsT, c, floor, power float64) float64 {
	pw := func(d float64) float64 {
		var p, wsum float64
		for _, s := range states {
			thr := math.Max(c*s.se, floor)
			p += s.w * t.Survival((thr-d-s.shift)/s.se)
			wsum += s.w
		}
		return p / wsum
	}
	return solvePower(pw, power)
}
