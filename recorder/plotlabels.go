package recorder

import (
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// MetricName is a metric's readable name for figures ("decode rate" for
// decode_tok_s); a scenario's own metric keeps the name it was given.
func MetricName(metric string) string {
	if l := schema.MetricOf(metric).Label; l != "" {
		return l
	}
	return metric
}

// ShortVerdict is an arm's primary verdict in a few words, for a figure's
// annotation: the change new/old − 1 on the metric's own scale, its
// interval, and what the record's sentence concludes, e.g.
//
//	+6.1% faster [+3.9%, +8.2%]
//	+3.0% [-0.5%, +8.0%] ~
//	+3.0% [-0.5%, +8.0%] inconclusive
//	+0.4% [-1.1%, +2.0%] ~ control
//	+9.0% slower [+4.0%, +14.0%] control DIFFERS
//	no comparison
//
// The numbers are those of the record's sentence (ArmVerdictText), cut to
// what fits under a box.
func ShortVerdict(v schema.ArmVerdict, higherIsBetter bool, unit string) string {
	c := v.Comparison
	if !c.Defined() {
		return "no comparison"
	}
	change := pct.Signed(c.Ratio-1, 1)
	ci := interval(c.Lo-1, c.Hi-1, true, !c.HasInterval())
	var s string
	switch {
	case c.Significant:
		s = change + " " + senseOfUnit(higherIsBetter, unit).word(c.Ratio) + ci
	case c.Disagreement == schema.PWithoutCI || c.Disagreement == schema.CIWithoutP:
		s = change + ci + " inconclusive"
	case c.Disagreement == schema.TooSmallDiff:
		s = change + ci + " ~ (too small)"
	default:
		s = change + ci + " ~"
	}
	switch {
	case v.Control && c.Significant:
		s += " control DIFFERS"
	case v.Control:
		s += " control"
	case v.ControlArm != "" && v.VsControl != nil && c.Significant && !v.SeparatesFromNoise:
		s += " within noise"
	}
	return s
}
