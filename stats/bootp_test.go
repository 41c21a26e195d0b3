package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// CompareBootstrap's p and interval are one test at one level: over many
// pairs of samples (small, tied, skewed, shifted or not) and several
// levels, p < alpha exactly when the interval at 1 − alpha excludes 1,
// and the verdict needs both.
func TestCompareBootstrapOneTestOneLevel(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 12))
	checked, sig, disagreeU := 0, 0, 0
	for i := range 1500 {
		n1, n2 := 2+rng.IntN(12), 2+rng.IntN(12)
		shift := []float64{1, 1.01, 1.03, 1.1, 1.4}[i%5]
		draw := func(n int, scale float64) []float64 {
			xs := make([]float64, n)
			for j := range xs {
				v := 100 * scale * math.Exp(0.05*rng.NormFloat64())
				if rng.IntN(8) == 0 {
					v *= 1.5 // a heavy tail: a slow request
				}
				if i%7 == 0 {
					v = math.Round(v / 5) // ties
				}
				xs[j] = v
			}
			return xs
		}
		a, b := draw(n1, 1), draw(n2, shift)
		alpha := []float64{0.05, 0.01, 0.1}[i%3]
		c := CompareBootstrap(a, b, Config{Alpha: alpha, Resamples: 2000, Seed: uint64(i)})
		if math.IsNaN(c.Lo) {
			continue
		}
		checked++
		if math.Abs(c.Confidence-(1-alpha)) > 1e-12 {
			t.Fatalf("interval at %g for alpha %g", c.Confidence, alpha)
		}
		pSig, ciSig := c.P < alpha, c.Lo > 1 || c.Hi < 1
		if pSig != ciSig && math.Abs(c.P-alpha) > 1e-9 {
			t.Errorf("case %d: p %.4g at alpha %g beside interval [%.4f, %.4f] (ratio %.4f)", i, c.P, alpha, c.Lo, c.Hi, c.Ratio)
		}
		if c.Significant && !(pSig && ciSig) {
			t.Errorf("case %d: significant with p %.4g and interval [%.4f, %.4f]", i, c.P, c.Lo, c.Hi)
		}
		if pSig {
			sig++
		}
		u := Compare(a, b, Config{Confidence: 1 - alpha, Alpha: alpha, Resamples: 2000, Seed: uint64(i)})
		if (u.P < alpha) != ciSig {
			disagreeU++
		}
		if u.Lo != c.Lo || u.Hi != c.Hi {
			t.Errorf("case %d: interval [%g, %g], Compare's [%g, %g]: the same resamples must give the same interval", i, c.Lo, c.Hi, u.Lo, u.Hi)
		}
	}
	if checked < 1200 || sig < 250 {
		t.Fatalf("checked %d, %d significant: the cases do not exercise both outcomes", checked, sig)
	}
	// The rank test's p beside the bootstrap interval is what diff showed
	// before: it disagreed with the interval in some cases.
	if disagreeU == 0 {
		t.Errorf("the U test never disagreed with the interval: the test shows nothing")
	}
	t.Logf("%d comparisons, %d significant; the U test's p disagreed with the interval in %d", checked, sig, disagreeU)
}

// percentileP at the edges: every resample on one side, all at 1, one
// resample.
func TestPercentileP(t *testing.T) {
	for _, tc := range []struct {
		vals []float64
		want float64
	}{
		{[]float64{1.1, 1.2, 1.3}, 0},
		{[]float64{0.8, 0.9}, 0},
		{[]float64{1, 1, 1}, 1},
		{[]float64{1.2}, 0},
		{[]float64{1}, 1},
		{[]float64{0.9, 1.1}, 1},             // symmetric about 1
		{[]float64{0.5, 1.5, 2, 3, 4}, 0.25}, // Q(t) = 1 at t = 1/8: p = 2/8
	} {
		got := percentileP(ones(tc.vals), len(tc.vals))
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("percentileP(%v) = %g, want %g", tc.vals, got, tc.want)
		}
	}
}
