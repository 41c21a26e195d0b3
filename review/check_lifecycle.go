package review

import (
	"fmt"
	"slices"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// checkLifecycle checks what the data block says of how the campaign ran
// (method.rounds_run, planned, planned_rounds, interrupted) against the
// stored schedule and the runs: the analysis takes these as given, so a
// forged interrupted: false over a truncated plan turned an INCOMPLETE
// record VALID, and a planned_rounds without a budget spent the whole
// alpha at the first look. A campaign plans every arm of each round it
// adds; a fixed schedule plans its rounds at once; only a budget plans
// rounds at a look; and a sequential schedule stops at a look that decides
// every test arm, or at max, or (with a budget) at the last look its plan
// there allows. A budget's plan at each look is
// derived again from the runs' times (scenarios.RoundTime, PlanAtLook).
func checkLifecycle(s *scenarios.Scenario, rec *schema.Record) []Problem {
	m, r := rec.Method, s.Schedule.Rounds
	var out []Problem
	add := func(format string, args ...any) {
		out = append(out, Problem{Section: "Method", Message: fmt.Sprintf(format, args...)})
	}
	if _, known := schema.SignalExit[m.InterruptedBy]; m.InterruptedBy != "" && (!m.Interrupted || !known) {
		add("interrupted_by %q, where only an interrupted campaign names its signal (SIGHUP, SIGINT or SIGTERM)", m.InterruptedBy)
	}
	if arms := len(s.Arms); len(m.Planned) != m.RoundsRun*arms {
		add("the plan holds %d runs, where %d rounds of %d arms were planned", len(m.Planned), m.RoundsRun, arms)
	}
	if !r.Adaptive() && m.RoundsRun != r.Min {
		add("rounds run %d, where the stored scenario's fixed schedule plans %d", m.RoundsRun, r.Min)
	}
	var taken []int
	for _, l := range r.Looks() {
		if l <= m.RoundsRun {
			taken = append(taken, l)
		}
	}
	if r.MaxTime.Duration > 0 && r.Sequential() && !m.Interrupted && rec.Verdict != schema.Failed && rec.Verdict != schema.Rejected && len(m.PlannedRounds) < len(taken) {
		// A missing plan reads as max: a campaign went on past its
		// budget's last look with its plans left out.
		add("planned_rounds %v: %d plan(s) for the %d look(s) taken (%v), where a budgeted campaign that was not interrupted plans at every look it takes",
			m.PlannedRounds, len(m.PlannedRounds), len(taken), taken)
	}
	if len(m.PlannedRounds) > 0 {
		switch {
		case r.MaxTime.Duration <= 0:
			add("planned_rounds %v, where the stored scenario's schedule has no budget (max_time) to plan them", m.PlannedRounds)
		case len(m.PlannedRounds) > len(taken):
			add("planned_rounds %v: more plans than the %d look(s) taken", m.PlannedRounds, len(taken))
		default:
			for k, p := range m.PlannedRounds {
				l := taken[k]
				var runs []schema.Run
				for _, run := range rec.Runs {
					if run.Round <= l {
						runs = append(runs, run)
					}
				}
				if want := r.PlanAtLook(l, scenarios.RoundTime(runs, l)); p != want {
					add("planned_rounds %v: the budget's plan at the look after %d rounds is %d by the runs' times, not %d", m.PlannedRounds, l, want, p)
					break
				}
			}
		}
	}
	// A budgeted schedule stops as one without a budget does, its last
	// look the one its plan at that look leaves no further look after
	// (SequentialDone reads the plans; they were checked above).
	if len(out) > 0 || m.Interrupted || !r.Sequential() || rec.Verdict == schema.Failed || rec.Verdict == schema.Rejected {
		return out
	}
	in, err := analysis.FromRecord(s.Policy, rec.Runs, m)
	if err != nil || !in.Campaign.Rule.Sequential() {
		return out
	}
	if !slices.Contains(taken, m.RoundsRun) {
		add("rounds run %d is not a look of the schedule (%v): a campaign that was not interrupted stops at one", m.RoundsRun, r.Looks())
		return out
	}
	for _, l := range taken {
		upTo := in
		upTo.Runs = slices.DeleteFunc(slices.Clone(in.Runs), func(x analysis.Run) bool { return x.Round > l })
		upTo.Campaign.Planned = l * len(s.Arms) // the plan as it stood at the look
		done, a := analysis.SequentialDone(upTo)
		if l == m.RoundsRun {
			out = append(out, stoppedByProblem(r, rec, done, a.Sequential)...)
		}
		switch {
		case l < m.RoundsRun && done:
			add("the look after %d rounds decided, yet the campaign went on to %d", l, m.RoundsRun)
		case l == m.RoundsRun && !done && r.MaxTime.Duration > 0:
			add("the campaign stopped after %d rounds, at a look that did not decide, before max (%d) or the last look its budget's plan allowed, and was not interrupted", l, r.Max)
		case l == m.RoundsRun && !done:
			add("the campaign stopped after %d rounds, at a look that did not decide, before max (%d), and was not interrupted", l, r.Max)
		}
	}
	return out
}

// stoppedByProblem holds a sequential campaign's stopped_by to the words
// the harness writes for why it stops at its last look
// (scenarios.Rounds.SequentialStopWordings, the budget's overrun after
// it), done and q the analysis' answer there: a record that ran to max
// undecided said "decided every test arm", and passed; one held to the
// words before the first parenthesis or colon passed any text after
// them ("…: every test arm decided; the draft arm is 2.1x faster"). A stopped_by of a run that failed its counter expectation is
// not compared. None at all is refused unless the last run failed (a
// campaign stopped by on_failure: abort writes none; it ends FAILED, which
// is not checked here, so this is a guard): every build has written one
// for a schedule that ran to its stop, and one deleted hides why the
// campaign stopped and a budget it outran.
func stoppedByProblem(r scenarios.Rounds, rec *schema.Record, done bool, q *schema.Sequential) []Problem {
	m := rec.Method
	if m.StoppedBy == "" {
		if n := len(rec.Runs); n > 0 && !rec.Runs[n-1].OK() {
			return nil
		}
		return []Problem{{Section: "Method", Message: "no stopped_by, where a sequential campaign that was not interrupted says what stopped it"}}
	}
	if gateStop.MatchString(m.StoppedBy) {
		return nil // checkPlanAndTimes holds it to the runs
	}
	wordings := r.SequentialStopWordings(m.RoundsRun, done, q, scenarios.RoundTime(rec.Runs, m.RoundsRun))
	if len(wordings) == 0 {
		return nil
	}
	overrun := r.Overrun(rec.Runs, m.RoundsRun)
	for _, w := range wordings {
		if m.StoppedBy == w || overrun != "" && m.StoppedBy == w+overrun {
			return nil
		}
	}
	return []Problem{{Section: "Method", Message: fmt.Sprintf("stopped_by %q, where the schedule stops at its last look by its runs for: %s", m.StoppedBy, wordings[0]+overrun)}}
}
