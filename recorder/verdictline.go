package recorder

import (
	"fmt"
	"math"
	"strconv"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
)

// armVerdict is an arm's verdict line: the comparison with its reference,
// what the rule's control test says, and the minimum detectable effect.
// It is worded from the verdict's fields (pooled, trimmed, equivalent,
// MDE up and down) and the kinds of the rule's parts, never its name.
func (f style) armVerdict(v schema.ArmVerdict, baseline string, sn sense) string {
	c := v.Comparison
	ref := f.code(baseline)
	for _, p := range v.Pooled {
		ref += " + " + f.code(p)
	}
	if len(v.Pooled) > 0 {
		ref += " (pooled)"
	}
	s := fmt.Sprintf("%s vs %s: %s", f.code(v.Arm), ref, f.comparisonSentence(c, sn, true))
	switch {
	case c.Trimmed > 0 && c.Blocks > 0:
		s += fmt.Sprintf(" (%d stalled round(s) of %d trimmed)", c.Trimmed, c.Blocks)
	case c.Trimmed > 0:
		s += fmt.Sprintf(" (%d stalled run(s) trimmed)", c.Trimmed)
	}
	return s + f.controlClause(v, sn) + f.mdeClause(v)
}

// controlClause says what a control's verdict means, or whether a test
// arm separates from the noise the control shows. Under an equivalence
// test the control is equivalent or not, and the comparison with it is
// shown only beside a significant arm, the only one it can veto.
func (f style) controlClause(v schema.ArmVerdict, sn sense) string {
	c := v.Comparison
	_, equivalence := f.rule.Control.(analysis.EquivalentControl)
	level := v.MDEAlpha
	if c.Level > 0 {
		level = c.Level
	}
	switch {
	case v.Control && c.Significant:
		return " — negative control DIFFERS from the baseline: the method finds a difference where none exists"
	case v.Control && !equivalence:
		return " — negative control: this is the method's noise floor"
	case v.Control && v.Equivalent:
		return fmt.Sprintf(" — negative control: equivalent to the baseline within ±%s (two one-sided tests at alpha %s)", pct.Fixed(v.EquivalenceMargin, 1), f.level(level))
	case v.Control:
		return fmt.Sprintf(" — negative control: not shown equivalent to the baseline within ±%s (two one-sided tests at alpha %s): ", pct.Fixed(v.EquivalenceMargin, 1), f.level(level)) +
			"an artefact that size cannot be ruled out"
	case v.ControlArm != "" && v.VsControl != nil && (c.Significant || !equivalence):
		word := "no"
		if v.SeparatesFromNoise {
			word = "yes"
		}
		return fmt.Sprintf("; separates from noise (vs control %s: %s): %s", f.code(v.ControlArm), f.comparisonSentence(*v.VsControl, sn, true), word)
	}
	return ""
}

// mdeClause states the minimum detectable effect: one figure for both
// directions, or an increase and a decrease when the rule's model gives
// each.
func (f style) mdeClause(v schema.ArmVerdict) string {
	at := fmt.Sprintf("at %s power (alpha %s)", pct.Exact(analysis.MDEPower), f.level(v.MDEAlpha))
	if _, one := f.rule.MDE.(analysis.NoiseMDE); one {
		if v.MDE > 0 {
			return fmt.Sprintf("; minimum detectable effect ±%s %s", pct.Fixed(v.MDE, 1), at)
		}
		return ""
	}
	if v.MDE > 0 || v.MDEDown > 0 {
		return fmt.Sprintf("; minimum detectable effect +%s (increase) / −%s (decrease) %s", pct.Fixed(v.MDE, 1), pct.Fixed(v.MDEDown, 1), at)
	}
	if analysis.SaysNoMDE(f.rule.MDE) && len(v.Pooled) == 0 && v.MDEAlpha > 0 && v.Comparison.Defined() {
		// Rules before robust-4 left an undefined MDE unsaid; their
		// records render as they were written.
		return fmt.Sprintf("; no minimum detectable effect %s: a campaign like this one does not reach that power (too few rounds compared, or refused for its stalls too often)", at)
	}
	return ""
}

// comparisonSentence states a comparison in plain words, e.g.
//
//	+6.1% faster [+3.9%, +8.2%], p=0.008
//	+33.5% slower [+20.0%, +48.1%], p=0.002   (time to first token)
//	no significant difference (~): -0.4% [-1.9%, +1.2%], p=0.55
//	inconclusive: p=0.041 but the interval [-0.5%, +8.0%] includes no change
//
// The change is new/old − 1 on the metric's own scale, with its interval
// on the same scale; "faster" or "slower" (for a speed; else "lower" or
// "higher" and whether that is better) is chosen by the metric's sense.
// Only a judged comparison (the primary metric's, corrected for the family
// of arms) gets those words: a secondary metric is described, never
// judged. The "~" is benchstat's mark for "no difference".
func (f style) comparisonSentence(c schema.Comparison, sn sense, judged bool) string {
	p := f.pText(c)
	if !c.Defined() {
		return "no comparison could be made: " + f.noComparisonWhy(c)
	}
	ci := interval(c.Lo-1, c.Hi-1, true, !c.HasInterval())
	change := pct.Signed(c.Ratio-1, 1) + ci
	if !judged {
		return "described, not judged (secondary metric): " + change + ", " + p
	}
	switch {
	case c.Significant:
		return fmt.Sprintf("%s %s%s, %s", pct.Signed(c.Ratio-1, 1), sn.word(c.Ratio), ci, p)
	case c.Disagreement == schema.PWithoutCI:
		return fmt.Sprintf("inconclusive: %s but the interval%s includes no change (%s)", p, ci, pct.Signed(c.Ratio-1, 1))
	case c.Disagreement == schema.CIWithoutP:
		return fmt.Sprintf("inconclusive: the interval%s excludes no change but %s is not significant (%s)", ci, p, pct.Signed(c.Ratio-1, 1))
	case c.Disagreement == schema.TooSmallDiff:
		return fmt.Sprintf("no difference that matters (~): %s, %s, below the minimum effect", change, p)
	}
	return "no significant difference (~): " + change + ", " + p
}

// noComparisonWhy says why a comparison has no ratio. A comparison by
// round counts rounds holding a run of both arms, not runs: under the
// rule's exact statements it says so.
func (f style) noComparisonWhy(c schema.Comparison) string {
	if _, byRound := f.rule.Comparison.(analysis.RoundBlocks); byRound && f.exact() && min(c.N1, c.N2) < 2 {
		return fmt.Sprintf("fewer than 2 rounds hold a finished run of both arms (%d do)", min(c.N1, c.N2))
	}
	switch {
	case c.N1 == 0 && c.N2 == 0:
		return "neither arm has a finished run"
	case c.N1 == 0:
		return "the baseline has no finished run"
	case c.N2 == 0:
		return "this arm has no finished run"
	}
	return "the baseline's median is 0"
}

// pText states a comparison's p-value, its test, and its Holm adjustment.
func (f style) pText(c schema.Comparison) string {
	s := formatP(c.P)
	if c.AdjustedP != 0 {
		s += ", Holm-adjusted " + formatP(c.AdjustedP)
	}
	if c.Paired {
		s += fmt.Sprintf(" (paired by round, %d rounds)", c.N1)
	}
	if c.Level != 0 {
		s += " at level " + f.level(c.Level)
	}
	return s
}

// interval is a change's interval, signed or not; nothing when it has none.
func interval(lo, hi float64, signed, none bool) string {
	if none || math.IsNaN(lo) || math.IsNaN(hi) {
		return ""
	}
	one := func(v float64) string { return pct.Fixed(v, 1) }
	if signed {
		one = func(v float64) string { return pct.Signed(v, 1) }
	}
	return " [" + one(lo) + ", " + one(hi) + "]"
}

// formatP writes a p-value with two significant digits, and as p<0.001
// below 0.001.
func formatP(p float64) string {
	if p < 0.001 {
		return "p<0.001"
	}
	return "p=" + strconv.FormatFloat(p, 'g', 2, 64)
}
