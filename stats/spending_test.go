package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A design's boundaries spend exactly its alpha under no effect: checked
// by simulating Brownian paths through the looks, for both functions and
// looks unequally spaced, and the textbook figures of five equal looks.
func TestBoundsSpendAlpha(t *testing.T) {
	for _, tc := range []struct {
		s  Spending
		ts []float64
	}{
		{SpendOBF, []float64{0.2, 0.4, 0.6, 0.8, 1}},
		{SpendPocock, []float64{0.2, 0.4, 0.6, 0.8, 1}},
		{SpendOBF, []float64{0.3, 0.45, 1}},
		{SpendPocock, []float64{0.5, 1}},
	} {
		cs := Bounds(tc.s, 0.05, tc.ts)
		if p := CrossProb(cs, tc.ts, 0); math.Abs(p-0.05) > 0.0005 {
			t.Errorf("%v %v: bounds %v spend %.4f, want 0.05", tc.s, tc.ts, cs, p)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		const paths = 200000
		hits := 0
		for range paths {
			s, prev := 0.0, 0.0
			for k, tk := range tc.ts {
				s += math.Sqrt(tk-prev) * rng.NormFloat64()
				prev = tk
				if math.Abs(s/math.Sqrt(tk)) >= cs[k] {
					hits++
					break
				}
			}
		}
		if got := float64(hits) / paths; math.Abs(got-0.05) > 0.0025 {
			t.Errorf("%v %v: simulated type I error %.4f", tc.s, tc.ts, got)
		}
	}
	// Five equal looks at alpha 0.05: the first O'Brien-Fleming type
	// boundary is the spending function's own, z(1 − α(0.2)/2) = 4.383 (α(0.2)
	// = 2 − 2Φ(1.96/√0.2)); the last a little above 1.96; the Pocock type's
	// boundaries all near 2.4.
	obf := Bounds(SpendOBF, 0.05, []float64{0.2, 0.4, 0.6, 0.8, 1})
	if math.Abs(obf[0]-4.383) > 0.002 || obf[4] < 2.0 || obf[4] > 2.1 {
		t.Errorf("O'Brien-Fleming type boundaries %v", obf)
	}
	poc := Bounds(SpendPocock, 0.05, []float64{0.2, 0.4, 0.6, 0.8, 1})
	for _, c := range poc {
		if c < 2.3 || c > 2.5 {
			t.Errorf("Pocock type boundaries %v", poc)
			break
		}
	}
	if got := Bounds(SpendOBF, 0.05, []float64{1}); math.Abs(got[0]-1.95996) > 1e-3 {
		t.Errorf("one look: %v, want 1.96", got)
	}
}
