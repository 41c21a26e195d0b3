package stats

import (
	"fmt"
	"math"
	"strconv"
)

// Sentence states a Comparison in plain words, e.g.
//
//	faster by 6.1% [3.9%, 8.2%], p=0.008
//	slower by 4.0% [2.1%, 6.3%], p=0.016
//	no significant difference (~): -0.4% [-1.9%, +1.2%], p=0.55
//
// The percent is oriented so that positive means better: Ratio−1 when
// higherIsBetter (tokens/s), 1−Ratio otherwise (latency, wall time), so
// that "faster" always means the arm improved the metric. The interval is
// shown in the orientation of the percent beside it, low to high. The "~"
// is benchstat's mark for "no difference", for readers who know it.
func Sentence(c Comparison, higherIsBetter bool) string {
	p := formatP(c.P)
	if math.IsNaN(c.Ratio) {
		return "no comparison: ratio undefined, " + p
	}
	pct, lo, hi := c.Ratio-1, c.Lo-1, c.Hi-1
	if !higherIsBetter {
		pct, lo, hi = 1-c.Ratio, 1-c.Hi, 1-c.Lo
	}
	switch {
	case c.Significant && pct > 0:
		return fmt.Sprintf("faster by %s%s, %s", pct1(pct, false), interval(lo, hi, false), p)
	case c.Significant && pct < 0:
		return fmt.Sprintf("slower by %s%s, %s", pct1(-pct, false), interval(-hi, -lo, false), p)
	default:
		return fmt.Sprintf("no significant difference (~): %s%s, %s", pct1(pct, true), interval(lo, hi, true), p)
	}
}

// pct1 formats a fraction as a percent with one decimal, with an explicit
// sign when signed (the "~" case, where the direction is not a claim).
func pct1(f float64, signed bool) string {
	if signed {
		return fmt.Sprintf("%+.1f%%", 100*f)
	}
	return fmt.Sprintf("%.1f%%", 100*f)
}

// interval formats " [lo, hi]", or nothing when the interval is undefined.
func interval(lo, hi float64, signed bool) string {
	if math.IsNaN(lo) || math.IsNaN(hi) {
		return ""
	}
	return " [" + pct1(lo, signed) + ", " + pct1(hi, signed) + "]"
}

// formatP writes a p-value with two significant digits (p=0.008, p=0.55),
// and as p<0.001 below 0.001, where more digits would suggest a precision
// the test does not have.
func formatP(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return "p=" + strconv.FormatFloat(p, 'g', 2, 64)
}

// SeparatesFromNoise reports whether arm's ratio interval does not overlap
// control's. The control is a negative-control arm, identical to the
// baseline, so its interval shows how far the method wanders when nothing
// changed: an arm whose interval stays clear of it is distinguishable from
// that noise floor. Undefined intervals never separate.
func SeparatesFromNoise(arm, control Comparison) bool {
	for _, x := range []float64{arm.Lo, arm.Hi, control.Lo, control.Hi} {
		if math.IsNaN(x) {
			return false
		}
	}
	return arm.Lo > control.Hi || arm.Hi < control.Lo
}
