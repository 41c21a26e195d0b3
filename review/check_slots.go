package review

import (
	"fmt"
	"time"

	"github.com/decodebench/decodebench/internal/termsafe"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkSlots holds every run to the slot the harness ran it in and to the
// order the run loop runs slots in. The analysis pairs runs by round and
// arm and leaves failed runs out, and took all three as runs.jsonl
// states them: an arm's label swapped between two runs (their logs
// renamed), or one arm's rounds permuted, re-paired the comparison, and a
// finished run marked failed under on_failure: abort dropped it from the
// statistics while the campaign went on.
//
// A run's arm is the plan's at its seq (scenarios.PlanOrder of the stored
// arms, order and seed, which grows a round at a time without changing
// the rounds before) and its round is (seq-1)/arms + 1 (harness.Plan). The
// runs are the run loop's (harness's afterRun, resumePoint), journaled
// in the order they ran (each starts after the one before ended): the
// first is attempt 1 of slot 1; a finished run, or a failed one under
// on_failure: continue, is followed by attempt 1 of the next slot; a
// failed attempt under abort or retry:N by the next attempt of its slot,
// at once while retries are left, else only after a resume
// (method.resumed, between the two), the campaign having stopped there.
// A last run that failed with a retry left ends only an interrupted
// campaign. A resumed campaign's first run states no cooldown (none ran
// since the run before it).
func checkSlots(s *scenarios.Scenario, rec *schema.Record) []Problem {
	arms := s.Policy.ArmNames()
	// The harness plans no more rounds than the schedule's most (its
	// resume refuses a journal past them), which the stored scenario
	// bounds (scenarios.MaxRounds).
	most := min(max(s.Schedule.Rounds.Max, s.Schedule.Rounds.Min), scenarios.MaxRounds)
	var out []Problem
	add := func(format string, args ...any) {
		out = append(out, Problem{"Raw runs", fmt.Sprintf(format, args...)})
	}
	rounds := 0
	for _, r := range rec.Runs {
		if r.Seq >= 1 && r.Seq <= most*len(arms) {
			rounds = max(rounds, (r.Seq+len(arms)-1)/len(arms))
		}
	}
	var plan []string
	if rounds > 0 {
		plan, _ = scenarios.PlanOrder(arms, rounds, s.Policy.Schedule.Order, s.Schedule.Seed)
	}
	for _, r := range rec.Runs {
		arm := termsafe.String(r.Arm)
		switch {
		case r.Seq < 1 || r.Seq > len(plan):
			add("run %d (%s) is slot %d, outside the stored schedule's %d rounds of %d arms", r.Seq, arm, r.Seq, most, len(arms))
		case r.Arm != plan[r.Seq-1]:
			add("run %d is arm %s, where the plan (order %s, seed %d) runs arm %s in slot %d: a run's arm is its slot's", r.Seq, arm, orderName(s.Policy.Schedule.Order), s.Schedule.Seed, plan[r.Seq-1], r.Seq)
		case r.Round != (r.Seq-1)/len(arms)+1:
			add("run %d (%s) is round %d, where the plan's slot %d is in round %d", r.Seq, arm, r.Round, r.Seq, (r.Seq-1)/len(arms)+1)
		default:
			continue
		}
		if len(out) == maxEvidenceProblems {
			return out
		}
	}
	return append(out, attemptsProblems(s.Policy.Failure, rec)...)
}

// attemptsProblems checks the runs' seqs and attempts against the run
// loop's order under the failure policy f, and each resume against the
// runs around it; at the first run out of order it says so and stops.
func attemptsProblems(f schema.OnFailure, rec *schema.Record) []Problem {
	policy := string(f)
	if f == "" {
		policy = string(schema.FailAbort)
	}
	var out []Problem
	add := func(format string, args ...any) {
		out = append(out, Problem{"Raw runs", fmt.Sprintf(format, args...)})
	}
	seq, attempt := 1, 1 // the slot and attempt the loop runs next
	after := "the campaign's start"
	stopped := false // the loop stopped after the run before: a resume follows
	for i, r := range rec.Runs {
		at := max(r.Attempt, 1)
		if r.Seq != seq || at != attempt {
			add("run %d (%s) is attempt %d of slot %d, where after %s the harness runs attempt %d of slot %d (on_failure: %s)", r.Seq, termsafe.String(r.Arm), at, r.Seq, after, attempt, seq, policy)
			return out
		}
		if i > 0 {
			if p := orderProblem(rec.Runs[i-1], r); p != "" {
				add("%s", p)
				return out
			}
			if p := resumeProblem(rec, rec.Runs[i-1], r, stopped, policy); p != "" {
				add("%s", p)
				return out
			}
			if p := cooldownProblem(&rec.Runs[i-1], r); p != "" {
				add("%s", p)
				return out
			}
		}
		switch {
		case r.OK():
			seq, attempt, stopped, after = r.Seq+1, 1, false, fmt.Sprintf("slot %d's finished run", r.Seq)
		case f == schema.FailContinue:
			seq, attempt, stopped, after = r.Seq+1, 1, false, fmt.Sprintf("slot %d's failed run", r.Seq)
		default:
			seq, attempt, stopped, after = r.Seq, at+1, at > f.Retries(), fmt.Sprintf("slot %d's failed attempt %d", r.Seq, at)
		}
	}
	if len(rec.Runs) > 0 {
		if p := cooldownProblem(nil, rec.Runs[0]); p != "" {
			add("%s", p)
			return out
		}
	}
	if n := len(rec.Runs); n > 0 && !rec.Runs[n-1].OK() && f != schema.FailContinue && !stopped && !rec.Method.Interrupted {
		last := rec.Runs[n-1]
		add("the last run, attempt %d of slot %d (%s), failed with a retry left under on_failure: %s, and the campaign was not interrupted: the harness runs attempt %d next", attempt-1, last.Seq, termsafe.String(last.Arm), policy, attempt)
	}
	return out
}

// orderProblem says so where run r started before the run before it,
// prev, ended: the harness runs one run at a time and journals each as it
// ends, so runs.jsonl holds them in the order they ran. Runs without
// times (before they were kept) are not compared.
func orderProblem(prev, r schema.Run) string {
	end := prev.Start.Add(time.Duration(prev.Seconds * float64(time.Second)))
	if prev.Start.IsZero() || r.Start.IsZero() || !r.Start.Before(end.Add(-time.Millisecond)) {
		return ""
	}
	return fmt.Sprintf("run %d (%s) started at %s, before run %d (%s), the one before it in runs.jsonl, ended (%s): the harness journals runs in the order they ran",
		r.Seq, termsafe.String(r.Arm), r.Start.UTC().Format(time.RFC3339Nano), prev.Seq, termsafe.String(prev.Arm), end.UTC().Format(time.RFC3339Nano))
}

// cooldownTolerance is what a run's cooldown_s may exceed the gap since
// the run before it ended by. The cooldown is timed on the monotonic
// clock, the runs' starts are wall times: a wall clock stepped back
// between two runs (a leap second, an NTP or VM clock fix-up) must not
// refuse a genuine record (committed records: within 1.4 ms the other
// way, the load samples between them). What the rule catches is a
// cooldown that does not fit the runs' own times; a forger who moves every
// later start with it is out of its reach (the runs' times are then as if
// the campaign had run slower), and 2 s a run is no more than that.
const cooldownTolerance = 2 * time.Second

// cooldownProblem says so where run r's cooldown_s (its time since the
// run before it, prev, ended; nil for the campaign's first run) is below
// zero or more than the gap between the two: the harness times it from
// prev's end to r's start, and a budget's plan at each look reads it
// (scenarios.RoundTime), so a cooldown forged longer made a look the
// budget's last and spent the whole alpha there. The first run has none.
// Runs without times (before they were kept) are not compared.
func cooldownProblem(prev *schema.Run, r schema.Run) string {
	switch {
	case r.CooldownS < 0:
		return fmt.Sprintf("run %d (%s) states a cooldown of %.3f s, below zero", r.Seq, termsafe.String(r.Arm), r.CooldownS)
	case prev == nil && r.CooldownS != 0: // the harness times none before the first run
		return fmt.Sprintf("run %d (%s), the campaign's first, states a cooldown of %.3f s since a run before it: the first run has none", r.Seq, termsafe.String(r.Arm), r.CooldownS)
	case prev == nil || prev.Start.IsZero() || r.Start.IsZero():
		return ""
	}
	gap := r.Start.Sub(prev.Start.Add(time.Duration(prev.Seconds * float64(time.Second))))
	if time.Duration(r.CooldownS*float64(time.Second)) <= gap+cooldownTolerance {
		return ""
	}
	return fmt.Sprintf("run %d (%s) states a cooldown of %.3f s, where it started %.3f s after run %d (%s) ended: the harness times the cooldown between the two",
		r.Seq, termsafe.String(r.Arm), r.CooldownS, gap.Seconds(), prev.Seq, termsafe.String(prev.Arm))
}

// resumeProblem says what is wrong with the resumes between two runs in
// a row, prev and r: where the loop stopped after prev (stopped), a
// resume falls between prev's end and r's start; and r, the first run of
// a resume, states no cooldown. Runs without times (before they were
// kept) are not compared.
func resumeProblem(rec *schema.Record, prev, r schema.Run, stopped bool, policy string) string {
	if prev.Start.IsZero() || r.Start.IsZero() {
		return ""
	}
	end := prev.Start.Add(time.Duration(prev.Seconds * float64(time.Second)))
	var resumed *time.Time
	for i, t := range rec.Method.Resumed {
		if t.Add(time.Millisecond).After(end) && !t.After(r.Start.Add(time.Millisecond)) {
			resumed = &rec.Method.Resumed[i]
		}
	}
	switch {
	case stopped && resumed == nil:
		return fmt.Sprintf("run %d (%s), attempt %d, follows its slot's failed attempt %d, after which on_failure: %s stopped the campaign; no resume (method.resumed) falls between the two", r.Seq, termsafe.String(r.Arm), max(r.Attempt, 1), max(prev.Attempt, 1), policy)
	case resumed != nil && r.CooldownS != 0:
		return fmt.Sprintf("run %d (%s) is the first after the resume at %s, yet states a cooldown of %.3f s since the run before: a resumed campaign's first run has none", r.Seq, termsafe.String(r.Arm), resumed.UTC().Format(time.RFC3339Nano), r.CooldownS)
	}
	return ""
}
