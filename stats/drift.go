package stats

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Drift describes how one arm's values moved over the campaign.
type Drift struct {
	// Rho is Spearman's rank correlation of value with time, in [−1, 1]:
	// how consistently the values rose or fell. 0 when the values (or
	// times) are all equal, NaN when N < 2.
	Rho float64
	// Change is median(last third)/median(first third) − 1, in time
	// order: −0.031 reads "drifted −3.1%". NaN when N < 3.
	Change float64
	// N is the number of (time, value) pairs used.
	N int
}

// DriftOf measures the drift of values v observed at times t (any unit,
// any order; pairs with a NaN are dropped). Spearman's rho is used rather
// than a regression slope because it asks only whether later runs are
// consistently higher or lower, so a single slow run cannot fake a trend,
// and thermal or clock drift is monotone but rarely linear. It is computed
// as gonum's Pearson stat.Correlation of the ranks, ties given their
// average rank; gonum has no ranking function, so ranks is written here.
// The medians of thirds give the size of the drift in the units a reader
// cares about, again robust to one odd run.
func DriftOf(t, v []float64) Drift {
	type pair struct{ t, v float64 }
	var ps []pair
	for i := range min(len(t), len(v)) {
		if !math.IsNaN(t[i]) && !math.IsNaN(v[i]) {
			ps = append(ps, pair{t[i], v[i]})
		}
	}
	n := len(ps)
	d := Drift{Rho: math.NaN(), Change: math.NaN(), N: n}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].t < ps[j].t })
	ts, vs := make([]float64, n), make([]float64, n)
	for i, p := range ps {
		ts[i], vs[i] = p.t, p.v
	}
	if n >= 2 {
		rt, rv := ranks(ts), ranks(vs)
		d.Rho = stat.Correlation(rt, rv, nil)
		if math.IsNaN(d.Rho) { // a constant series: no trend at all
			d.Rho = 0
		}
	}
	if k := n / 3; k > 0 {
		first, last := slices.Clone(vs[:k]), slices.Clone(vs[n-k:])
		slices.Sort(first)
		slices.Sort(last)
		d.Change = Ratio(Quantile(last, 0.5), Quantile(first, 0.5)) - 1
	}
	return d
}

// Flagged reports a drift worth warning about: at least 6 pairs, a change
// of at least threshold (e.g. 0.02), and |Rho| ≥ 0.5. The size alone would
// flag a campaign whose first or last few runs were merely noisy; the
// correlation alone would flag a perfectly steady 0.1% creep. |Rho| ≥ 0.5
// is the conventional "strong" association rather than a significance
// test: it lies between the 5% critical values of Spearman's rho for
// n = 10 (0.65) and n = 20 (0.45), the campaign sizes this tool runs, and a
// drift warning should err toward being shown. Below 6 pairs the thirds
// hold one value each and rho is too coarse to mean anything.
func (d Drift) Flagged(threshold float64) bool {
	return d.N >= 6 && math.Abs(d.Change) >= threshold && math.Abs(d.Rho) >= 0.5
}

// ranks returns the 1-based ranks of xs, ties sharing their average rank.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && xs[idx[j]] == xs[idx[i]] {
			j++
		}
		avg := float64(i+1+j) / 2 // mean of ranks i+1 .. j
		for k := i; k < j; k++ {
			r[idx[k]] = avg
		}
		i = j
	}
	return r
}
