package analysis

import (
	"math"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
	"gonum.org/v1/gonum/stat/distuv"
)

// ControlTest is how a rule judges a negative control (an arm that runs
// the baseline's code as if it were a change) and what it makes of a test
// arm's comparison with it.
type ControlTest interface {
	// power is the power a test arm's MDE is stated at, control the
	// control's comparison with the baseline (called only when the
	// campaign has a control).
	power(control func() stats.Robust, alpha, minEffect float64) float64
	// judge fills a control's verdict from its comparison r with the
	// baseline, and says whether the control differs from it: the method
	// then finds differences where there are none.
	judge(v *schema.ArmVerdict, r stats.Robust, alpha, minEffect float64) (differs bool)
	// vsControl is a test arm's comparison with the control as stored, cc
	// as the rule's comparison stores it and arm the arm's own.
	vsControl(cc schema.Comparison, vc stats.Robust, arm schema.Comparison) schema.Comparison
	// separates says whether a test arm separates from the noise the
	// control shows, arm its final (Holm-adjusted) comparison.
	separates(arm, vs schema.Comparison, vc stats.Robust) bool
	// vsLevel is the level a test arm's comparison with the control is
	// judged at, armLevel the level the arm itself was judged at and
	// alpha the look's.
	vsLevel(armLevel, alpha float64) float64
}

// SignificantControl judges a control by its own significance at alpha: a
// significant control differs; a test arm separates from noise when its
// comparison with the control is significant in the direction of its
// change.
type SignificantControl struct{}

func (SignificantControl) power(func() stats.Robust, float64, float64) float64 { return MDEPower }

func (SignificantControl) judge(v *schema.ArmVerdict, _ stats.Robust, _, _ float64) bool {
	return v.Comparison.Significant
}

func (SignificantControl) vsControl(cc schema.Comparison, vc stats.Robust, arm schema.Comparison) schema.Comparison {
	cc.Significant = vc.Significant && (vc.Ratio > 1) == (arm.Ratio > 1)
	return cc
}

func (SignificantControl) separates(_, vs schema.Comparison, _ stats.Robust) bool {
	return vs.Significant
}

func (SignificantControl) vsLevel(_, alpha float64) float64 { return alpha }

// EquivalentControl judges a control by an equivalence test within a
// margin of Margin × min_effect (two one-sided tests at alpha), and
// vetoes only an artefact it shows to exceed the margin: a
// non-significant control proves nothing, and a significant one within the
// margin cannot fake a change that counts. A test arm separates from noise
// when it is itself significant and differs from the control in the same
// direction. The MDE's power makes up for the chance that the control's
// own noise vetoes.
type EquivalentControl struct {
	Margin float64
	// AtArmLevel (rule robust-15) judges a test arm's comparison with the
	// control at the level the arm was judged at (Holm's step, a look's
	// boundary), not at the whole alpha: "separates from noise" at 5%
	// stood beside an arm judged at 2.5%.
	AtArmLevel bool
}

// EquivalenceMargin is the margin within which the robust rules call a
// negative control equivalent to the baseline, as a multiple of
// min_effect (2% at the default 1%): a control artefact smaller than
// twice the smallest change that counts cannot fake a change that counts
// once the control shows it absent.
const EquivalenceMargin = 2

func (e EquivalentControl) power(control func() stats.Robust, alpha, minEffect float64) float64 {
	return math.Min(0.99, MDEPower/(1-vetoChance(control(), alpha, e.Margin*minEffect)))
}

func (e EquivalentControl) judge(v *schema.ArmVerdict, r stats.Robust, alpha, minEffect float64) bool {
	v.EquivalenceMargin = e.Margin * minEffect
	v.Equivalent = equivalent(r, alpha, v.EquivalenceMargin)
	v.Comparison.Significant = v.Comparison.Significant && beyond(r, alpha, v.EquivalenceMargin)
	return v.Comparison.Significant
}

func (EquivalentControl) vsControl(cc schema.Comparison, _ stats.Robust, _ schema.Comparison) schema.Comparison {
	return cc
}

func (EquivalentControl) separates(arm, _ schema.Comparison, vc stats.Robust) bool {
	return arm.Significant && vc.Significant && (vc.Ratio > 1) == (arm.Ratio > 1)
}

func (e EquivalentControl) vsLevel(armLevel, alpha float64) float64 {
	if e.AtArmLevel && armLevel > 0 {
		return armLevel
	}
	return alpha
}

// equivalent is the two one-sided tests at alpha: the interval of the
// log ratio at 1 − 2·alpha lies within ±log(1+margin).
func equivalent(r stats.Robust, alpha, margin float64) bool {
	if math.IsNaN(r.SE) || r.DF < 1 || margin <= 0 {
		return false
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}.Quantile(1 - alpha)
	return math.Abs(r.Delta)+q*r.SE < math.Log1p(margin)
}

// beyond is the one-sided test at alpha that the log ratio exceeds
// ±log(1+margin): the control shows an artefact larger than the margin.
func beyond(r stats.Robust, alpha, margin float64) bool {
	if math.IsNaN(r.SE) || r.DF < 1 {
		return false
	}
	if r.SE == 0 {
		return math.Abs(r.Delta) > math.Log1p(margin)
	}
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}.Quantile(1 - alpha)
	return math.Abs(r.Delta)-q*r.SE > math.Log1p(margin)
}

// vetoChance is the chance that beyond fires for a control with no
// artefact at all, at the control comparison's standard error: the share
// of campaigns its noise alone makes INCONCLUSIVE.
func vetoChance(r stats.Robust, alpha, margin float64) float64 {
	if math.IsNaN(r.SE) || r.SE <= 0 || r.DF < 1 {
		return 0
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}
	return 2 * t.Survival(t.Quantile(1-alpha)+math.Log1p(margin)/r.SE)
}
