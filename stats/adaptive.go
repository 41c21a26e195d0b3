package stats

import "math"

// CIWidth is the width Hi−Lo of c's ratio interval. The ratio is already
// relative to the baseline, so 0.02 means the interval spans 2% of the
// baseline's median whatever the metric's unit, and one target serves all
// metrics. An undefined interval is infinitely wide, so adaptive
// repetition never stops on it.
func CIWidth(c Result) float64 {
	w := c.Hi - c.Lo
	if math.IsNaN(w) {
		return math.Inf(1)
	}
	return w
}
