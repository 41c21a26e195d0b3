package stats

import (
	"math"
	"testing"
)

func TestCIWidth(t *testing.T) {
	if w := CIWidth(Comparison{Lo: 0.99, Hi: 1.03}); !near(w, 0.04) {
		t.Errorf("width %v, want 0.04", w)
	}
	if w := CIWidth(Comparison{Lo: math.NaN(), Hi: math.NaN()}); !math.IsInf(w, 1) {
		t.Errorf("undefined width %v, want +Inf", w)
	}
}

func TestNarrow(t *testing.T) {
	a := Comparison{Lo: 0.99, Hi: 1.01}  // 0.02
	b := Comparison{Lo: 1.02, Hi: 1.045} // 0.025
	u := Comparison{Lo: math.NaN(), Hi: math.NaN()}
	tests := []struct {
		cs     []Comparison
		target float64
		want   bool
	}{
		{[]Comparison{a, b}, 0.03, true},
		{[]Comparison{a, b}, 0.024, false},
		{[]Comparison{{Lo: 0.5, Hi: 0.75}}, 0.25, false}, // equal is not narrower
		{[]Comparison{{Lo: 0.5, Hi: 0.75}}, 0.2501, true},
		{[]Comparison{a, u}, 1, false},
		{nil, 1, false},
	}
	for i, tt := range tests {
		if got := Narrow(tt.cs, tt.target); got != tt.want {
			t.Errorf("%d: Narrow(%v) = %v, want %v", i, tt.target, got, tt.want)
		}
	}
}
