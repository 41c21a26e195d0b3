package stats

import (
	"math"
	"slices"
	"testing"
)

// z-scores by hand: z = 0.6745·(x − median)/MAD, or, when MAD = 0,
// (x − median)/(1.253314·MeanAD).
func TestOutliers(t *testing.T) {
	tests := []struct {
		name      string
		in        []float64
		threshold float64
		want      []bool
	}{
		// median 12, |dev| 2 1 0 1 18, MAD 1: z(30) = 0.6745·18 = 12.1.
		{"high", []float64{10, 11, 12, 13, 30}, 0, []bool{false, false, false, false, true}},
		// median 11, |dev| 17 1 0 1 2, MAD 1: z(−6) = −11.5.
		{"low", []float64{-6, 10, 11, 12, 13}, 3.5, []bool{true, false, false, false, false}},
		// median 2.5, |dev| 2.5 1.5 .5 .5 1.5 6.5, MAD 1.5:
		// z(9) = 0.6745·6.5/1.5 = 2.923, between the two thresholds.
		{"borderline 3.5", []float64{0, 1, 2, 3, 4, 9}, 3.5, []bool{false, false, false, false, false, false}},
		{"borderline 2.9", []float64{0, 1, 2, 3, 4, 9}, 2.9, []bool{false, false, false, false, false, true}},
		// MAD 0, MeanAD 0.2: z(101) = 1/(1.253314·0.2) = 3.99.
		{"mad zero, outlier", []float64{100, 100, 101, 100, 100}, 0, []bool{false, false, true, false, false}},
		// MAD 0, MeanAD 0.4: z(101) = 1.99, a quantization step.
		{"mad zero, steps", []float64{100, 101, 100, 101, 100}, 0, []bool{false, false, false, false, false}},
		{"all equal", []float64{7, 7, 7}, 0, []bool{false, false, false}},
		{"nan", []float64{10, math.NaN(), 11, 12, 13, 30}, 0, []bool{false, false, false, false, false, true}},
		{"empty", nil, 0, []bool{}},
	}
	for _, tt := range tests {
		if got := Outliers(tt.in, tt.threshold); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Outliers(%v, %v) = %v, want %v", tt.name, tt.in, tt.threshold, got, tt.want)
		}
	}
}
