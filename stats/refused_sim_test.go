package stats_test

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// On the audit's host that stalls one run in four (40% slow), ten fixed
// rounds: robust-8's refused comparisons state intervals that hold the
// true ratio as a 95% interval should, where robust-6's t intervals of
// every round did not, and never narrower ones; every campaign's verdict,
// claim and MDE are the same under both rules (seeded, through
// harness.Plan and analysis.Analyze).
func TestRefusedIntervalsCoverOnAStallingHost(t *testing.T) {
	var m *hostModel
	for i := range auditModels {
		if strings.Contains(auditModels[i].name, "frequent large stalls") {
			m = &auditModels[i]
		}
	}
	if m == nil {
		t.Fatal("no frequent-stall host among the audit's models")
	}
	const campaigns = 1200
	const truth = 1.05
	policy := simPolicy(t, 10, "")
	refused := func(a analysis.Analysis) bool {
		for _, r := range a.Reasons {
			if s, ok := r.(schema.TooManyStalls); ok && s.Arm == "test" {
				return true
			}
		}
		return false
	}
	var n, held6, held8 int
	for i := range campaigns {
		seed := 8800*100000 + uint64(i)
		spec := campaignSpec{policy: policy, host: m.h, model: m, effects: map[string]float64{"test": truth}}
		spec.rule = schema.RuleRobust6
		a6 := simulate(t, spec, seed)
		spec.rule = schema.RuleRobust8
		a8 := simulate(t, spec, seed)
		o6, o8 := outcomeOf(a6, truth), outcomeOf(a8, truth)
		if o6.verdict != o8.verdict || o6.claim != o8.claim || o6.mde != o8.mde {
			t.Fatalf("campaign %d: robust-6 %s claim %v MDE %v, robust-8 %s claim %v MDE %v", i, o6.verdict, o6.claim, o6.mde, o8.verdict, o8.claim, o8.mde)
		}
		if refused(a6) != refused(a8) {
			t.Fatalf("campaign %d: refused under one rule only", i)
		}
		if !refused(a8) {
			continue
		}
		c6, c8 := testComparison(a6), testComparison(a8)
		if c8.Lo > c6.Lo || c8.Hi < c6.Hi || c8.P < c6.P || c8.Ratio != c6.Ratio {
			t.Fatalf("campaign %d: robust-8 states %.3f [%.3f, %.3f] p %.4f against robust-6's %.3f [%.3f, %.3f] p %.4f", i, c8.Ratio, c8.Lo, c8.Hi, c8.P, c6.Ratio, c6.Lo, c6.Hi, c6.P)
		}
		n++
		if o6.covered {
			held6++
		}
		if o8.covered {
			held8++
		}
	}
	c6, c8 := float64(held6)/float64(n), float64(held8)/float64(n)
	t.Logf("%d of %d campaigns refused; their intervals held +5%%: robust-6 %.1f%%, robust-8 %.1f%%", n, campaigns, 100*c6, 100*c8)
	if n < 100 {
		t.Fatalf("only %d refused comparisons: the host no longer stalls enough to test this", n)
	}
	if c8 < 0.93 || c6 > c8-0.03 {
		t.Errorf("refused intervals held +5%%: robust-6 %.1f%%, robust-8 %.1f%%; want robust-8 at least 93%% and 3 points above robust-6", 100*c6, 100*c8)
	}
}

func testComparison(a analysis.Analysis) schema.Comparison {
	for _, v := range a.ArmVerdicts {
		if v.Arm == "test" {
			return v.Comparison
		}
	}
	return schema.Comparison{}
}
