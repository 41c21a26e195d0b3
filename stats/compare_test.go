package stats

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// Ratios and p-values by hand: medians of the listed values; complete
// separation of two groups of 5 gives the U test's smallest two-sided p,
// 2/C(10,5) = 2/252.
func TestCompareRatio(t *testing.T) {
	tests := []struct {
		name        string
		base, arm   []float64
		ratio       float64
		p           float64 // < 0: not checked
		significant bool
	}{
		{"separated", []float64{100, 102, 98, 101, 99}, []float64{110, 108, 112, 111, 109}, 1.1, 2.0 / 252, true},
		{"slower", []float64{110, 108, 112, 111, 109}, []float64{100, 102, 98, 101, 99}, 1 / 1.1, 2.0 / 252, true},
		{"even n", []float64{1, 2, 3, 4}, []float64{2, 4, 6, 8}, 2, -1, false},
		{"nan ignored", []float64{100, math.NaN(), 102, 98, 101, 99}, []float64{110, 108, 112, 111, 109}, 1.1, 2.0 / 252, true},
		// Interleaved: U1 = U2, so p = 1.
		{"same", []float64{1, 3, 5}, []float64{2, 3, 4}, 1, 1, false},
		// 0.5% apart with tiny noise: the test and the interval
		// agree there is a difference, but it is below MinEffect.
		{"below min effect", []float64{100, 100.01, 100.02, 100.03, 100.04, 100.05},
			[]float64{100.5, 100.51, 100.52, 100.53, 100.54, 100.55}, 100.525 / 100.025, 2.0 / 924, false},
	}
	for _, tt := range tests {
		c := Compare(tt.base, tt.arm, DefaultConfig())
		if !near(c.Ratio, tt.ratio) || (tt.p >= 0 && !near(c.P, tt.p)) || c.Significant != tt.significant {
			t.Errorf("%s: ratio %v p %v significant %v, want %v %v %v (%+v)", tt.name, c.Ratio, c.P, c.Significant, tt.ratio, tt.p, tt.significant, c)
		}
		if tt.name == "below min effect" && !(c.P < 0.05 && c.Lo > 1) {
			t.Errorf("%s: want p < 0.05 and an interval above 1, got p %v [%v, %v]", tt.name, c.P, c.Lo, c.Hi)
		}
		if !(c.Lo <= c.Ratio && c.Ratio <= c.Hi) {
			t.Errorf("%s: interval [%v, %v] does not contain the ratio %v", tt.name, c.Lo, c.Hi, c.Ratio)
		}
	}
}

// Every resample of "separated" has an arm median in [108, 112] and a base
// median in [98, 102], so the interval lies within [108/102, 112/98].
func TestCompareIntervalBounds(t *testing.T) {
	c := Compare([]float64{100, 102, 98, 101, 99}, []float64{110, 108, 112, 111, 109}, DefaultConfig())
	if c.Lo < 108.0/102 || c.Hi > 112.0/98 || c.Lo >= c.Hi {
		t.Errorf("interval [%v, %v] outside [%v, %v]", c.Lo, c.Hi, 108.0/102, 112.0/98)
	}
	if c.N1 != 5 || c.N2 != 5 || c.Confidence != 0.95 {
		t.Errorf("N1 %d N2 %d confidence %v", c.N1, c.N2, c.Confidence)
	}
	if want := "percentile bootstrap of the ratio of medians, 10000 resamples, seed 1"; c.Method != want {
		t.Errorf("method %q, want %q", c.Method, want)
	}
}

func TestCompareDeterministic(t *testing.T) {
	base := []float64{100, 97, 103, 99, 101, 98, 102, 100.5, 99.5, 104}
	arm := []float64{102, 99, 105, 101, 103, 100, 104, 102.5, 101.5, 98}
	cfg := DefaultConfig()
	a, b := Compare(base, arm, cfg), Compare(base, arm, cfg)
	if a.Lo != b.Lo || a.Hi != b.Hi {
		t.Errorf("same seed, different intervals: [%v, %v] vs [%v, %v]", a.Lo, a.Hi, b.Lo, b.Hi)
	}
	cfg.Seed = 2
	c := Compare(base, arm, cfg)
	if c.Lo == a.Lo && c.Hi == a.Hi {
		t.Errorf("seeds 1 and 2 gave the same interval [%v, %v]", a.Lo, a.Hi)
	}
	if !(a.Lo <= a.Ratio && a.Ratio <= a.Hi) || !(c.Lo <= c.Ratio && c.Ratio <= c.Hi) {
		t.Errorf("intervals [%v, %v], [%v, %v] miss the ratio %v", a.Lo, a.Hi, c.Lo, c.Hi, a.Ratio)
	}
	// The callers' slices are not reordered.
	if base[0] != 100 || arm[len(arm)-1] != 98 {
		t.Error("Compare reordered its arguments")
	}
}

func TestCompareConfigDefaults(t *testing.T) {
	base, arm := []float64{1, 2, 3, 4, 5}, []float64{2, 3, 4, 5, 6}
	got := Compare(base, arm, Config{Seed: 1, MinEffect: 0.01})
	want := Compare(base, arm, DefaultConfig())
	if got.Lo != want.Lo || got.Hi != want.Hi || got.Confidence != 0.95 || got.Method != want.Method {
		t.Errorf("zero Config fields: got %+v, want %+v", got, want)
	}
}

func TestCompareWarnings(t *testing.T) {
	tests := []struct {
		name      string
		base, arm []float64
		warn      string // substring of some warning
		nanCI     bool
	}{
		{"empty", nil, []float64{1}, "no samples", true},
		{"one each", []float64{1}, []float64{2}, "need >= 2 samples per arm", true},
		{"three each", []float64{1, 2, 3}, []float64{1.5, 2.5, 3.5}, "need >= 4 samples to detect a difference", false},
		{"all equal", []float64{5, 5, 5}, []float64{5, 5, 5, 5}, "equal", false},
		{"zero base", []float64{0, 0, 0, 1}, []float64{1, 2, 3, 4}, "base median is 0", false},
	}
	for _, tt := range tests {
		c := Compare(tt.base, tt.arm, DefaultConfig())
		if !slices.ContainsFunc(c.Warnings, func(w string) bool { return strings.Contains(w, tt.warn) }) {
			t.Errorf("%s: warnings %q lack %q", tt.name, c.Warnings, tt.warn)
		}
		if math.IsNaN(c.Lo) != tt.nanCI || c.Significant {
			t.Errorf("%s: %+v", tt.name, c)
		}
	}
}
