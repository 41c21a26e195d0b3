package stats

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// Design is how a comparison is judged over a schedule's looks: the
// spending function and, for each look taken, its information fraction
// of the plan's maximum (Ts) and the rounds it had kept (Ns). A fixed
// schedule is one look at fraction 1.
type Design struct {
	Spending Spending
	Ts       []float64
	Ns       []int
}

// MDEBlocks is the minimum detectable effect of CompareBlocks at the given
// power and two-sided level alpha (the level of the arm's own hypothesis:
// alpha over the family for Holm's first step), for an increase (up, as
// new/old − 1) and a decrease (down, as 1 − new/old). It models what
// makes a campaign like this one miss, as MDERobust does for the
// regression, in rounds:
//
//   - the noise of the rounds' differences that are not far out,
//     unbiased by c4, at the t quantiles of the rounds kept;
//   - min_effect: an effect must clear log(1+min_effect) too;
//   - stalls, at the rates every comparison of the campaign saw (all): a
//     share of the rounds is trimmed, another stays in far out, each on
//     either side, moving the mean and widening its noise; the power is
//     averaged over how many stay in (binomial at the rate seen, or
//     beta-binomial over its uncertainty when uncertain; seen is the
//     campaign's rounds the rates come from);
//   - the chance that more than a quarter of the rounds are far out and
//     the comparison is refused: the power asked is asked of the
//     campaigns not refused, and no MDE is stated (NaN) when refusals
//     alone make it unreachable;
//   - the design's looks: the effect is scaled by the ratio of what the
//     spending design detects with the power to what one look at the end
//     detects (its boundaries at the information the looks reached).
func MDEBlocks(r Robust, all []Stalls, seen int, uncertain bool, alpha, power, minEffect float64, d Design) (up, down float64) {
	if math.IsNaN(r.SE) || r.DF < 1 || r.Blocks < 2 || alpha <= 0 || alpha >= 1 || power <= 0 || power >= 1 {
		if r.SE == 0 && r.DF >= 1 && alpha > 0 && alpha < 1 {
			return minEffect, minEffect
		}
		return math.NaN(), math.NaN()
	}
	m := blockModel(r, all, seen, uncertain)
	target := power / (1 - m.refusal())
	if target >= 0.995 {
		return math.NaN(), math.NaN()
	}
	f := designFactor(d, alpha, target)
	dUp := f * m.effect(1, alpha, target, math.Log1p(minEffect))
	dDown := f * m.effect(-1, alpha, target, -math.Log1p(-minEffect))
	return math.Expm1(dUp), -math.Expm1(-dDown)
}

// blocks is MDEBlocks' model of a comparison by round.
type blocks struct {
	rounds                         float64
	sigma                          float64 // the clean differences' noise, unbiased
	trimRate, keptRate, shift, rms float64
	uncertain                      bool
	seen                           float64
}

func blockModel(r Robust, all []Stalls, seen int, uncertain bool) blocks {
	m := blocks{rounds: float64(r.Blocks), uncertain: uncertain, seen: float64(seen)}
	// The noise of the rounds the test kept, far ones and all: a tail the
	// trimming does not take is noise the test sees.
	m.sigma = r.Sigma * math.Sqrt2 / c4(r.DF+1)
	var rounds, trimmed, kept int
	var shift, sq float64
	for _, s := range all {
		rounds += s.Runs1
		trimmed += s.Trimmed
		kept += s.Kept
		shift += s.Shift * float64(s.Kept)
		sq += s.RMS * s.RMS * float64(s.Kept)
	}
	if rounds > 0 {
		m.trimRate, m.keptRate = float64(trimmed)/float64(rounds), float64(kept)/float64(rounds)
	}
	if kept > 0 {
		m.shift, m.rms = shift/float64(kept), math.Sqrt(sq/float64(kept))
	}
	if m.seen <= 0 {
		m.seen = float64(rounds)
	}
	return m
}

// chance is the chance that k of n rounds are far out at rate p: binomial,
// or beta-binomial over the rate's uncertainty.
func (m blocks) chance(n, k int, p float64) float64 {
	if !m.uncertain || p == 0 {
		return binomial(n, k, p)
	}
	a, b := p*m.seen+priorStalls, (1-p)*m.seen+priorStalls
	if k > n {
		return 0
	}
	lc, _ := math.Lgamma(float64(n + 1))
	l1, _ := math.Lgamma(float64(k + 1))
	l2, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(lc - l1 - l2 + lbeta(float64(k)+a, float64(n-k)+b) - lbeta(a, b))
}

// refusal is the chance that one side has more than a quarter of the
// rounds far out (the far rounds' stray runs fall on either side alike),
// at the rate seen: a refusal is rare on a host whose stalls are rare, and
// the rate's uncertainty, from the few stalls a campaign sees, would make
// it look common.
func (m blocks) refusal() float64 {
	n := int(math.Round(m.rounds))
	p := (m.trimRate + m.keptRate) / 2
	if p == 0 {
		return 0
	}
	ok := 0.0
	for k := 0; k <= n/4; k++ {
		ok += binomial(n, k, p)
	}
	return math.Max(0, 1-ok*ok)
}

// effect is the log effect in direction dir that the model detects with
// the given power at one look, solved by bisection.
func (m blocks) effect(dir, alpha, power, floor float64) float64 {
	n := math.Max(m.rounds*(1-m.trimRate), 2)
	df := n - 1
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	c := t.Quantile(1 - alpha/2)
	var states []powerState
	nr := int(math.Round(m.rounds))
	for k := 0; k <= min(6, nr); k++ {
		wk := m.chance(nr, k, m.keptRate)
		if wk < 1e-6 {
			continue
		}
		v := m.sigma*m.sigma + m.rms*m.rms*float64(k)*(1-float64(k)/n)/df
		se := math.Sqrt(v / n)
		// Each round kept far out strayed on either side.
		for j := 0; j <= k; j++ {
			w := wk * binomial(k, j, 0.5)
			states = append(states, powerState{w: w, shift: dir * m.shift * float64(k-2*j) / n, se: se})
		}
	}
	return effectAtPower(states, t, c, floor, power)
}

// designFactor is the ratio of the drift the design's looks detect with
// the power to the drift one look at the end detects (z(1−α/2) + z(power)):
// 1 for one look.
func designFactor(d Design, alpha, power float64) float64 {
	if len(d.Ts) < 2 || d.Spending == 0 {
		return 1
	}
	// The power asked moves with the campaign's refusal and veto chances;
	// to half a percent it gives the same factor within a few thousandths.
	power = math.Round(power*200) / 200
	key := fmt.Sprint(d.Spending, alpha, power, d.Ts, d.Ns)
	if f, ok := factorCache.Load(key); ok {
		return f.(float64)
	}
	cs := Bounds(d.Spending, alpha, d.Ts)
	// Time is relative to the last look: the design as run so far.
	last := float64(d.Ns[len(d.Ns)-1])
	rel := make([]float64, len(d.Ns))
	for i, n := range d.Ns {
		rel[i] = math.Min(1, float64(n)/last)
		if i > 0 && rel[i] <= rel[i-1] {
			rel[i] = rel[i-1] + 1e-6
		}
	}
	rel[len(rel)-1] = 1
	lo, hi := 0.0, 16.0
	for range 30 {
		mid := (lo + hi) / 2
		if CrossProb(cs, rel, mid) < power {
			lo = mid
		} else {
			hi = mid
		}
	}
	z := distuv.UnitNormal
	f := hi / (z.Quantile(1-alpha/2) + z.Quantile(power))
	factorCache.Store(key, f)
	return f
}

var factorCache sync.Map
