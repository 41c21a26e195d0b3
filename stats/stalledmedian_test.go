package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Two arms: a baseline stalled (40% slow) in six rounds of ten, the test
// arm (no different) stalled by half in two of the four rounds where the
// baseline ran well: the comparison by round takes the baseline's stall for its
// level, its good rounds split between the sides' far counts, and under
// the current rule (robust-6) it claims the arm about 67% faster when the
// spread gate is off. With the default gates (max_spread 4%), and with
// the shipped scenarios' 50%, the baseline's spread (65%) makes the
// campaign INCONCLUSIVE: the gate is what refuses a stalled median
// (docs/reference/statistics.md, "A stalled median").
func TestSpreadGateRefusesAStalledBaseline(t *testing.T) {
	const rounds = 10
	stalled := func(rng *rand.Rand, arm string, center, pos float64) float64 {
		r := int(pos*2*rounds+0.5)/2 + 1
		v := center * math.Exp(0.005*rng.NormFloat64())
		switch {
		case arm == "base" && (r <= 3 || r == 5 || r == 6 || r == 8):
			v *= 0.6
		case arm == "test" && r >= 9:
			v *= 0.5
		}
		return v
	}
	// The simulations' policy (spread gate off) without its control arm,
	// and with the spread gate at the default and at the shipped 50%.
	policy := func(maxSpread float64) scenarios.Policy {
		p := simPolicy(t, rounds, "")
		p.Arms = []scenarios.ArmPolicy{p.Arms[0], p.Arms[2]}
		p.Gates.MaxSpread = maxSpread
		return p
	}
	off, gp, shipped := policy(0), policy(scenarios.DefaultMaxSpread), policy(0.5)
	for _, c := range []struct {
		name   string
		policy scenarios.Policy
		want   schema.Verdict
	}{{"spread gate off", off, schema.Valid}, {"default gates", gp, schema.Inconclusive}, {"max_spread 50%, as the shipped scenarios", shipped, schema.Inconclusive}} {
		spec := campaignSpec{policy: c.policy, rule: schema.RuleRobust6, valueAt: stalled}
		a := analysis.Analyze(simInput(t, spec, 7))
		var test schema.Comparison
		for _, v := range a.ArmVerdicts {
			if v.Arm == "test" {
				test = v.Comparison
			}
		}
		noisy := false
		for _, r := range a.Reasons {
			if n, ok := r.(schema.TooNoisy); ok && n.Arm == "base" {
				noisy = true
			}
		}
		t.Logf("%s: %s, test arm %.3f [%.3f, %.3f], reasons %v", c.name, a.Verdict, test.Ratio, test.Lo, test.Hi, a.Reasons)
		if a.Verdict != c.want {
			t.Errorf("%s: verdict %s, want %s", c.name, a.Verdict, c.want)
		}
		if c.want == schema.Valid && !(test.Significant && test.Ratio > 1.5) {
			t.Errorf("%s: the limitation no longer shows (ratio %.3f, significant %v): update the reference's \"A stalled median\"", c.name, test.Ratio, test.Significant)
		}
		if c.want == schema.Inconclusive && !noisy {
			t.Errorf("%s: INCONCLUSIVE without the baseline's spread among the reasons: %v", c.name, a.Reasons)
		}
	}
}
