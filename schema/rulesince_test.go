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

// RuleAt knows the commits that changed the current rule, by any prefix
// of seven hex digits or more, and no other.
func TestRuleAtKnowsTheRulesCommits(t *testing.T) {
	for commit, want := range map[string]Rule{"1db22a396e": RuleRobust6, "a0419f7": RuleRobust5, "295ebe3": RuleRobust10, "0673c1b12345": RuleRobust6} {
		if got, ok := RuleAt(commit); !ok || got != want {
			t.Errorf("RuleAt(%s) = %q %v, want %q", commit, got, ok, want)
		}
	}
	for _, commit := range []string{"1db22a", "8352439", "", "unknown"} {
		if got, ok := RuleAt(commit); ok {
			t.Errorf("RuleAt(%q) = %q", commit, got)
		}
	}
}
