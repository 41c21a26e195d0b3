package recorder

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// robust-12 states the rounds run, the cooldowns slept and a negative
// control's counter expectation as they were (schema.RuleRobust12);
// robust-11's records keep their words.
func TestStatementsAsRun(t *testing.T) {
	rec := &schema.Record{
		Method: schema.Method{Rounds: 5, RoundsRun: 10},
		Scenario: schema.ScenarioInfo{Baseline: "classic", Arms: []schema.ArmInfo{
			{Name: "classic"}, {Name: "control", Control: true}, {Name: "draft"}}},
	}
	writer := func(rule schema.Rule) *mdWriter { return &mdWriter{b: new(strings.Builder), st: styleOf(rule, true)} }
	for rule, want := range map[schema.Rule]string{
		schema.RuleRobust11: "5 rounds × 3 arms",
		schema.RuleRobust12: "10 rounds × 3 arms run (the schedule's minimum: 5 rounds)",
	} {
		if got := writer(rule).roundsLine(rec); got != want {
			t.Errorf("%s: %q, want %q", rule, got, want)
		}
	}
	fixed := *rec
	fixed.Method.RoundsRun = 5
	if got := writer(schema.RuleRobust12).roundsLine(&fixed); got != "5 rounds × 3 arms" {
		t.Errorf("a schedule that ran its rounds: %q", got)
	}

	// Two runs after the first: a cooldown of 2s each, and the quiet gate
	// held the second 7s more.
	runs := []schema.Run{{Seq: 1, Phases: &schema.Phases{}},
		{Seq: 2, CooldownS: 2.1, Phases: &schema.Phases{CooldownS: 2}},
		{Seq: 3, CooldownS: 9.1, Phases: &schema.Phases{CooldownS: 2, QuietS: 7}}}
	_, between := runOrder(runs)
	m := writer(schema.RuleRobust12)
	m.cooldowns(runs, between)
	got := m.b.String()
	for _, want := range []string{"Cooldowns slept: 2, from 2.00s to 2.00s (median 2.00s)", "from a run's end to the next's start", "2.10s to 9.10s (median 5.60s)"} {
		if !strings.Contains(got, want) {
			t.Errorf("cooldowns: %q lacks %q", got, want)
		}
	}
	runs[2].Phases = nil // a run whose phases were not timed (an older journal's)
	m = writer(schema.RuleRobust12)
	m.cooldowns(runs, between)
	if got := m.b.String(); !strings.Contains(got, "Cooldowns were not timed apart") || strings.Contains(got, "slept") {
		t.Errorf("untimed cooldowns: %q", got)
	}

	c := schema.CounterSpec{Name: "drafts", Expect: map[string]string{"classic": "== 0", "draft": "> 0"}}
	if got := writer(schema.RuleRobust11).expected(rec, c)["control"]; got != "" {
		t.Errorf("robust-11 states the control's expectation %q", got)
	}
	ex := writer(schema.RuleRobust12).expected(rec, c)
	if ex["control"] != "== 0 (the baseline's)" || ex["draft"] != "> 0" || len(c.Expect) != 2 {
		t.Errorf("robust-12 expectations %v (the spec's now %v)", ex, c.Expect)
	}
	c.Expect["control"] = "== 0"
	if got := writer(schema.RuleRobust12).expected(rec, c)["control"]; got != "== 0" {
		t.Errorf("a control's own expectation is stated %q", got)
	}
}
