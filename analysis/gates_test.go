package analysis

import (
	"math"
	"testing"
)

func TestMinP(t *testing.T) {
	tests := []struct {
		n1, n2 int
		want   float64
	}{
		{3, 3, 0.1},       // 2/20
		{4, 4, 2.0 / 70},  // 0.0286
		{5, 5, 2.0 / 252}, // 0.0079
		{2, 3, 0.2},       // 2/10
		{0, 5, 1},
	}
	for _, tt := range tests {
		if got := MinP(tt.n1, tt.n2); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("MinP(%d, %d) = %v, want %v", tt.n1, tt.n2, got, tt.want)
		}
	}
}
