package stats

import (
	"math"
	"testing"
)

func TestCIWidth(t *testing.T) {
	if w := CIWidth(Result{Lo: 0.99, Hi: 1.03}); !near(w, 0.04) {
		t.Errorf("width %v, want 0.04", w)
	}
	if w := CIWidth(Result{Lo: math.NaN(), Hi: math.NaN()}); !math.IsInf(w, 1) {
		t.Errorf("undefined width %v, want +Inf", w)
	}
}
