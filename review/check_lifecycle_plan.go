package review

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// gateStop is the stopped_by of a campaign that on_gate_failure: stop
// ended at a run that failed its counter expectation (harness's afterRun).
var gateStop = regexp.MustCompile(`^run [0-9]+ failed its counter expectation \(on_gate_failure: stop\)$`)

// checkPlanAndTimes checks the method's plan, times and stopping reason
// against the stored scenario and the runs: method.planned is the order
// the harness plans (scenarios.PlanOrder) for the stored scenario's arms,
// order and seed over the rounds run; the campaign started no later than
// any run and finished no earlier than any run ended (a record from
// before these times, its started zero, is not compared; nor a run whose
// start is zero); and stopped_by says what the schedule's kind can stop
// by: a fixed schedule its rounds ("fixed schedule of N rounds"), a run
// that failed its counter expectation, or, interrupted, anything (a busy
// host says why); an adaptive one never a fixed schedule, and an
// overrun of its budget only as its runs give it.
func checkPlanAndTimes(s *scenarios.Scenario, rec *schema.Record) []Problem {
	m := rec.Method
	var out []Problem
	add := func(format string, args ...any) {
		out = append(out, Problem{Section: "Method", Message: fmt.Sprintf(format, args...)})
	}
	if m.RoundsRun > 0 && len(m.Planned) == m.RoundsRun*len(s.Arms) {
		want, err := scenarios.PlanOrder(s.Policy.ArmNames(), m.RoundsRun, s.Policy.Schedule.Order, s.Schedule.Seed)
		if err == nil && !slices.Equal(want, m.Planned) {
			i := 0
			for i < len(want) && want[i] == m.Planned[i] {
				i++
			}
			add("the plan is not the stored scenario's (order %s, seed %d): run %d is planned for arm %s, where the planner gives %s", orderName(s.Policy.Schedule.Order), s.Schedule.Seed, i+1, m.Planned[i], want[i])
		}
	}
	if !m.Started.IsZero() {
		for _, r := range rec.Runs {
			if r.Start.IsZero() {
				continue
			}
			end := r.Start.Add(time.Duration(r.Seconds * float64(time.Second)))
			switch {
			case r.Start.Before(m.Started):
				add("run %d started at %s, before the campaign started (%s)", r.Seq, r.Start.Format(time.RFC3339Nano), m.Started.Format(time.RFC3339Nano))
			case !m.Finished.IsZero() && end.Sub(m.Finished) > time.Millisecond:
				add("run %d ended at %s, after the campaign finished (%s)", r.Seq, end.Format(time.RFC3339Nano), m.Finished.Format(time.RFC3339Nano))
			default:
				continue
			}
			break
		}
	}
	r := s.Schedule.Rounds
	fixed := fmt.Sprintf("fixed schedule of %d rounds", m.RoundsRun)
	switch {
	case gateStop.MatchString(m.StoppedBy):
		if why := gateStopProblem(s, rec); why != "" {
			add("stopped_by %q, where %s", m.StoppedBy, why)
		}
	case m.StoppedBy == "" || m.Interrupted:
	case !r.Adaptive() && m.StoppedBy != fixed:
		add("stopped_by %q, where the stored scenario's fixed schedule stops by its rounds (%q)", m.StoppedBy, fixed)
	case r.Adaptive() && strings.HasPrefix(m.StoppedBy, "fixed schedule"):
		add("stopped_by %q, where the stored scenario's schedule is adaptive", m.StoppedBy)
	case strings.Contains(m.StoppedBy, overrunMark):
		// The budget's overrun as the runs give it (scenarios.Rounds.Overrun),
		// stated from 66c9eec on: a build before it states none.
		if want := r.Overrun(rec.Runs, m.RoundsRun); want == "" || !strings.HasSuffix(m.StoppedBy, want) {
			add("stopped_by %q states an overrun of the budget that its runs do not give (%s)", m.StoppedBy, orNoOverrun(want))
		}
	}
	return out
}

// gateStopProblem is why a stopped_by of a run that failed its counter
// expectation is not the harness's, or "": it names the campaign's last
// run, the stored scenario stops on a gate's failure, and the analysis
// finds the campaign REJECTED (check derives the verdict from the runs'
// counters). Any such text passed, over a VALID record.
func gateStopProblem(s *scenarios.Scenario, rec *schema.Record) string {
	var seq int
	fmt.Sscanf(rec.Method.StoppedBy, "run %d ", &seq)
	switch {
	case s.OnGateFailure == schema.GateContinue:
		return "the stored scenario runs on past a failed counter expectation (on_gate_failure: continue)"
	case len(rec.Runs) == 0 || rec.Runs[len(rec.Runs)-1].Seq != seq:
		return fmt.Sprintf("run %d is not the campaign's last run", seq)
	case rec.Verdict != schema.Rejected:
		return fmt.Sprintf("the verdict is %s: a run that failed its counter expectation makes it REJECTED", rec.Verdict)
	}
	return ""
}

// overrunMark is in the stopped_by of a campaign that outran its budget.
const overrunMark = " past the budget of "

func orNoOverrun(want string) string {
	if want == "" {
		return "they took no longer than the budget"
	}
	return "they give " + strings.TrimPrefix(want, "; ")
}

func orderName(o schema.Order) string {
	if o == "" {
		return string(schema.OrderRotate)
	}
	return string(o)
}
