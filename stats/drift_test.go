package stats

import (
	"math"
	"testing"
)

// Rho by hand from 1 − 6Σd²/(n(n²−1)) when there are no ties, and from the
// Pearson correlation of average ranks when there are.
func TestDriftOf(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name        string
		t, v        []float64
		rho, change float64
		flagged     bool // at threshold 0.03
	}{
		// Falling steadily: first third median 99.5, last 95.5.
		{"falling", []float64{1, 2, 3, 4, 5, 6}, []float64{100, 99, 98, 97, 96, 95}, -1, 95.5/99.5 - 1, true},
		// Same pairs out of time order.
		{"unordered", []float64{4, 1, 6, 2, 5, 3}, []float64{97, 100, 95, 99, 96, 98}, -1, 95.5/99.5 - 1, true},
		// Ranks 3 1 4 2 5 6, Σd² = 10: rho = 1 − 60/210. Thirds 2 and 7.
		{"noisy rise", []float64{1, 2, 3, 4, 5, 6}, []float64{3, 1, 4, 1.5, 5, 9}, 1 - 60.0/210, 2.5, true},
		// Ranks 1 6 5 4 2 3, Σd² = 38: rho = 1 − 228/210. Thirds 5 and
		// 2.5: a big change that is not a trend.
		{"no trend", []float64{1, 2, 3, 4, 5, 6}, []float64{1, 9, 5, 4, 2, 3}, 1 - 228.0/210, -0.5, false},
		// Ties: value ranks 1 2.5 2.5 4 against 1 2 3 4 give
		// 4.5/√(4.5·5) = √0.9. Only 4 pairs: never flagged.
		{"ties", []float64{1, 2, 3, 4}, []float64{1, 2, 2, 3}, math.Sqrt(0.9), 2, false},
		{"constant", []float64{1, 2, 3, 4, 5, 6}, []float64{5, 5, 5, 5, 5, 5}, 0, 0, false},
		// The NaN pair is dropped, leaving "falling" minus its last pair.
		{"nan", []float64{1, 2, 3, 4, 5, nan, 6}, []float64{100, 99, 98, 97, 96, 1, nan}, -1, 96.0/100 - 1, false},
	}
	for _, tt := range tests {
		d := DriftOf(tt.t, tt.v)
		if !near(d.Rho, tt.rho) || !near(d.Change, tt.change) || d.Flagged(0.03) != tt.flagged {
			t.Errorf("%s: DriftOf = %+v flagged %v, want rho %v change %v flagged %v", tt.name, d, d.Flagged(0.03), tt.rho, tt.change, tt.flagged)
		}
	}
}

func TestDriftFlagged(t *testing.T) {
	tests := []struct {
		d    Drift
		want bool
	}{
		{Drift{Rho: -0.8, Change: -0.031, N: 10}, true},
		{Drift{Rho: 0.5, Change: 0.02, N: 6}, true},
		{Drift{Rho: 0.49, Change: 0.1, N: 10}, false}, // not a trend
		{Drift{Rho: 1, Change: 0.019, N: 10}, false},  // too small
		{Drift{Rho: 1, Change: 0.1, N: 5}, false},     // too few runs
		{Drift{Rho: math.NaN(), Change: math.NaN()}, false},
	}
	for _, tt := range tests {
		if got := tt.d.Flagged(0.02); got != tt.want {
			t.Errorf("%+v.Flagged(0.02) = %v, want %v", tt.d, got, tt.want)
		}
	}
}

func TestRanks(t *testing.T) {
	got := ranks([]float64{30, 10, 20, 10, 30, 30})
	want := []float64{5, 1.5, 3, 1.5, 5, 5}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ranks = %v, want %v", got, want)
		}
	}
}
