package stats

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// Spending is a Lan-DeMets alpha-spending function: how much of a
// two-sided level alpha a sequential design has spent once a share t of
// its planned information is in. Boundaries are computed for the
// information actually reached at each look, so looks need not be
// equally spaced nor planned exactly.
type Spending int

const (
	// SpendOBF is the O'Brien-Fleming type, α(t) = 2 − 2Φ(z(1−α/2)/√t):
	// almost nothing spent at early looks, nearly the whole alpha left for
	// the last, where a hard comparison is decided.
	SpendOBF Spending = iota + 1
	// SpendPocock is the Pocock type, α(t) = α·ln(1 + (e−1)·t): even
	// spending, early stops more likely, the last look dearer.
	SpendPocock
)

// String names the function as a record states it.
func (s Spending) String() string {
	switch s {
	case SpendOBF:
		return "O'Brien-Fleming type"
	case SpendPocock:
		return "Pocock type"
	}
	return "none"
}

// Spent is the alpha spent by information fraction t (0 to 1).
func (s Spending) Spent(alpha, t float64) float64 {
	switch {
	case t <= 0:
		return 0
	case t >= 1:
		return alpha
	}
	switch s {
	case SpendOBF:
		z := distuv.UnitNormal.Quantile(1 - alpha/2)
		return 2 * distuv.UnitNormal.Survival(z/math.Sqrt(t))
	case SpendPocock:
		return alpha * math.Log(1+(math.E-1)*t)
	}
	return alpha
}

// noBound stands for a look that spends nothing: a boundary no statistic
// reaches.
const noBound = 12.0

// Bounds are the two-sided z boundaries c_k of a design that spends alpha
// by s at the information fractions ts (ascending; the last may be below
// 1 when the design has not reached its end, and is 1 at the last look of
// a design that spends the rest): |Z_k| ≥ c_k at the first look k that
// reaches it rejects, and the chance of that under no effect is the alpha
// spent by the last look. The crossing probabilities are integrated
// numerically over the path of the score S_k = Z_k·√t_k, a Brownian
// motion at the information times (Armitage, McPherson and Rowe).
func Bounds(s Spending, alpha float64, ts []float64) []float64 {
	key := boundsKey{s, alpha, fmt.Sprint(ts)}
	if c, ok := boundsCache.Load(key); ok {
		return slices.Clone(c.([]float64))
	}
	out := make([]float64, len(ts))
	var p path
	spent := 0.0
	for k, t := range ts {
		want := s.Spent(alpha, t) - spent
		if want <= 1e-12 {
			out[k] = noBound
		} else {
			// The chance of crossing at look k falls as c_k grows.
			lo, hi := 0.0, noBound
			for range 50 {
				mid := (lo + hi) / 2
				if p.cross(mid, t, 0) > want {
					lo = mid
				} else {
					hi = mid
				}
			}
			out[k] = hi
		}
		spent += p.cross(out[k], t, 0)
		p = p.next(out[k], t, 0)
	}
	boundsCache.Store(key, slices.Clone(out))
	return out
}

type boundsKey struct {
	s     Spending
	alpha float64
	ts    string
}

var boundsCache sync.Map

// Nominal is the two-sided level a look's boundary c stands for: a test at
// that look rejects when its p-value is below it.
func Nominal(c float64) float64 { return 2 * distuv.UnitNormal.Survival(c) }

// Boundary is the z boundary of a two-sided nominal level.
func Boundary(nominal float64) float64 { return distuv.UnitNormal.Quantile(1 - nominal/2) }

// CrossProb is the chance that a design with boundaries cs at information
// fractions ts rejects at some look, when the z statistic's mean at full
// information (t = 1) is theta.
func CrossProb(cs, ts []float64, theta float64) float64 {
	var p path
	sum := 0.0
	for k, c := range cs {
		sum += p.cross(c, ts[k], theta)
		p = p.next(c, ts[k], theta)
	}
	return sum
}

// grid is the number of points the continuation region of a look is
// integrated over; a look close to the last in information takes a finer
// grid (spending_narrow.go).
const grid = 121

// path is the density of the score S on the continuation region of the
// last look (xs, fs), at information time t; the zero path is S = 0 at
// t = 0.
type path struct {
	xs, fs []float64
	t      float64
}

// cross is the chance that the path, inside every boundary so far, crosses
// boundary c at information t under drift theta.
func (p path) cross(c, t, theta float64) float64 {
	dt := t - p.t
	if dt <= 0 {
		return 0
	}
	b := c * math.Sqrt(t)
	sd := math.Sqrt(dt)
	out := func(u float64) float64 {
		m := u + theta*dt
		return distuv.UnitNormal.Survival((b-m)/sd) + distuv.UnitNormal.CDF((-b-m)/sd)
	}
	if p.xs == nil {
		return out(0)
	}
	if !p.standard(sd) {
		return p.crossFine(b, theta*dt, sd)
	}
	return trapezoid(p.xs, p.fs, out)
}

// next is the path continued to information t and kept inside boundary c.
func (p path) next(c, t, theta float64) path {
	dt := t - p.t
	if dt <= 0 {
		return p
	}
	b := c * math.Sqrt(t)
	sd := math.Sqrt(dt)
	m := p.points(b, sd)
	n := path{xs: make([]float64, m), fs: make([]float64, m), t: t}
	h := 2 * b / float64(m-1)
	norm := 1 / (sd * math.Sqrt(2*math.Pi))
	fine := p.xs != nil && !p.standard(sd)
	for i := range n.xs {
		s := -b + float64(i)*h
		n.xs[i] = s
		if fine {
			n.fs[i] = p.densityFine(s, theta*dt, sd)
			continue
		}
		phi := func(u float64) float64 {
			z := (s - u - theta*dt) / sd
			return math.Exp(-0.5*z*z) * norm
		}
		if p.xs == nil {
			n.fs[i] = phi(0)
		} else {
			n.fs[i] = trapezoid(p.xs, p.fs, phi)
		}
	}
	return n
}

// trapezoid integrates f·g over the grid xs where f's values are fs.
func trapezoid(xs, fs []float64, g func(float64) float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	h := xs[1] - xs[0]
	sum := 0.0
	for i, x := range xs {
		w := h
		if i == 0 || i == len(xs)-1 {
			w = h / 2
		}
		sum += w * fs[i] * g(x)
	}
	return sum
}
