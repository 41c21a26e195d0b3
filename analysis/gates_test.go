package analysis

import (
	"math"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
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

// A relaxed gate reads as written (7%), never 7.000000000000001%; a v2
// record's analysis keeps every digit, as v2 wrote it.
func TestRelaxedGatesReadAsWritten(t *testing.T) {
	g := scenarios.GatesPolicy{MaxSpread: 0.07, MaxContended: scenarios.DefaultMaxContended, ContendedCPU: scenarios.DefaultContendedCPU}
	if got := relaxedGates(g, false); got != "max_spread 7% instead of 4%" {
		t.Errorf("relaxed gates %q", got)
	}
	if got := relaxedGates(g, true); got != "max_spread 7.000000000000001% instead of 4%" {
		t.Errorf("v2: relaxed gates %q", got)
	}
}
