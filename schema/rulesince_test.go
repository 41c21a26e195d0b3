package schema

import "testing"

// Every rule made current has the date it came, later than the one
// before's; today's rule among them, so that a rule made current without
// its date fails here, not in the records check cannot bound.
func TestRuleSinceHoldsEveryRuleInOrder(t *testing.T) {
	if _, ok := RuleSince(RuleCurrent); !ok {
		t.Fatalf("today's rule %s has no date", RuleCurrent)
	}
	if n, ok := RuleOrder(RuleCurrent); !ok || n != len(ruleSince) {
		t.Errorf("today's rule is %d of %d", n, len(ruleSince))
	}
	for i := 1; i < len(ruleSince); i++ {
		if !ruleSince[i].since.After(ruleSince[i-1].since) {
			t.Errorf("%s came %v, not after %s (%v)", ruleSince[i].rule, ruleSince[i].since, ruleSince[i-1].rule, ruleSince[i-1].since)
		}
	}
	if _, ok := RuleSince(RuleMedianU); ok {
		t.Error("the first rule has a date")
	}
	if _, ok := RuleOrder("robust-7"); ok {
		t.Error("the withdrawn robust-7 is in the sequence")
	}
}
