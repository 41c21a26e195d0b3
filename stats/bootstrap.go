package stats

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// pcgStream is the second PCG seed word. Config.Seed is the first; fixing
// the stream keeps one user-visible seed while still seeding PCG fully.
const pcgStream = 0x9e3779b97f4a7c15

// bootstrapRatio returns the percentile-bootstrap interval of
// median(arm)/median(base) at the given confidence, resampling each group
// independently with replacement (the groups are independent runs), and
// the number of resamples dropped because the resampled base median was 0.
// base and arm must be sorted, NaN-free and non-empty.
//
// It is written by hand because neither gonum nor golang.org/x/perf offers
// a bootstrap. It uses the percentile interval rather than BCa: BCa's
// acceleration comes from the jackknife, which is inconsistent for the
// median, and its bias correction, read off the share of resamples below
// the estimate, jumps about when a median of ten runs can only take a
// handful of values. The percentile interval needs neither and, being
// transformation-respecting, gives the same answer for the ratio and for
// its logarithm.
//
// The result depends only on the data, resamples, confidence and seed.
// Which positions of the sorted samples each resample's medians fall on
// depends only on the sizes, resamples and seed (see bootPlan), so the
// draws are made once per such shape and each call only evaluates the
// few distinct resampled medians on its own values: the interval is
// bit-identical to drawing every resample (bootstrapRatioDirect, which
// TestBootstrapPlanBitIdentical compares it with).
func bootstrapRatio(base, arm []float64, confidence float64, resamples int, seed uint64) (lo, hi float64, dropped int) {
	plan := planFor(len(base), len(arm), resamples, seed)
	vals := make([]weighted, 0, len(plan))
	for _, e := range plan {
		r := Ratio(medianOf(arm, e.ai, e.aj), medianOf(base, e.bi, e.bj))
		if math.IsNaN(r) {
			dropped += int(e.n)
			continue
		}
		if r == 0 {
			// +0 and -0 sort as equal, in an order only the direct
			// draw reproduces.
			return bootstrapRatioDirect(base, arm, confidence, resamples, seed)
		}
		vals = append(vals, weighted{r, e.n})
	}
	kept := resamples - dropped
	if kept == 0 {
		return math.NaN(), math.NaN(), dropped
	}
	slices.SortFunc(vals, func(a, b weighted) int { return cmp.Compare(a.v, b.v) })
	tail := (1 - confidence) / 2
	return weightedQuantile(vals, kept, tail), weightedQuantile(vals, kept, 1-tail), dropped
}

// bootstrapRatioDirect is bootstrapRatio drawing and keeping every
// resample's ratio.
func bootstrapRatioDirect(base, arm []float64, confidence float64, resamples int, seed uint64) (lo, hi float64, dropped int) {
	rng := rand.New(rand.NewPCG(seed, pcgStream))
	bb, ab := newResampler(base), newResampler(arm)
	ratios := make([]float64, 0, resamples)
	for range resamples {
		mb := bb.median(rng) // base first: the generator's order
		ma := ab.median(rng)
		r := Ratio(ma, mb)
		if math.IsNaN(r) {
			dropped++
			continue
		}
		ratios = append(ratios, r)
	}
	if len(ratios) == 0 {
		return math.NaN(), math.NaN(), dropped
	}
	slices.Sort(ratios)
	tail := (1 - confidence) / 2
	return Quantile(ratios, tail), Quantile(ratios, 1-tail), dropped
}

// weighted is a value that n of the sorted resamples share.
type weighted struct {
	v float64
	n int32
}

// weightedQuantile is Quantile(sorted, p) of the n values that vals
// (sorted by v) stand for, computed operation for operation as Quantile
// does.
func weightedQuantile(vals []weighted, n int, p float64) float64 {
	h := p * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return kthWeighted(vals, n-1)
	}
	a, b := kthWeighted(vals, lo), kthWeighted(vals, lo+1)
	return a + (h-float64(lo))*(b-a)
}

func kthWeighted(vals []weighted, k int) float64 {
	seen := 0
	for _, w := range vals {
		seen += int(w.n)
		if seen > k {
			return w.v
		}
	}
	return vals[len(vals)-1].v
}
