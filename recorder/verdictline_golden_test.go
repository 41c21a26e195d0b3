package recorder

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// verdictLineCases are arm verdicts of every shape a record holds: a test
// arm significant or not, beside a control or pooled with it, a control
// that differs, is equivalent or neither, with and without an MDE.
func verdictLineCases(robust bool) []schema.ArmVerdict {
	c := func(ratio, p float64, sig bool) schema.Comparison {
		return schema.Comparison{Ratio: ratio, Lo: ratio - 0.02, Hi: ratio + 0.02, Confidence: 0.95, P: p, Significant: sig, N1: 10, N2: 10, Robust: robust}
	}
	vs := c(1.05, 0.01, true)
	vsNo := c(1.01, 0.4, false)
	out := []schema.ArmVerdict{
		{Arm: "draft", Comparison: c(1.08, 0.001, true), MDE: 0.03, MDEDown: 0.029, MDEAlpha: 0.05},
		{Arm: "draft", Comparison: c(0.93, 0.002, true), MDE: 0.03, MDEAlpha: 0.025},
		{Arm: "draft", Comparison: c(1.01, 0.4, false), MDE: 0.031, MDEDown: 0.03, MDEAlpha: 0.05},
		{Arm: "draft", Comparison: c(1.08, 0.001, true), ControlArm: "same", VsControl: &vs, SeparatesFromNoise: true, MDE: 0.03, MDEDown: 0.029, MDEAlpha: 0.05},
		{Arm: "draft", Comparison: c(1.01, 0.4, false), ControlArm: "same", VsControl: &vsNo, MDE: 0.03, MDEDown: 0.029, MDEAlpha: 0.05},
		{Arm: "draft", Comparison: c(1.08, 0.001, true), Pooled: []string{"same", "other"}, ControlArm: "same", VsControl: &vsNo, MDEAlpha: 0.05},
		{Arm: "same", Control: true, Comparison: c(1.04, 0.001, true), EquivalenceMargin: 0.02, MDE: 0.02, MDEDown: 0.02, MDEAlpha: 0.05},
		{Arm: "same", Control: true, Comparison: c(1.001, 0.9, false), EquivalenceMargin: 0.02, Equivalent: true, MDE: 0.02, MDEDown: 0.02, MDEAlpha: 0.05},
		{Arm: "same", Control: true, Comparison: c(1.01, 0.3, false), EquivalenceMargin: 0.02, MDEAlpha: 0.05},
		{Arm: "same", Control: true, Comparison: c(1.01, 0.3, false), MDE: 0.02, MDEAlpha: 0.05},
		{Arm: "draft", Comparison: schema.Comparison{N1: 3, Robust: robust}},
	}
	t := c(1.08, 0.001, true)
	t.Trimmed, t.AdjustedP = 2, 0.002
	out = append(out, schema.ArmVerdict{Arm: "draft", Comparison: t, MDE: 0.03, MDEDown: 0.029, MDEAlpha: 0.025})
	d := c(1.02, 0.03, false)
	d.Disagreement = schema.PWithoutCI
	out = append(out, schema.ArmVerdict{Arm: "draft", Comparison: d})
	// No comparison (an interrupted campaign's arm with no finished run),
	// with the level the MDE was sought at: no MDE sentence.
	out = append(out, schema.ArmVerdict{Arm: "draft", Comparison: schema.Comparison{Robust: robust}, MDEAlpha: 0.05})
	if !robust {
		// The first rule neither pools, trims nor tests equivalence, and
		// states one MDE for both directions.
		for i := range out {
			out[i].Pooled, out[i].Comparison.Trimmed, out[i].EquivalenceMargin, out[i].Equivalent, out[i].MDEDown = nil, 0, 0, false, 0
		}
	}
	return out
}

// Every verdict line of every rule, in the record and on the console, is
// the golden text's.
func TestVerdictLinesGolden(t *testing.T) {
	var buf bytes.Buffer
	for _, rule := range []schema.Rule{schema.RuleMedianU, schema.RuleRobust1, schema.RuleRobust2, schema.RuleRobust3, schema.RuleRobust4, schema.RuleRobust5, schema.RuleRobust6, schema.RuleRobust8, schema.RuleRobust9, schema.RuleRobust10, schema.RuleRobust11, schema.RuleRobust12, schema.RuleRobust13, schema.RuleRobust14, schema.RuleRobust15, schema.RuleRobust16, schema.RuleRobust17} {
		for i, v := range verdictLineCases(rule != schema.RuleMedianU) {
			for _, sn := range []sense{senseOfUnit(true, "tok/s"), senseOfUnit(false, "J/tok")} {
				fmt.Fprintf(&buf, "%q %d higher=%v speed=%v md: %s\n", rule, i, sn.higher, sn.speed, styleOf(rule, true).armVerdict(v, "classic", sn))
				fmt.Fprintf(&buf, "%q %d higher=%v speed=%v console: %s\n", rule, i, sn.higher, sn.speed, styleOf(rule, false).armVerdict(v, "classic", sn))
			}
		}
	}
	golden(t, filepath.Join("testdata", "verdictlines.golden.txt"), buf.Bytes())
}
