package stats

import (
	"math"
	"sort"
)

// Looks close in information (a look nudged 1e-6 past one it repeats, a
// look every round of a long campaign) move the score by a kernel of sd
// √dt narrower than the spacing of the last look's grid. The trapezoid
// rule then samples the kernel at a point or two, or at none, and its sums
// are noise: a crossing chance of 230 was seen, and a boundary whose true
// type I error was 7.5% for 5%. Such a step is integrated exactly against
// the density the trapezoid rule assumes, linear between the grid's
// points, and continues on a finer grid, spaced at most sd (up to maxGrid
// points): a run of such steps (a look every round) is then integrated by
// the trapezoid rule again, where interpolating the standard grid at each
// step would add up to h²/6 of variance (h its spacing, near sd) each
// time: a look every round of 1000 then had a type I error of 3% for 5%. A
// path on the standard grid continued by a kernel at least as wide as its
// spacing is integrated as it always was, bit for bit: the records checked
// against these boundaries stay checked.

// reach is how many sd from its mean the kernel is integrated: beyond, Φ
// is 0 or 1 and φ/φ(0) below 1e-21.
const reach = 10.0

// maxGrid caps the points of a finer grid: a look 1e-6 past another, sd
// 0.001, is spaced a few sd, where the linear density is exact enough
// (the nudged design's last boundary is within 1e-4 of what 4001 points
// give, in a third of the time).
const maxGrid = 1001

// narrow reports whether a kernel of sd is narrower than the spacing of
// the path's grid (never for the zero path).
func (p path) narrow(sd float64) bool {
	return len(p.xs) >= 2 && sd < p.xs[1]-p.xs[0]
}

// standard reports whether the path is on the standard grid and a kernel
// of sd at least as wide as its spacing: integrated as it always was.
func (p path) standard(sd float64) bool {
	return len(p.xs) == grid && !p.narrow(sd)
}

// points is the number of grid points of the path continued to boundary
// b (on the score's scale) by a kernel of sd: the standard grid, or one
// spaced at most sd after a narrow step or a finer grid.
func (p path) points(b, sd float64) int {
	if p.xs == nil || p.standard(sd) {
		return grid
	}
	return min(max(grid, int(math.Ceil(2*b/sd))+1), maxGrid)
}

// crossFine is cross where the path is not standard for sd: the chance of
// ending at or above b or at or below −b after a step of mean drift.
func (p path) crossFine(b, drift, sd float64) float64 {
	if p.narrow(sd) {
		return p.crossNarrow(b, drift, sd)
	}
	return p.crossNear(b, drift, sd)
}

// densityFine is the density at s of next where the path is not standard
// for sd.
func (p path) densityFine(s, drift, sd float64) float64 {
	if p.narrow(sd) {
		return p.nextNarrow(s, drift, sd)
	}
	return p.nextNear(s, drift, sd)
}

// nextNear is the trapezoid rule of next over the points within reach of
// s − drift.
func (p path) nextNear(s, drift, sd float64) float64 {
	mu := s - drift
	lo := sort.SearchFloat64s(p.xs, mu-reach*sd)
	hi := sort.SearchFloat64s(p.xs, mu+reach*sd)
	h := p.xs[1] - p.xs[0]
	norm := 1 / (sd * math.Sqrt(2*math.Pi))
	sum := 0.0
	for i := lo; i < hi; i++ {
		z := (s - p.xs[i] - drift) / sd
		sum += p.weight(i, h) * p.fs[i] * math.Exp(-0.5*z*z) * norm
	}
	return sum
}

// crossNear is the trapezoid rule of cross, Φ computed only within reach
// of the boundaries' means μ1 = b − drift and μ2 = −b − drift.
func (p path) crossNear(b, drift, sd float64) float64 {
	mu1, mu2 := b-drift, -b-drift
	h := p.xs[1] - p.xs[0]
	sum := 0.0
	for i, u := range p.xs {
		out := clampedCDF((u-mu1)/sd) + clampedCDF((mu2-u)/sd)
		sum += p.weight(i, h) * p.fs[i] * out
	}
	return sum
}

// weight is the trapezoid rule's weight of point i.
func (p path) weight(i int, h float64) float64 {
	if i == 0 || i == len(p.xs)-1 {
		return h / 2
	}
	return h
}

// nextNarrow is the density at s of the path moved by a kernel of mean
// drift and sd narrower than its grid: Σ over cells [x0, x1] of
// ∫ f(u) φ((u − μ)/sd)/sd du, μ = s − drift, f linear on the cell. With
// z = (u − μ)/sd a cell gives f(μ)·(Φ(z1) − Φ(z0)) + slope·sd·(φ(z0) − φ(z1)).
func (p path) nextNarrow(s, drift, sd float64) float64 {
	mu := s - drift
	lo, hi := p.cellsNear(mu-reach*sd, mu+reach*sd)
	if lo >= hi {
		return 0
	}
	clamp := func(z float64) float64 { return min(max(z, -reach), reach) }
	z0 := clamp((p.xs[lo] - mu) / sd)
	q0, d0 := lowerTail(z0), normPDF(z0)
	sum := 0.0
	for i := lo; i < hi; i++ {
		x0, f0, slope := p.cell(i)
		z1 := clamp((p.xs[i+1] - mu) / sd)
		q1, d1 := lowerTail(z1), normPDF(z1)
		sum += (f0+slope*(mu-x0))*cdfDiff(z0, q0, z1, q1) + slope*sd*(d0-d1)
		z0, q0, d0 = z1, q1, d1
	}
	return sum
}

// crossNarrow is ∫ f(u)·[Φ((u − μ1)/sd) + Φ((μ2 − u)/sd)] du over the
// path, f linear on each cell, μ1 = b − drift and μ2 = −b − drift: the
// chance of ending at or above b or at or below −b. Within reach of μ1
// (u = μ1 + sd·z) and of μ2 (u = μ2 − sd·z) a cell takes ∫Φ = zΦ + φ and
// ∫zΦ = ((z² − 1)Φ + zφ)/2; beyond, Φ is 0 or 1 and a cell's part gives
// nothing or its trapezoid.
func (p path) crossNarrow(b, drift, sd float64) float64 {
	mu1, mu2 := b-drift, -b-drift
	r := reach * sd
	sum := 0.0
	for i := range len(p.xs) - 1 {
		x0, f0, slope := p.cell(i)
		x1 := p.xs[i+1]
		f := func(u float64) float64 { return f0 + slope*(u-x0) }
		trap := func(a, b float64) float64 {
			if a >= b {
				return 0
			}
			return (b - a) * (f(a) + f(b)) / 2
		}
		sum += trap(max(x0, mu1+r), x1)
		if a, b := max(x0, mu1-r), min(x1, mu1+r); a < b {
			za, zb := (a-mu1)/sd, (b-mu1)/sd
			sum += sd * (f(mu1)*(intCDF(zb)-intCDF(za)) + slope*sd*(intZCDF(zb)-intZCDF(za)))
		}
		sum += trap(x0, min(x1, mu2-r))
		if a, b := max(x0, mu2-r), min(x1, mu2+r); a < b {
			za, zb := (mu2-b)/sd, (mu2-a)/sd
			sum += sd * (f(mu2)*(intCDF(zb)-intCDF(za)) - slope*sd*(intZCDF(zb)-intZCDF(za)))
		}
	}
	return sum
}

// cell is the path's density on grid cell i, [xs[i], xs[i+1]]: f(u) =
// f0 + slope·(u − x0).
func (p path) cell(i int) (x0, f0, slope float64) {
	x0, f0 = p.xs[i], p.fs[i]
	return x0, f0, (p.fs[i+1] - f0) / (p.xs[i+1] - x0)
}

// cellsNear is the range [lo, hi) of the cells that meet [a, b].
func (p path) cellsNear(a, b float64) (lo, hi int) {
	lo = max(sort.SearchFloat64s(p.xs, a)-1, 0)
	hi = min(sort.SearchFloat64s(p.xs, b), len(p.xs)-1)
	return lo, hi
}

// lowerTail is Φ(−|z|), the smaller tail at z, to full relative precision.
func lowerTail(z float64) float64 { return 0.5 * math.Erfc(math.Abs(z)/math.Sqrt2) }

// cdfDiff is Φ(z1) − Φ(z0) for z0 ≤ z1 from their smaller tails q0 and q1,
// keeping its digits in either tail.
func cdfDiff(z0, q0, z1, q1 float64) float64 {
	switch {
	case z0 >= 0:
		return q0 - q1
	case z1 <= 0:
		return q1 - q0
	}
	return 1 - q0 - q1
}

// clampedCDF is Φ(z), 0 or 1 beyond reach.
func clampedCDF(z float64) float64 {
	switch {
	case z > reach:
		return 1
	case z < -reach:
		return 0
	}
	return normCDF(z)
}

func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

func normPDF(z float64) float64 { return math.Exp(-0.5*z*z) / math.Sqrt(2*math.Pi) }

// intCDF is ∫Φ(z)dz = zΦ(z) + φ(z); intZCDF is ∫zΦ(z)dz.
func intCDF(z float64) float64 { return z*normCDF(z) + normPDF(z) }

func intZCDF(z float64) float64 { return ((z*z-1)*normCDF(z) + z*normPDF(z)) / 2 }
