package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// ComparePaired judges arm against base when the samples are paired: the
// i-th value of each was measured in the same round, next to each other,
// so a slow drift of the host moves both alike. It works on the per-round
// log ratios d_i = log(arm_i/base_i):
//
//   - Ratio is exp(median d): the typical within-round ratio;
//   - Lo and Hi are a percentile bootstrap of exp(median d) that resamples
//     whole rounds (Confidence as requested);
//   - P is the two-sided Wilcoxon signed-rank p-value of d (exact for
//     n ≤ 50, normal approximation with tie and continuity correction
//     above), which assumes only that d is symmetric under no change.
//
// Pairs with a NaN or non-positive value are dropped. Significant follows
// the same rule as Compare: P < Alpha, the interval excludes 1 and
// |Ratio−1| ≥ MinEffect.
func ComparePaired(base, arm []float64, c Config) Result {
	c = c.withDefaults()
	var d []float64
	for i := range min(len(base), len(arm)) {
		b, a := base[i], arm[i]
		if math.IsNaN(a) || math.IsNaN(b) || a <= 0 || b <= 0 {
			continue
		}
		d = append(d, math.Log(a/b))
	}
	out := Result{
		Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: c.Confidence, P: 1,
		Method: fmt.Sprintf("paired by round: Wilcoxon signed-rank test and percentile bootstrap over rounds of the median log ratio, %d resamples, seed %d", c.Resamples, c.Seed),
		N1:     len(d), N2: len(d), Paired: true,
	}
	if len(d) == 0 {
		out.Warnings = append(out.Warnings, "no pairs to compare")
		return out
	}
	sd := slices.Clone(d)
	slices.Sort(sd)
	out.Ratio = math.Exp(Quantile(sd, 0.5))
	out.P = SignedRankP(d)
	if len(d) < 2 {
		out.Warnings = append(out.Warnings, "need >= 2 rounds for a bootstrap interval")
	} else {
		rng := rand.New(rand.NewPCG(c.Seed, pcgStream))
		buf := make([]float64, len(d))
		meds := make([]float64, c.Resamples)
		for k := range meds {
			for i := range buf {
				buf[i] = d[rng.IntN(len(d))]
			}
			slices.Sort(buf)
			meds[k] = Quantile(buf, 0.5)
		}
		slices.Sort(meds)
		tail := (1 - c.Confidence) / 2
		out.Lo, out.Hi = math.Exp(Quantile(meds, tail)), math.Exp(Quantile(meds, 1-tail))
	}
	out.Significant = out.P < c.Alpha && math.Abs(out.Ratio-1) >= c.MinEffect && (out.Lo > 1 || out.Hi < 1)
	return out
}

// SignedRankP is the two-sided p-value of the Wilcoxon signed-rank test
// of d against a distribution symmetric about 0. Zeros are dropped (Wilcoxon's
// convention); ties get mid-ranks. For n ≤ 50 non-zero values the p-value
// is exact, from the distribution of the rank sum under random signs
// (computed over doubled mid-ranks, so ties stay exact); above, the normal
// approximation with tie and continuity correction. It is 1 for no
// non-zero values.
func SignedRankP(d []float64) float64 {
	var nz []float64
	for _, x := range d {
		if x != 0 && !math.IsNaN(x) {
			nz = append(nz, x)
		}
	}
	n := len(nz)
	if n == 0 {
		return 1
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		x, y := math.Abs(nz[a]), math.Abs(nz[b])
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	// r2 holds doubled mid-ranks: integers even with ties.
	r2 := make([]int, n)
	tieCorr := 0.0
	for i := 0; i < n; {
		j := i
		for j+1 < n && math.Abs(nz[idx[j+1]]) == math.Abs(nz[idx[i]]) {
			j++
		}
		for k := i; k <= j; k++ {
			r2[idx[k]] = i + j + 2 // 2 × mean of ranks i+1..j+1
		}
		t := float64(j - i + 1)
		tieCorr += t*t*t - t
		i = j + 1
	}
	wPlus2, total2 := 0, 0
	for i, x := range nz {
		total2 += r2[i]
		if x > 0 {
			wPlus2 += r2[i]
		}
	}
	if n <= 50 {
		// counts[s] = number of sign assignments whose doubled positive
		// rank sum is s.
		counts := make([]float64, total2+1)
		counts[0] = 1
		for _, r := range r2 {
			for s := total2; s >= r; s-- {
				counts[s] += counts[s-r]
			}
		}
		all := math.Ldexp(1, n)
		lo := min(wPlus2, total2-wPlus2)
		tail := 0.0
		for s := 0; s <= lo; s++ {
			tail += counts[s]
		}
		return min(1, 2*tail/all)
	}
	fn := float64(n)
	mean := fn * (fn + 1) / 4
	v := fn*(fn+1)*(2*fn+1)/24 - tieCorr/48
	if v <= 0 {
		return 1
	}
	w := float64(wPlus2) / 2
	z := (math.Abs(w-mean) - 0.5) / math.Sqrt(v)
	if z < 0 {
		return 1
	}
	return min(1, 2*distuv.UnitNormal.Survival(z))
}

// MinSignedRankP is the smallest two-sided p-value the signed-rank test
// can give with n pairs: every sign alike, 2/2ⁿ.
func MinSignedRankP(n int) float64 {
	if n <= 0 {
		return 1
	}
	return min(1, math.Ldexp(2, -n))
}
