package recorder

import (
	"slices"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// robust-12 states the rounds run, the cooldowns slept and a negative
// control's counter expectation as they were (schema.RuleRobust12);
// robust-11's records keep their words.
func TestStatementsAsRun(t *testing.T) {
	arms := []schema.ArmInfo{{Name: "classic"}, {Name: "control", Control: true}, {Name: "draft"}}
	rounds := func(n int, last ...string) []schema.Run {
		var runs []schema.Run
		for r := 1; r <= n; r++ {
			for _, a := range arms {
				if r < n || len(last) == 0 || slices.Contains(last, a.Name) {
					runs = append(runs, schema.Run{Seq: len(runs) + 1, Round: r, Arm: a.Name})
				}
			}
		}
		return runs
	}
	rec := &schema.Record{
		Method:   schema.Method{Rounds: 5, RoundsRun: 10},
		Scenario: schema.ScenarioInfo{Baseline: "classic", Arms: arms},
		Runs:     rounds(10),
	}
	writer := func(rule schema.Rule) *mdWriter { return &mdWriter{b: new(strings.Builder), st: styleOf(rule, true)} }
	for _, tc := range []struct {
		rule      schema.Rule
		min, plan int
		runs      []schema.Run
		want      string
	}{
		{schema.RuleRobust11, 5, 10, rounds(10), "5 rounds × 3 arms"},
		{schema.RuleRobust12, 5, 10, rounds(10), "10 rounds × 3 arms run (the schedule's minimum: 5 rounds)"},
		{schema.RuleRobust12, 5, 5, rounds(5), "5 rounds × 3 arms"},
		// A fixed schedule of 5 interrupted in its third round.
		{schema.RuleRobust11, 5, 5, rounds(3, "classic"), "5 rounds × 3 arms"},
		{schema.RuleRobust12, 5, 5, rounds(3, "classic"), "3 rounds × 3 arms run, the last in part (the schedule's minimum: 5 rounds; 5 planned when it stopped)"},
		// A sequential schedule grown to 10 rounds, stopped in its eighth.
		{schema.RuleRobust12, 5, 10, rounds(8, "classic", "draft"), "8 rounds × 3 arms run, the last in part (the schedule's minimum: 5 rounds; 10 planned when it stopped)"},
	} {
		r := *rec
		r.Method.Rounds, r.Method.RoundsRun, r.Runs = tc.min, tc.plan, tc.runs
		if got := writer(tc.rule).roundsLine(&r); got != tc.want {
			t.Errorf("%s, %d runs: %q, want %q", tc.rule, len(tc.runs), got, tc.want)
		}
	}

	// Three runs after the first: a cooldown of 2s each, and the quiet
	// gate held the second 7s more; the third is the first after a
	// resume (no run's end before it in its process).
	runs := []schema.Run{{Seq: 1, Phases: &schema.Phases{}},
		{Seq: 2, CooldownS: 2.1, Phases: &schema.Phases{CooldownS: 2}},
		{Seq: 3, CooldownS: 9.1, Phases: &schema.Phases{CooldownS: 2, QuietS: 7}},
		{Seq: 4, Phases: &schema.Phases{}}}
	m := writer(schema.RuleRobust12)
	m.cooldowns(runs)
	got := m.b.String()
	for _, want := range []string{"Cooldowns slept: 2, from 2.00s to 2.00s (median 2.00s)", "from a run's end to the next's start", "2.10s to 9.10s (median 5.60s)"} {
		if !strings.Contains(got, want) {
			t.Errorf("cooldowns: %q lacks %q", got, want)
		}
	}
	// A retried first slot (attempt 2) follows the failed attempt's end.
	retried := []schema.Run{{Seq: 1, Phases: &schema.Phases{}}, {Seq: 1, Attempt: 2, CooldownS: 3, Phases: &schema.Phases{CooldownS: 3}}}
	m = writer(schema.RuleRobust12)
	m.cooldowns(retried)
	if got := m.b.String(); !strings.Contains(got, "Cooldowns slept: 1, from 3.00s") {
		t.Errorf("a retried first slot's cooldown: %q", got)
	}
	runs[2].Phases = nil // a run whose phases were not timed (an older journal's)
	m = writer(schema.RuleRobust12)
	m.cooldowns(runs)
	if got := m.b.String(); !strings.Contains(got, "Cooldowns were not timed apart") || strings.Contains(got, "slept") {
		t.Errorf("untimed cooldowns: %q", got)
	}
	if c := cooldownColumn(false); c.head != "Cooldown before" {
		t.Errorf("robust-11's raw column %q", c.head)
	}
	if c := cooldownColumn(true); c.head != "Since the last run's end" || c.cell(runRow{Run: runs[3]}) != "—" || c.cell(runRow{Run: runs[2]}) != "9.10s" {
		t.Errorf("robust-12's raw column %q: %q, %q", c.head, c.cell(runRow{Run: runs[3]}), c.cell(runRow{Run: runs[2]}))
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
