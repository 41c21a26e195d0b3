package analysis

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A baseline stalled (40% slow) in six rounds of ten, the arm (its true
// ratio 1) stalled by half in two of the four rounds where the baseline
// ran well: under robust-6 the six stalled rounds were compared and the
// arm claimed VALID 67% faster; under robust-7 the verdict is
// INCONCLUSIVE, the baseline's median named as stalled.
func TestStalledBaselineMedianRefused(t *testing.T) {
	p := policy("a", "b")
	value := func(a string, r int) float64 {
		v := 100 * (1 + wobble[r%len(wobble)]/100)
		switch {
		case a == "a" && (r <= 3 || r == 5 || r == 6 || r == 8):
			v *= 0.6
		case a == "b" && r >= 9:
			v *= 0.5
		}
		return v
	}
	in := campaign(p, 10, value, honest)
	for _, c := range []struct {
		rule schema.Rule
		want schema.Verdict
	}{{schema.RuleRobust6, schema.Valid}, {schema.RuleRobust7, schema.Inconclusive}} {
		rule, err := RuleOf(c.rule)
		if err != nil {
			t.Fatal(err)
		}
		in.Campaign.Rule = rule
		a := Analyze(in)
		var refused *schema.TooManyStalls
		for _, r := range a.Reasons {
			if s, ok := r.(schema.TooManyStalls); ok {
				refused = &s
			}
		}
		cmp := a.ArmVerdicts[0].Comparison
		t.Logf("%s: %s, ratio %.3f, significant %v, reasons %v", c.rule, a.Verdict, cmp.Ratio, cmp.Significant, a.Reasons)
		if a.Verdict != c.want {
			t.Errorf("%s: verdict %s, want %s", c.rule, a.Verdict, c.want)
		}
		if c.rule == schema.RuleRobust7 && (refused == nil || refused.Median != "reference" || refused.Arm != "b" || refused.Fast != 4 || cmp.Significant) {
			t.Errorf("%s: reason %+v, significant %v; want the reference's median named as stalled", c.rule, refused, cmp.Significant)
		}
	}
}
