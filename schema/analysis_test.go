package schema

import (
	"math"
	"testing"
)

// Spread is the interquartile range over the median: the summary of
// {100, 101, 99, 100, 150} (an outlier at 150) has a spread of 1% while
// its CV is over 20%.
func TestSpread(t *testing.T) {
	s := Summary{N: 5, Median: 100, MAD: 1, Q1: 100, Q3: 101, Min: 99, Max: 150, Mean: 110, StdDev: math.Sqrt(500.5), CV: math.Sqrt(500.5) / 110}
	if math.Abs(s.Spread()-0.01) > 1e-12 {
		t.Errorf("spread = %v, want 0.01", s.Spread())
	}
	if (Summary{Q1: 1, Q3: 2}).Spread() != 0 {
		t.Error("a median of 0 has a spread")
	}
}
