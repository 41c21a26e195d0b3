package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Trend is one arm's own trend: the least-squares regression of its log
// values on their positions (nothing trimmed), as the change over the
// span of positions, exp(β·span) − 1, and the t-test of β = 0.
func Trend(xs []Timed) RelativeTrend {
	out := RelativeTrend{Change: math.NaN(), P: math.NaN()}
	ys := make([]float64, len(xs))
	ps := make([]float64, len(xs))
	keep := make([]bool, len(xs))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, x := range xs {
		if x.Value > 0 && !math.IsInf(x.Value, 0) && !math.IsNaN(x.Pos) {
			ys[i], ps[i], keep[i] = math.Log(x.Value), x.Pos, true
			lo, hi = math.Min(lo, x.Pos), math.Max(hi, x.Pos)
		}
	}
	f := fitDesign(ys, keep, keep, func(i int, center float64) []float64 {
		return []float64{1, ps[i] - center}
	}, ps, 1)
	if !f.ok || f.se == 0 || math.IsNaN(f.se) {
		return out
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: f.df}
	out.Change = math.Exp(f.delta*(hi-lo)) - 1
	out.P = math.Min(1, 2*t.Survival(math.Abs(f.delta)/f.se))
	return out
}

// RelativeTrend is an arm's trend relative to the baseline's: the
// regression of log values on the arm, the position, and the arm times
// the position, fitted on the runs CompareRobust kept. Change is the
// arm's extra change over the campaign's span of positions,
// exp(γ·span) − 1; P the two-sided t-test of γ = 0. A drift common to
// both arms (which interleaving cancels) has γ = 0; a drift of one arm
// (heat that only the faster arm builds) does not. NaN when it cannot be
// fitted.
type RelativeTrend struct {
	Change, P float64
}

// TrendDifference fits the relative trend of arm against base, trimming
// stalled runs as CompareRobust does but by the fit with the interaction,
// so that the runs of a drifting arm are not taken for stalls.
func TrendDifference(base, arm []Timed) RelativeTrend {
	out := RelativeTrend{Change: math.NaN(), P: math.NaN()}
	all := append(slices.Clone(base), arm...)
	ys := make([]float64, len(all))
	ps := make([]float64, len(all))
	isArm := make([]bool, len(all))
	valid := make([]bool, len(all))
	for i, x := range all {
		isArm[i] = i >= len(base)
		if x.Value > 0 && !math.IsInf(x.Value, 0) && !math.IsNaN(x.Value) && !math.IsNaN(x.Pos) {
			ys[i], ps[i], valid[i] = math.Log(x.Value), x.Pos, true
		}
	}
	row := func(i int, center float64) []float64 {
		a := b2f(isArm[i])
		return []float64{1, a, ps[i] - center, a * (ps[i] - center)}
	}
	fitOf := func(keep []bool) fit { return fitDesign(ys, isArm, keep, row, ps, 3) }
	keep := robustKeep(ys, isArm, valid, fitOf)
	f := fitOf(keep)
	if !f.ok || f.se == 0 || math.IsNaN(f.se) {
		return out
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, k := range keep {
		if k {
			lo, hi = math.Min(lo, ps[i]), math.Max(hi, ps[i])
		}
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: f.df}
	out.Change = math.Exp(f.delta*(hi-lo)) - 1
	out.P = math.Min(1, 2*t.Survival(math.Abs(f.delta)/f.se))
	return out
}

// exactSE is the standard error of a slope of log values below which a
// line is exact, its residuals round-off (a measured run's noise is a
// millionth of its value at the very least).
const exactSE = 1e-9

// TrendWelch is an arm's trend relative to the baseline's with each arm
// its own line and its own noise (rule robust-15): each arm's log values
// regressed on their positions, its stalls trimmed on its own robust
// scale (robustKeep), and the difference of the two slopes tested with
// the standard error √(se²ₐ + se²ᵦ) on the Welch–Satterthwaite degrees of
// freedom. The lines are TrendDifference's (a common trend, the arm's and
// their interaction are one line per arm); what it no longer pools is the
// noise and the trimming's scale, which took a noisier arm's tail for
// stalls and its noise for the baseline's (12% of A/A arms of CV 6%
// against 1.5% flagged). NaN when either arm cannot be fitted, or both
// fit exactly.
func TrendWelch(base, arm []Timed) RelativeTrend {
	out := RelativeTrend{Change: math.NaN(), P: math.NaN()}
	type line struct {
		f      fit
		lo, hi float64
	}
	fitArm := func(xs []Timed) (line, bool) {
		ys := make([]float64, len(xs))
		ps := make([]float64, len(xs))
		valid := make([]bool, len(xs))
		for i, x := range xs {
			if x.Value > 0 && !math.IsInf(x.Value, 0) && !math.IsNaN(x.Value) && !math.IsNaN(x.Pos) {
				ys[i], ps[i], valid[i] = math.Log(x.Value), x.Pos, true
			}
		}
		one := make([]bool, len(xs)) // one arm: no arm column
		row := func(i int, center float64) []float64 { return []float64{1, ps[i] - center} }
		fitOf := func(keep []bool) fit { return fitDesign(ys, one, keep, row, ps, 1) }
		keep := robustKeep(ys, one, valid, fitOf)
		l := line{f: fitOf(keep), lo: math.Inf(1), hi: math.Inf(-1)}
		for i, k := range keep {
			if k {
				l.lo, l.hi = math.Min(l.lo, ps[i]), math.Max(l.hi, ps[i])
			}
		}
		return l, l.f.ok && l.f.df >= 1 && !math.IsNaN(l.f.se)
	}
	b, okB := fitArm(base)
	a, okA := fitArm(arm)
	if !okA || !okB {
		return out
	}
	delta := a.f.delta - b.f.delta
	va, vb := a.f.se*a.f.se, b.f.se*b.f.se
	se := math.Sqrt(va + vb)
	if !(se > exactSE) {
		// Both lines exact (constant values): their slopes and standard
		// errors are round-off, which is no drift.
		return out
	}
	df := (va + vb) * (va + vb) / (va*va/a.f.df + vb*vb/b.f.df)
	out.Change = math.Exp(delta*(math.Max(a.hi, b.hi)-math.Min(a.lo, b.lo))) - 1
	out.P = math.Min(1, 2*distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(delta)/se))
	return out
}
