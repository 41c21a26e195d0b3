package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// Expected values computed by hand (and checked against R's quantile(type=7)).
func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		in   []float64
		want Summary
	}{
		{"odd", []float64{5, 1, 4, 2, 3}, Summary{N: 5, Median: 3, MAD: 1, Q1: 2, Q3: 4, Min: 1, Max: 5, Mean: 3, StdDev: math.Sqrt(2.5), CV: math.Sqrt(2.5) / 3}},
		{"even", []float64{10, 20, 30, 40}, Summary{N: 4, Median: 25, MAD: 10, Q1: 17.5, Q3: 32.5, Min: 10, Max: 40, Mean: 25, StdDev: math.Sqrt(500.0 / 3), CV: math.Sqrt(500.0/3) / 25}},
		{"one", []float64{7}, Summary{N: 1, Median: 7, Q1: 7, Q3: 7, Min: 7, Max: 7, Mean: 7}},
		{"outlier", []float64{100, 101, 99, 100, 150}, Summary{N: 5, Median: 100, MAD: 1, Q1: 100, Q3: 101, Min: 99, Max: 150, Mean: 110, StdDev: math.Sqrt(500.5), CV: math.Sqrt(500.5) / 110}},
		{"nan ignored", []float64{1, math.NaN(), 3}, Summary{N: 2, Median: 2, MAD: 1, Q1: 1.5, Q3: 2.5, Min: 1, Max: 3, Mean: 2, StdDev: math.Sqrt2, CV: math.Sqrt2 / 2}},
	}
	for _, tt := range tests {
		got := Summarize(tt.in)
		w := tt.want
		if got.N != w.N || !near(got.Median, w.Median) || !near(got.MAD, w.MAD) || !near(got.Q1, w.Q1) || !near(got.Q3, w.Q3) ||
			!near(got.Min, w.Min) || !near(got.Max, w.Max) || !near(got.Mean, w.Mean) || !near(got.StdDev, w.StdDev) || !near(got.CV, w.CV) {
			t.Errorf("%s: Summarize(%v)\n got %+v\nwant %+v", tt.name, tt.in, got, w)
		}
	}
	if s := Summarize(nil); s.N != 0 {
		t.Errorf("empty: %+v", s)
	}
}

func TestRatio(t *testing.T) {
	if !near(Ratio(150, 100), 1.5) || !math.IsNaN(Ratio(1, 0)) {
		t.Error("ratio")
	}
}

// Median by selection is the sorted median, bit for bit, on draws with
// ties, odd and even counts and signed zeros.
func TestMedianSelectsAsSorting(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 20000 {
		n := 1 + rng.IntN(40)
		xs := make([]float64, n)
		for j := range xs {
			switch rng.IntN(4) {
			case 0:
				xs[j] = float64(rng.IntN(5)) // ties
			default:
				xs[j] = rng.NormFloat64()
			}
		}
		s := slices.Clone(xs)
		slices.Sort(s)
		want := (s[(n-1)/2] + s[n/2]) / 2
		if n%2 == 1 {
			want = s[n/2]
		}
		if got := Median(xs); got != want {
			t.Fatalf("draw %d: Median(%v) = %v, sorted %v", i, xs, got, want)
		}
	}
	if got := Median([]float64{1, math.NaN(), 3}); got != 1 { // sorted: NaN, 1, 3
		t.Errorf("Median with a NaN = %v, want the sorted path's 1", got)
	}
}
