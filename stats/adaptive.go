package stats

import "math"

// CIWidth is the width Hi−Lo of c's ratio interval. The ratio is already
// relative to the baseline, so 0.02 means the interval spans 2% of the
// baseline's median whatever the metric's unit, and one target serves all
// metrics. An undefined interval is infinitely wide, so adaptive
// repetition never stops on it.
func CIWidth(c Comparison) float64 {
	w := c.Hi - c.Lo
	if math.IsNaN(w) {
		return math.Inf(1)
	}
	return w
}

// Narrow reports whether every comparison's interval is narrower than
// target: the condition on which adaptive repetition stops adding rounds.
// It is false for no comparisons, since nothing has been measured yet.
func Narrow(cs []Comparison, target float64) bool {
	if len(cs) == 0 {
		return false
	}
	for _, c := range cs {
		if !(CIWidth(c) < target) {
			return false
		}
	}
	return true
}
