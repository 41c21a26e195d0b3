package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Timed is one run's value and its position in the campaign (its place
// in the plan, or its start in seconds): the covariate that lets a
// comparison adjust for a trend of the host.
type Timed struct {
	Pos, Value float64
}

// TrimZ is the distance from its arm's median, in robust standard
// deviations (1.4826·MAD), beyond which a run is a candidate for trimming;
// TrimAlpha is the chance that a campaign of normal runs loses any run:
// a candidate is trimmed only when its studentized residual from the fit
// of the other runs is beyond the Bonferroni t quantile at TrimAlpha over
// the runs (the classical outlier test). A run 30% slow sits 18 standard
// deviations out on a host with 2% noise, 4 on one with 9%.
const (
	TrimZ     = 3.0
	TrimAlpha = 0.01
)

// Robust is CompareRobust's comparison: the Result every rule fills, and
// what the regression adds.
type Robust struct {
	Result
	// Delta is the arm's coefficient, log(Ratio); SE its standard error;
	// DF the residual degrees of freedom; Sigma the residual standard
	// deviation of log values.
	Delta, SE, DF, Sigma float64
	// Trimmed1 and Trimmed2 count the base's and the arm's runs trimmed.
	Trimmed1, Trimmed2 int
	// Kept marks, per input value (base then arm), the runs the fit used.
	Kept []bool
}

// CompareRobust judges arm against base by a regression of the log values
// on the arm and the position:
//
//	log v = a + δ·[arm] + β·(pos − mean pos) + ε
//
// fitted by least squares after trimming the runs whose residual exceeds
// TrimZ robust standard deviations (1.4826·MAD of the residuals), refitted
// until no run moves in or out. The trend β is common to both arms, so a
// drift of the host that interleaving does not cancel is taken out
// instead of widening the interval; a stalled run is left out instead of
// dragging a median. Ratio is exp(δ); the interval is the t interval of δ
// at Confidence with the fit's residual degrees of freedom; P the
// two-sided t-test of δ = 0, so the test and the interval never disagree.
// Significant is P < Alpha and |Ratio−1| ≥ MinEffect. Values that are
// NaN or not positive are ignored.
func CompareRobust(base, arm []Timed, c Config) Robust {
	c = c.withDefaults()
	out := Robust{Result: Result{Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: c.Confidence, P: 1,
		Method: fmt.Sprintf("regression of log values on arm and run position, runs beyond %.1f robust SD trimmed; t-test and t interval", TrimZ)},
		Delta: math.NaN(), SE: math.NaN(), DF: math.NaN(), Sigma: math.NaN()}
	var ys, ps []float64
	var isArm []bool
	var valid []bool
	add := func(xs []Timed, a bool) {
		for _, x := range xs {
			ok := x.Value > 0 && !math.IsNaN(x.Value) && !math.IsInf(x.Value, 0) && !math.IsNaN(x.Pos)
			valid = append(valid, ok)
			if !ok {
				ys, ps, isArm = append(ys, 0), append(ps, 0), append(isArm, a)
				continue
			}
			ys, ps, isArm = append(ys, math.Log(x.Value)), append(ps, x.Pos), append(isArm, a)
		}
	}
	add(base, false)
	add(arm, true)
	keep := slices.Clone(valid)
	out.Kept = keep
	count := func() (n1, n2 int) {
		for i, k := range keep {
			if k && isArm[i] {
				n2++
			} else if k {
				n1++
			}
		}
		return
	}
	out.N1, out.N2 = count()
	if out.N1 < 2 || out.N2 < 2 || out.N1+out.N2 < 4 {
		out.Warnings = append(out.Warnings, "need >= 2 runs per arm and 4 in all for the regression")
		return out
	}
	keep = robustKeep(ys, isArm, valid, func(keep []bool) fit { return fitTrend(ys, ps, isArm, keep) })
	f := fitTrend(ys, ps, isArm, keep)
	out.Kept = keep
	out.N1, out.N2 = count()
	for i, v := range valid {
		if v && !keep[i] {
			if isArm[i] {
				out.Trimmed2++
			} else {
				out.Trimmed1++
			}
		}
	}
	if !f.ok {
		out.Warnings = append(out.Warnings, "the regression cannot be fitted (every run at one position?)")
		return out
	}
	out.Delta, out.SE, out.DF, out.Sigma = f.delta, f.se, f.df, f.sigma
	out.Ratio = math.Exp(f.delta)
	if f.se == 0 {
		// Every kept run fits exactly: certainty, as far as the data go.
		out.Lo, out.Hi = out.Ratio, out.Ratio
		if f.delta != 0 {
			out.P = 0
		}
	} else {
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: f.df}
		q := t.Quantile(1 - (1-c.Confidence)/2)
		out.Lo, out.Hi = math.Exp(f.delta-q*f.se), math.Exp(f.delta+q*f.se)
		out.P = math.Min(1, 2*t.Survival(math.Abs(f.delta)/f.se))
	}
	out.Significant = out.P < c.Alpha && math.Abs(out.Ratio-1) >= c.MinEffect
	return out
}

// fit is one least-squares fit of fitTrend.
type fit struct {
	ok                   bool
	delta, se, df, sigma float64
	// resid and lev are every valid run's residual and leverage
	// x'(X'X)⁻¹x, in the fit or not.
	resid, lev []float64
}

// fitTrend fits log v = a + δ·[arm] + β·(pos − mean) on the kept runs and
// returns δ, its standard error, the residual degrees of freedom and σ,
// and the residual of every valid run (kept or not).
func fitTrend(ys, ps []float64, isArm, keep []bool) fit {
	return fitDesign(ys, isArm, keep, func(i int, center float64) []float64 {
		return []float64{1, b2f(isArm[i]), ps[i] - center}
	}, ps, 1)
}

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

// fitDesign fits ys on the rows row(i, mean position of the kept runs)
// and reports coefficient k as δ.
func fitDesign(ys []float64, isArm, keep []bool, row func(int, float64) []float64, ps []float64, k int) fit {
	var center float64
	n := 0
	for i, kp := range keep {
		if kp {
			center += ps[i]
			n++
		}
	}
	if n == 0 {
		return fit{}
	}
	center /= float64(n)
	p := len(row(0, center))
	if n <= p {
		return fit{}
	}
	x := mat.NewDense(n, p, nil)
	y := mat.NewVecDense(n, nil)
	r := 0
	for i, kp := range keep {
		if !kp {
			continue
		}
		x.SetRow(r, row(i, center))
		y.SetVec(r, ys[i])
		r++
	}
	var xtx mat.SymDense
	xtx.SymOuterK(1, x.T())
	var ch mat.Cholesky
	if !ch.Factorize(&xtx) {
		return fit{}
	}
	var xty, beta mat.VecDense
	xty.MulVec(x.T(), y)
	if err := ch.SolveVecTo(&beta, &xty); err != nil {
		return fit{}
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return fit{}
	}
	f := fit{ok: true, df: float64(n - p), resid: make([]float64, len(ys)), lev: make([]float64, len(ys))}
	var rss float64
	for i := range ys {
		rw := row(i, center)
		pred := 0.0
		for j, v := range rw {
			pred += v * beta.AtVec(j)
		}
		f.resid[i] = ys[i] - pred
		xv := mat.NewVecDense(len(rw), rw)
		f.lev[i] = mat.Inner(xv, &inv, xv)
		if keep[i] {
			rss += f.resid[i] * f.resid[i]
		}
	}
	f.sigma = math.Sqrt(rss / f.df)
	f.delta = beta.AtVec(k)
	f.se = f.sigma * math.Sqrt(inv.At(k, k))
	return f
}

// robustKeep marks the valid runs that fitOf's regression keeps: those
// whose studentized residual is within the Bonferroni t quantile at
// TrimAlpha over the runs, within trim's limits.
func robustKeep(ys []float64, isArm, valid []bool, fitOf func(keep []bool) fit) []bool {
	// The candidates are far from their arm's median, which stalls
	// cannot move as they move a least-squares fit; the fit of the runs
	// kept then tests every run, until no run moves in or out.
	keep := trim(robustZ(medianResiduals(ys, isArm, valid), valid), TrimZ, valid, isArm)
	var f fit
	for range 10 {
		f = fitOf(keep)
		if !f.ok || f.sigma == 0 {
			break
		}
		n := 0
		z := make([]float64, len(ys))
		for i, v := range valid {
			if !v {
				continue
			}
			n++
			// Leverage enters as 1−h for a run in the fit and 1+h for a
			// run left out (the prediction's variance).
			h := 1 - f.lev[i]
			if !keep[i] {
				h = 1 + f.lev[i]
			}
			z[i] = math.Abs(f.resid[i]) / (f.sigma * math.Sqrt(math.Max(h, 1e-9)))
		}
		crit := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: f.df}.Quantile(1 - TrimAlpha/(2*float64(n)))
		next := trim(z, crit, valid, isArm)
		if slices.Equal(next, keep) {
			break
		}
		keep = next
	}
	return keep
}

// robustZ is |r|/(1.4826·MAD(r)) over the valid runs; 0 everywhere when
// the MAD is 0.
func robustZ(resid []float64, valid []bool) []float64 {
	var abs []float64
	for i, v := range valid {
		if v {
			abs = append(abs, math.Abs(resid[i]))
		}
	}
	slices.Sort(abs)
	scale := 1.4826 * Quantile(abs, 0.5)
	z := make([]float64, len(resid))
	if scale == 0 {
		return z
	}
	for i, v := range valid {
		if v {
			z[i] = math.Abs(resid[i]) / scale
		}
	}
	return z
}

// trim keeps the valid runs whose score z is at most crit, never leaving
// an arm with fewer than three runs (two if it had fewer) nor trimming
// more than a quarter of the runs: a host that disturbs more than that is
// noisy, not stalled, and its noise must widen the interval.
func trim(z []float64, crit float64, valid, isArm []bool) []bool {
	keep := slices.Clone(valid)
	type cand struct {
		i int
		z float64
	}
	var cs []cand
	per := map[bool]int{}
	n := 0
	for i, v := range valid {
		if !v {
			continue
		}
		n++
		per[isArm[i]]++
		if z[i] > crit {
			cs = append(cs, cand{i, z[i]})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		switch {
		case a.z > b.z:
			return -1
		case a.z < b.z:
			return 1
		}
		return a.i - b.i
	})
	budget := n / 4
	for _, c := range cs {
		a := isArm[c.i]
		floor := min(3, per[a])
		if budget == 0 || per[a]-1 < floor {
			continue
		}
		keep[c.i] = false
		per[a]--
		budget--
	}
	return keep
}

// medianResiduals are the log values less their arm's median.
func medianResiduals(ys []float64, isArm, valid []bool) []float64 {
	med := map[bool]float64{}
	for _, a := range []bool{false, true} {
		var v []float64
		for i, y := range ys {
			if valid[i] && isArm[i] == a {
				v = append(v, y)
			}
		}
		slices.Sort(v)
		med[a] = Quantile(v, 0.5)
	}
	out := make([]float64, len(ys))
	for i, y := range ys {
		out[i] = y - med[isArm[i]]
	}
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
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

// MDERobust is the minimum detectable effect of CompareRobust at the
// given power and two-sided level alpha, from its standard error and
// degrees of freedom, for an increase (up, as new/old − 1) and for a
// decrease (down, as 1 − new/old):
//
//	δ = max((t(1−α/2, ν) + t(power, ν)) · SE, m + t(power, ν) · SE)
//
// where m is log(1+minEffect) for an increase and −log(1−minEffect) for a
// decrease: an effect must also clear min_effect, which the first term
// alone ignores. SE is unbiased for σ by c4(ν+1), since a standard
// deviation from few runs is on average below σ. Up is exp(δ)−1, down
// 1−exp(−δ). The SE comes from the runs the fit kept, so runs lost to
// stalls widen it. NaN when SE is undefined.
func MDERobust(se, df, alpha, power, minEffect float64) (up, down float64) {
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

// c4 is E[s]/σ for a sample of n normal values.
func c4(n float64) float64 {
	lg1, _ := math.Lgamma(n / 2)
	lg2, _ := math.Lgamma((n - 1) / 2)
	return math.Sqrt(2/(n-1)) * math.Exp(lg1-lg2)
}
