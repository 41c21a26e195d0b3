package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// An arm 10% faster than its baseline in both campaigns, on a second
// machine 30% slower overall, keeps its ratio: the change is about 1 and
// its interval covers 1; when the second campaign's arm gains 10% more,
// the interval excludes 1.
func TestCompareRatios(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(center float64) []float64 {
		xs := make([]float64, 10)
		for i := range xs {
			xs[i] = center * math.Exp(rng.NormFloat64()*0.01)
		}
		return xs
	}
	cfg := DefaultConfig()
	same := CompareRatios(gen(100), gen(110), gen(70), gen(77), cfg)
	if math.Abs(same.Change-1) > 0.02 || same.Lo > 1 || same.Hi < 1 {
		t.Errorf("same ratio on another machine: %+v", same)
	}
	moved := CompareRatios(gen(100), gen(110), gen(70), gen(84.7), cfg)
	if moved.Lo <= 1 || math.Abs(moved.Change-1.1) > 0.02 {
		t.Errorf("ratio up 10%%: %+v", moved)
	}
	// The p-value is the same bootstrap's, at the interval's level.
	if same.P < 1-same.Confidence || moved.P >= 1-moved.Confidence {
		t.Errorf("p %g beside [%g, %g], p %g beside [%g, %g] at %g", same.P, same.Lo, same.Hi, moved.P, moved.Lo, moved.Hi, moved.Confidence)
	}
	if thin := CompareRatios([]float64{1}, gen(1), gen(1), gen(1), cfg); !math.IsNaN(thin.Lo) || thin.P != 1 {
		t.Errorf("one sample gave an interval: %+v", thin)
	}
}

// A campaign with both groups states its ratio though the other campaign
// lacks one (an arm only one record has); the change is unknown.
func TestCompareRatiosOneCampaignMissing(t *testing.T) {
	base, arm := []float64{100, 101, 99}, []float64{90, 91, 89}
	for _, c := range []struct {
		ob, oa, nb, na []float64
		old, nu        bool
	}{{base, arm, base, nil, true, false}, {base, nil, base, arm, false, true}, {nil, nil, base, arm, false, true}} {
		r := CompareRatios(c.ob, c.oa, c.nb, c.na, Config{})
		if c.old != !math.IsNaN(r.Old) || c.nu != !math.IsNaN(r.New) || !math.IsNaN(r.Change) || r.P != 1 {
			t.Errorf("%+v", r)
		}
		if c.old && math.Abs(r.Old-0.9) > 1e-12 || c.nu && math.Abs(r.New-0.9) > 1e-12 {
			t.Errorf("ratios %v, %v, want 0.9", r.Old, r.New)
		}
	}
}
