package stats

import (
	"math"
	"testing"
)

// Levels by hand from Binomial(n, ½): the interval [x(i), x(n+1−i)] misses
// the median with probability 2·Σ_{k<i} C(n,k)/2ⁿ.
func TestMedianInterval(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name       string
		in         []float64
		confidence float64
		median     float64
		lo, hi     float64
		level      float64
		warns      bool
	}{
		// n=5 cannot reach 95%: [min, max] misses with 2/32.
		{"n5 at 95", []float64{5, 1, 4, 2, 3}, 0.95, 3, 1, 5, 1 - 2.0/32, true},
		// ... but it does reach 90%, directly through benchmath.
		{"n5 at 90", []float64{5, 1, 4, 2, 3}, 0.90, 3, 1, 5, 1 - 2.0/32, false},
		// n=6: [min, max] misses with 2/64, so 96.875% ≥ 95%.
		{"n6 at 95", []float64{-10, 2, 3, 4, 5, 6}, 0.95, 3.5, -10, 6, 1 - 2.0/64, false},
		// n=10: [x(2), x(9)] misses with 2·(1+10)/1024.
		{"n10 at 95", []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 0.95, 5.5, 2, 9, 1 - 22.0/1024, false},
		{"n2 at 95", []float64{1, 2}, 0.95, 1.5, 1, 2, 0.5, true},
		{"n1", []float64{7}, 0.95, 7, -inf, inf, 1, true},
		{"nan ignored", []float64{5, 1, math.NaN(), 4, 2, 3}, 0.95, 3, 1, 5, 0.9375, true},
	}
	for _, tt := range tests {
		got := MedianInterval(tt.in, tt.confidence)
		if !near(got.Median, tt.median) || got.Lo != tt.lo || got.Hi != tt.hi || !near(got.Confidence, tt.level) || (len(got.Warnings) > 0) != tt.warns {
			t.Errorf("%s: MedianInterval(%v, %v) = %+v\nwant median %v [%v, %v] at %v, warnings %v",
				tt.name, tt.in, tt.confidence, got, tt.median, tt.lo, tt.hi, tt.level, tt.warns)
		}
	}
	if got := MedianInterval(nil, 0.95); !math.IsNaN(got.Median) || len(got.Warnings) == 0 {
		t.Errorf("empty: %+v", got)
	}
}

func TestMedianIntervalLevel(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6}
	if c := MedianInterval(xs[:5], 0.95).Confidence; c != 0.9375 {
		t.Errorf("n=5 at 95%%: confidence %v, want 0.9375", c)
	}
	if c := MedianInterval(xs, 0.95).Confidence; c < 0.95 {
		t.Errorf("n=6 at 95%%: confidence %v, want >= 0.95", c)
	}
	w := MedianInterval(xs[:5], 0.95).Warnings
	want := "reporting [min, max] at 93.75% confidence, below the 95% requested"
	if len(w) == 0 || w[len(w)-1] != want {
		t.Errorf("n=5 warnings %q, want last %q", w, want)
	}
}
