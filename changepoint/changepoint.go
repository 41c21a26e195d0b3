// Package changepoint finds steps in a series of measurements taken one
// after another (one value per record): E-divisive means (Matteson and
// James, "A Nonparametric Approach for Multiple Change Point Analysis of
// Multivariate Data", JASA 2014) locates each candidate split, and, as in
// Hunter (Fleming et al., "Hunter: Using Change Point Detection to Hunt
// for Performance Regressions", ICPE 2023), a two-sample Student's t-test
// between the segments on either side decides whether it is a step, in
// place of E-divisive's permutation test, so the result is deterministic.
// A step must also be at least a minimum relative size.
package changepoint

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Method names the detection method, as the index and history state it.
const Method = "E-divisive means (Matteson & James 2014) with Student's t-test significance (Hunter, Fleming et al. 2023)"

// Options are the detection's thresholds.
type Options struct {
	// Alpha is the significance level of the t-test (two-sided).
	Alpha float64
	// MinStep is the smallest relative change between the segments.
	// means that counts as a step (0.02: 2%).
	MinStep float64
	// MinSegment is the fewest points on either side of a step.
	MinSegment int
}

// Defaults are the thresholds the index and history use.
var Defaults = Options{Alpha: 0.001, MinStep: 0.015, MinSegment: 4}

// Step is one change point.
type Step struct {
	// Index is the first point after the step.
	Index int `json:"index"`
	// Before and After are the means of the segments on either side (to
	// the neighbouring steps), Change is After/Before − 1.
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Change float64 `json:"change"`
	// P is the t-test's two-sided p-value between the two segments.
	P float64 `json:"p"`
}

// Detect returns the steps in xs, in order. Non-finite values are not
// allowed (callers leave such records out).
func Detect(xs []float64, o Options) []Step {
	o = o.withDefaults()
	var cps []int
	var split func(a, b int)
	split = func(a, b int) {
		tau, ok := bestSplit(xs[a:b], o.MinSegment)
		if !ok {
			return
		}
		tau += a
		if s := test(xs[a:tau], xs[tau:b]); s.P >= o.Alpha || math.Abs(s.Change) < o.MinStep {
			return
		}
		split(a, tau)
		cps = append(cps, tau)
		split(tau, b)
	}
	split(0, len(xs))
	slices.Sort(cps)
	// Each step is re-tested against its neighbours' segments, and the
	// weakest that fails goes, until every step holds (Hunter's
	// re-validation).
	for {
		steps := measure(xs, cps)
		worst := -1
		for i, s := range steps {
			if s.P >= o.Alpha || math.Abs(s.Change) < o.MinStep {
				if worst < 0 || s.P > steps[worst].P {
					worst = i
				}
			}
		}
		if worst < 0 {
			return steps
		}
		cps = slices.Delete(cps, worst, worst+1)
	}
}

func (o Options) withDefaults() Options {
	if o.Alpha <= 0 {
		o.Alpha = Defaults.Alpha
	}
	if o.MinSegment < 2 {
		o.MinSegment = 2
	}
	return o
}

// measure tests each change point against the segments to its neighbours.
func measure(xs []float64, cps []int) []Step {
	steps := make([]Step, len(cps))
	for i, c := range cps {
		lo, hi := 0, len(xs)
		if i > 0 {
			lo = cps[i-1]
		}
		if i+1 < len(cps) {
			hi = cps[i+1]
		}
		s := test(xs[lo:c], xs[c:hi])
		s.Index = c
		steps[i] = s
	}
	return steps
}

// bestSplit is the split τ (the first index of the right part) of xs that
// maximises E-divisive's statistic q̂ with exponent 1, each part at least
// m long. The sums of pairwise distances come from rowDistances in
// O(n log n), so that binary segmentation over a long series (a history of
// thousands of records, or a crafted one) stays near O(n log² n) rather
// than the cubic cost of summing every pair at every split.
func bestSplit(xs []float64, m int) (int, bool) {
	n := len(xs)
	if n < 2*m {
		return 0, false
	}
	rowL, rowR := rowDistances(xs)
	return scan(rowL, rowR, m), true
}

// scan is the τ with the largest q̂, given the rows of pairwise distances
// (see rowDistances).
func scan(rowL, rowR []float64, m int) int {
	n := len(rowL)
	total := 0.0
	for _, d := range rowL {
		total += d
	}
	wl, wr := 0.0, total // within the left part, within the right part
	best, bestQ := 0, math.Inf(-1)
	for tau := 1; tau < n; tau++ {
		wl += rowL[tau-1]
		wr -= rowR[tau-1]
		if tau < m || n-tau < m {
			continue
		}
		between := total - wl - wr
		nl, nr := float64(tau), float64(n-tau)
		e := 2*between/(nl*nr) - wl/(nl*(nl-1)/2) - wr/(nr*(nr-1)/2)
		if q := nl * nr / (nl + nr) * e; q > bestQ {
			best, bestQ = tau, q
		}
	}
	return best
}

// rowDistances returns rowL[k] = Σ_{i<k} |x_i − x_k| and rowR[k] =
// Σ_{j>k} |x_k − x_j|. Each is one pass over xs with Fenwick trees of the
// count and the sum of the values seen so far, indexed by rank: the
// values below x_k contribute x_k·count − sum, those above sum − x_k·count.
// The values are centred on their median first, so the sums cancel
// little.
func rowDistances(xs []float64) (rowL, rowR []float64) {
	n := len(xs)
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	mid := sorted[n/2]
	c := make([]float64, n)
	rank := make([]int, n) // 1-based rank among the distinct values
	for i, x := range xs {
		c[i] = x - mid
		r, _ := slices.BinarySearch(sorted, x)
		rank[i] = r + 1
	}
	pass := func(order func(i int) int, row []float64) {
		cnt := make([]float64, n+1)
		sum := make([]float64, n+1)
		seen, seenSum := 0.0, 0.0
		for i := range n {
			k := order(i)
			x, r := c[k], rank[k]
			below, belowSum := 0.0, 0.0 // values ≤ x_k seen so far
			for j := r; j > 0; j -= j & -j {
				below += cnt[j]
				belowSum += sum[j]
			}
			above, aboveSum := seen-below, seenSum-belowSum
			row[k] = x*below - belowSum + aboveSum - x*above
			for j := r; j <= n; j += j & -j {
				cnt[j]++
				sum[j] += x
			}
			seen++
			seenSum += x
		}
	}
	rowL = make([]float64, n)
	rowR = make([]float64, n)
	pass(func(i int) int { return i }, rowL)
	pass(func(i int) int { return n - 1 - i }, rowR)
	return rowL, rowR
}

// test is the two-sample Student's t-test (pooled variance) between a and
// b, with the relative change of their means.
func test(a, b []float64) Step {
	ma, va := meanVar(a)
	mb, vb := meanVar(b)
	s := Step{Before: ma, After: mb, P: 1}
	if ma != 0 {
		s.Change = mb/ma - 1
	}
	na, nb := float64(len(a)), float64(len(b))
	df := na + nb - 2
	if df < 1 {
		return s
	}
	pooled := ((na-1)*va + (nb-1)*vb) / df
	se := math.Sqrt(pooled * (1/na + 1/nb))
	switch {
	case se == 0 && ma == mb:
		s.P = 1
	case se == 0:
		s.P = 0
	default:
		t := math.Abs(mb-ma) / se
		s.P = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(t)
	}
	return s
}

func meanVar(xs []float64) (float64, float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	if len(xs) < 2 {
		return m, 0
	}
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, v / float64(len(xs)-1)
}

// Strongest is the split Detect would try first on the whole of xs, with
// its t-test (Index, the means, Change, P) whether or not it passes o's
// thresholds: what a series that shows no step came closest to. ok is
// false when xs has fewer than twice o.MinSegment points, too few for
// any split.
func Strongest(xs []float64, o Options) (s Step, ok bool) {
	o = o.withDefaults()
	tau, ok := bestSplit(xs, o.MinSegment)
	if !ok {
		return Step{}, false
	}
	s = test(xs[:tau], xs[tau:])
	s.Index = tau
	return s, true
}

// Need is the fewest points a series must have for o to find a step in
// it: o.MinSegment on either side.
func (o Options) Need() int { return 2 * o.withDefaults().MinSegment }
