package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// WidthStage is how a comparison by round of a schedule that stops on
// its intervals' width (until_ci_width) takes its noise.
type WidthStage int

const (
	// StageNone takes the noise of the rounds kept, as any schedule: a
	// schedule that added rounds until its intervals were narrow enough
	// stopped when its noise happened to look small, which is when a
	// difference looks large, and claimed a change in 4.7–9.7% of A/A
	// campaigns at alpha 5% (rules robust-4 to robust-13).
	StageNone WidthStage = iota
	// StageStein is Stein's two-stage procedure: the rounds after the
	// first stage (the schedule's min) are planned once, from the first
	// stage's widest interval (analysis.PlanWidth), and each comparison's
	// standard error is the first stage's noise over the rounds kept, at
	// the first stage's degrees of freedom. The rounds run then depend on the first
	// stage's noise alone, which the mean of every round does not (for
	// normal differences): the t statistic is t at the first stage's
	// degrees of freedom, whatever the rounds, so a claim holds alpha
	// (Restate).
	StageStein
)

// Restate is r, a comparison by round of ref and arm (CompareRounds),
// with its standard error, interval and p as the stage takes them: under
// StageStein the noise is the standard deviation of every difference of
// the first stage's rounds (rounds 1 to first with a run of each side;
// none left out, since a choice of rounds by the sample's own scale
// spreads the noise), over the square root of the rounds r kept, at the
// first stage's rounds less one degrees of freedom. A refused comparison,
// one whose first stage has fewer than two rounds, and one whose first
// stage has no noise (every difference equal: its t-test would claim
// any mean) are r.
func (s WidthStage) Restate(r Robust, ref, arm []Timed, c Config, first int) Robust {
	if s != StageStein || first < 2 || r.Refused || math.IsNaN(r.Delta) || r.N1 < 2 {
		return r
	}
	c = c.withDefaults()
	in := func(xs []Timed) []Timed {
		var out []Timed
		for _, x := range xs {
			if x.Block <= first {
				out = append(out, x)
			}
		}
		return out
	}
	d0 := RoundDifferences(in(ref), in(arm))
	every := make([]bool, len(d0))
	for i := range every {
		every[i] = true
	}
	_, sd0 := meanSD(d0, every)
	n0 := len(d0)
	if n0 < 2 || !(sd0 > 0) {
		return r
	}
	r.DF = float64(n0 - 1)
	r.SE = sd0 / math.Sqrt(float64(r.N1))
	r.Staged = true
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}
	q := t.Quantile(1 - (1-c.Confidence)/2)
	r.Lo, r.Hi = math.Exp(r.Delta-q*r.SE), math.Exp(r.Delta+q*r.SE)
	r.P = math.Min(1, 2*t.Survival(math.Abs(r.Delta)/r.SE))
	r.Method += "; the standard error from the noise of the first stage's rounds (Stein's two-stage procedure: the rounds after them planned from their width)"
	r.Significant = r.P < c.Alpha && math.Abs(r.Ratio-1) >= c.MinEffect
	return r
}

// StagedMDE is the MDE of a staged comparison (Restate), for an increase
// (up, new/old − 1) and a decrease (down, 1 − new/old): the effect its
// t-test at level alpha finds with the given power, at its first stage's
// degrees of freedom and standard error (the t quantiles of the level and
// the power over that error: the noise is the first stage's, fixed once
// the rounds are planned), the level's threshold at least minEffect (a
// change counts only from it). NaN without an error.
func StagedMDE(r Robust, alpha, power, minEffect float64) (up, down float64) {
	if !(r.SE >= 0) || r.DF < 1 || alpha <= 0 || alpha >= 1 || power <= 0 || power >= 1 {
		return math.NaN(), math.NaN()
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}
	qa, qb := t.Quantile(1-alpha/2)*r.SE, t.Quantile(power)*r.SE
	dUp := math.Max(qa, math.Log1p(minEffect)) + qb
	dDown := math.Max(qa, -math.Log1p(-minEffect)) + qb
	return math.Expm1(dUp), -math.Expm1(-dDown)
}
