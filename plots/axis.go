package plots

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
)

// ticker is the default tick placement with more major ticks than gonum's
// default (which aims at three), so values can be read off the y axis.
type ticker struct{}

func (ticker) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	step := niceStep((max - min) / 5)
	var ticks []plot.Tick
	prec := -int(math.Floor(math.Log10(step)))
	if prec < 0 {
		prec = 0
	}
	first := math.Ceil(min/step) * step
	for v := first; v <= max+step*1e-9; v += step {
		if math.Abs(v) < step*1e-9 {
			v = 0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: fmt.Sprintf("%.*f", prec, v)})
	}
	// minor ticks halfway.
	for v := first - step/2; v <= max; v += step {
		if v >= min {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

func niceStep(raw float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// padRange widens [lo, hi] by frac on both sides (and makes a degenerate
// range non-empty).
func padRange(lo, hi, frac float64) (float64, float64) {
	if hi < lo {
		lo, hi = hi, lo
	}
	d := hi - lo
	if d == 0 {
		d = math.Abs(hi) * 0.1
		if d == 0 {
			d = 1
		}
		return lo - d, hi + d
	}
	return lo - d*frac, hi + d*frac
}
