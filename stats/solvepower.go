package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// solvePower is the smallest effect at which the increasing power curve
// pw reaches power: the bisection of [0, 1] (doubled up to 64 until the
// power is reached) over sixty halvings, which records' MDEs are, to the
// bit (check re-derives them). It is found with fewer evaluations of pw,
// each a sum of Student t tails over the model's states: Brent's method
// first brackets the crossing to a relative width of bracketWidth,
// between two effects whose power was evaluated; the bisection is then
// replayed, taking a midpoint's side from the bracket where it lies
// clearly outside (pw increases) and evaluating pw only at the midpoints
// near or inside it: about 41 evaluations a solve where the bisection
// made 61 (TestSolvePowerIsTheBisection). Where Brent's method meets a
// NaN, or the doubling ends short of the power, the bisection runs as it
// is; a NaN under the crossing that neither evaluates would be read as
// short where the bisection read it as not (an MDE's curve has a NaN
// term only at a standard error of 0 and an effect exactly at that
// state's threshold, or from a NaN standard error, which MDERoundsKept
// and MDEBlocks refuse).
func solvePower(pw func(float64) float64, power float64) float64 {
	lo, hi := 0.0, 1.0
	p := pw(hi)
	for p < power && hi < 64 {
		hi *= 2
		p = pw(hi)
	}
	below, above, margin := math.Inf(-1), math.Inf(1), math.Inf(1)
	if p >= power {
		above = hi
		if hi > 1 {
			below = hi / 2 // its power was below
		}
		var slope float64
		below, above, slope = bracketPower(pw, power, below, above)
		// Where the power rises by powerGap across it.
		margin = math.Max(powerGap/slope, 1e-15*above)
	}
	// The slope across a narrow bracket can be one step of t's tail,
	// which rounds to a staircase near its centre, and the tail wobbles
	// by up to about 1e-14 where df is large: each side's margin is
	// confirmed by evaluating pw there, widened fourfold until the power
	// is half powerGap clear of the target (six tries a side, else that
	// side is never taken unevaluated).
	lower, upper := math.Inf(1), math.Inf(1)
	if !math.IsInf(margin, 1) && !math.IsNaN(margin) {
		for m, k := margin, 0; k < 6; m, k = 4*m, k+1 {
			if below-m <= 0 || pw(below-m) <= power-powerGap/2 {
				lower = m // no midpoint lies under 0
				break
			}
		}
		for m, k := margin, 0; k < 6; m, k = 4*m, k+1 {
			if pw(above+m) >= power+powerGap/2 {
				upper = m
				break
			}
		}
	}
	for range 60 {
		mid := (lo + hi) / 2
		var short bool
		switch {
		case mid < below-lower:
			short = true
		case mid > above+upper:
			short = false
		default:
			short = pw(mid) < power
		}
		if short {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// bracketWidth is the relative width Brent's method narrows the crossing
// to. powerGap is how much the power must rise between a midpoint and the
// bracket's near end for the midpoint's side to be taken without
// evaluating pw (the margin, from the curve's slope across the bracket;
// at least 1e-15 of the effect, several of its last bits), confirmed at
// half of it by an evaluation: against the error of a sum of t tails
// weighted to one, Incbet's rounding and its wobble (a review measured
// rises of up to 2e-15 at df 50 and 1.3e-14 at df 357 where the tail
// should fall), so that a midpoint that far outside has the side the
// bisection's own evaluation gives it.
const (
	bracketWidth = 1e-13
	powerGap     = 1e-12
)

// bracketPower narrows [below, above], with pw(below) < power <=
// pw(above) (below -Inf: 0, not evaluated), by Brent's method on the
// normal quantile's scale (where a power curve, a mixture of t tails, is
// nearly a line), to a relative width of bracketWidth or at most 60
// evaluations. It returns the nearest effects evaluated on either side
// and the power's slope between them. A NaN power returns the empty
// bracket (-Inf, +Inf), which leaves the bisection to evaluate every
// midpoint.
func bracketPower(pw func(float64) float64, power, below, above float64) (lo, hi, slope float64) {
	empty := func() (float64, float64, float64) { return math.Inf(-1), math.Inf(1), 0 }
	a, b := below, above
	if math.IsInf(a, -1) {
		a = 0
	}
	z := probit(power)
	// lo and hi are the nearest effects evaluated short of the power and
	// at it, plo and phi their powers.
	lo, hi = math.Inf(-1), math.Inf(1)
	var plo, phi float64
	g := func(d float64) float64 {
		p := pw(d)
		switch {
		case p < power && d > lo:
			lo, plo = d, p
		case p >= power && d < hi:
			hi, phi = d, p
		}
		return probit(p) - z
	}
	fa, fb := g(a), g(b)
	if math.IsNaN(fa) || math.IsNaN(fb) || lo != a || hi != b {
		return empty() // not a bracket: pw(a) at the power or pw(b) short of it
	}
	// Brent's zeroin (Brent 1973, ch. 4), b the best estimate.
	c, fc := a, fa
	d := b - a
	e := d
	for range 60 {
		if fb*fc > 0 {
			c, fc = a, fa
			d = b - a
			e = d
		}
		if math.Abs(fc) < math.Abs(fb) {
			a, b, c = b, c, b
			fa, fb, fc = fb, fc, fb
		}
		if hi-lo <= bracketWidth*hi || fb == 0 {
			break
		}
		tol := bracketWidth * math.Abs(b) / 4
		m := (c - b) / 2
		if math.Abs(e) >= tol && math.Abs(fa) > math.Abs(fb) {
			var p, q float64
			s := fb / fa
			if a == c {
				p, q = 2*m*s, 1-s
			} else {
				q, r := fa/fc, fb/fc
				p = s * (2*m*q*(q-r) - (b-a)*(r-1))
				q = (q - 1) * (r - 1) * (s - 1)
			}
			if p > 0 {
				q = -q
			} else {
				p = -p
			}
			if 2*p < math.Min(3*m*q-math.Abs(tol*q), math.Abs(e*q)) {
				e, d = d, p/q
			} else {
				d, e = m, m
			}
		} else {
			d, e = m, m
		}
		a, fa = b, fb
		if math.Abs(d) > tol {
			b += d
		} else {
			b += math.Copysign(tol, m)
		}
		fb = g(b)
		if math.IsNaN(fb) {
			return empty()
		}
	}
	// A power met to the last bit (fb 0) stops the method with only hi
	// near the crossing: lo is found just under it.
	for range 4 {
		if hi-lo <= bracketWidth*hi {
			break
		}
		if math.IsNaN(g(hi * (1 - bracketWidth/2))) {
			return empty()
		}
	}
	if !(lo < hi) {
		return empty() // pw fell back across the crossing (its rounding)
	}
	return lo, hi, (phi - plo) / (hi - lo)
}

// probit is the standard normal quantile of p, kept finite: p is a
// power, from 0 to 1.
func probit(p float64) float64 {
	if math.IsNaN(p) {
		return p
	}
	return distuv.UnitNormal.Quantile(math.Min(math.Max(p, 1e-15), 1-1e-15))
}
