package stats

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

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

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
