package stats

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// CompareBootstrap judges arm against base by one test at one level: the
// percentile bootstrap of the ratio of medians (the resamples of
// bootstrapRatio), its interval at 1 − c.Alpha and its two-sided p-value
// inverted from the same resamples (percentileP), so that P < Alpha
// exactly when the interval excludes 1. What a comparison of two records
// states beside a verdict: a rank test's p beside a bootstrap interval
// could contradict it (p=0.015 beside [−1.3%, +77.1%]).
func CompareBootstrap(base, arm []float64, c Config) Result {
	c = c.withDefaults()
	c.Confidence = 1 - c.Alpha
	b, a := sorted(base), sorted(arm)
	out := Result{Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: c.Confidence, P: 1, N1: len(b), N2: len(a),
		Method: fmt.Sprintf("percentile bootstrap of the ratio of medians, %d resamples, seed %d; p from the same resamples", c.Resamples, c.Seed)}
	if len(b) == 0 || len(a) == 0 {
		out.Warnings = append(out.Warnings, "no samples to compare")
		return out
	}
	out.Ratio = Ratio(Quantile(a, 0.5), Quantile(b, 0.5))
	if len(b) < 2 || len(a) < 2 {
		out.Warnings = append(out.Warnings, "need >= 2 samples per arm for a bootstrap interval")
		return out
	}
	vals, kept, dropped := bootstrapRatioDist(b, a, c.Resamples, c.Seed)
	if dropped > 0 {
		out.Warnings = append(out.Warnings, fmt.Sprintf("%d of %d resamples had a base median of 0 and were dropped", dropped, c.Resamples))
	}
	if kept == 0 {
		return out
	}
	tail := (1 - c.Confidence) / 2
	out.Lo, out.Hi = weightedQuantile(vals, kept, tail), weightedQuantile(vals, kept, 1-tail)
	out.P = percentileP(vals, kept)
	out.Significant = out.P < c.Alpha && math.Abs(out.Ratio-1) >= c.MinEffect && (out.Lo > 1 || out.Hi < 1)
	return out
}

// bootstrapRatioDist is the distribution bootstrapRatio reads its interval
// from: the resampled ratios, sorted, each with how many resamples share
// it, how many were kept and how many dropped (a base median of 0).
func bootstrapRatioDist(base, arm []float64, resamples int, seed uint64) (vals []weighted, kept, dropped int) {
	plan := planFor(len(base), len(arm), resamples, seed)
	vals = make([]weighted, 0, len(plan))
	for _, e := range plan {
		r := Ratio(medianOf(arm, e.ai, e.aj), medianOf(base, e.bi, e.bj))
		if math.IsNaN(r) {
			dropped += int(e.n)
			continue
		}
		if r == 0 {
			return bootstrapRatioDistDirect(base, arm, resamples, seed)
		}
		vals = append(vals, weighted{r, e.n})
	}
	slices.SortFunc(vals, func(a, b weighted) int { return cmp.Compare(a.v, b.v) })
	return vals, resamples - dropped, dropped
}

// bootstrapRatioDistDirect is bootstrapRatioDist drawing every resample
// (bootstrapRatioDirect's draws), each its own value.
func bootstrapRatioDistDirect(base, arm []float64, resamples int, seed uint64) (vals []weighted, kept, dropped int) {
	rng := rand.New(rand.NewPCG(seed, pcgStream))
	bb, ab := newResampler(base), newResampler(arm)
	var ratios []float64
	for range resamples {
		mb := bb.median(rng) // base first: the generator's order
		ma := ab.median(rng)
		if r := Ratio(ma, mb); math.IsNaN(r) {
			dropped++
		} else {
			ratios = append(ratios, r)
		}
	}
	slices.Sort(ratios)
	return ones(ratios), len(ratios), dropped
}

// ones is sorted values each standing for one resample.
func ones(sorted []float64) []weighted {
	out := make([]weighted, len(sorted))
	for i, v := range sorted {
		out[i] = weighted{v, 1}
	}
	return out
}

// percentileP is the two-sided p-value of "no change" (a ratio of 1) by
// the percentile bootstrap whose n sorted resamples vals holds: the
// smallest level a at which the percentile interval at 1 − a (Quantile's
// interpolation, a/2 in each tail) excludes 1. The interval at 1 − alpha
// then excludes 1 exactly when p < alpha: the test and the interval are
// one.
func percentileP(vals []weighted, n int) float64 {
	if n == 0 {
		return 1
	}
	if n == 1 {
		if vals[0].v == 1 {
			return 1
		}
		return 0
	}
	// Q(t) = weightedQuantile(vals, n, t) is continuous and does not
	// decrease. The lower bound Q(a/2) is above 1 once a/2 passes
	// tLow = sup{t: Q(t) ≤ 1}; the upper bound Q(1 − a/2) is below 1 once
	// 1 − a/2 falls under tHigh = inf{t: Q(t) ≥ 1}.
	last := float64(n - 1)
	le, lt := 0, 0 // resamples ≤ 1 and < 1
	for _, w := range vals {
		if w.v <= 1 {
			le += int(w.n)
		}
		if w.v < 1 {
			lt += int(w.n)
		}
	}
	tLow := 0.0
	switch {
	case le == n:
		tLow = 1
	case le > 0:
		x, y := kthWeighted(vals, le-1), kthWeighted(vals, le)
		tLow = (float64(le-1) + (1-x)/(y-x)) / last
	}
	tHigh := 1.0
	switch {
	case lt == 0:
		tHigh = 0
	case lt < n:
		x, y := kthWeighted(vals, lt-1), kthWeighted(vals, lt)
		tHigh = (float64(lt-1) + (1-x)/(y-x)) / last
	}
	return min(1, 2*tLow, 2*(1-tHigh))
}
