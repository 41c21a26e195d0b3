package harness

import (
	"context"
	"errors"
	"fmt"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// schedule is where the run loop stands: the plan of the rounds so far,
// and the next slot to run with its attempt number.
type schedule struct {
	plan          []Slot
	rounds        int
	next, attempt int
}

// plan is the scenario's plan of rounds rounds.
func (c *campaign) plan(rounds int) ([]Slot, error) {
	s := c.scenario
	return Plan(s.ArmNames(), rounds, c.policy.Schedule.Order, s.Schedule.Seed)
}

// stop is why the run loop stopped before the schedule's end, if it did.
type stop int

const (
	stopNone stop = iota
	// stopInterrupted: before a run, resumably (an interrupt, or a busy
	// host under on_busy: abort).
	stopInterrupted
	// stopAborted: after a run, by on_failure or on_gate_failure; the
	// finished runs are kept.
	stopAborted
)

// runSlots runs the plan from its next slot to its end: the folders
// checked before each run, the policies applied after it.
func (c *campaign) runSlots(ctx context.Context, sch *schedule) (stop, error) {
	for sch.next < len(sch.plan) {
		slot := sch.plan[sch.next]
		if err := c.checkFolders(); err != nil {
			return stopNone, err
		}
		run, err := c.measure(ctx, slot, sch.attempt)
		if err != nil {
			return c.stopBeforeRun(slot, err)
		}
		if st := c.afterRun(sch, slot, run); st != stopNone {
			return st, nil
		}
	}
	return stopNone, nil
}

// stopBeforeRun answers a slot that did not run to its end: an interrupt
// or a busy host stops the campaign resumably; any other error is the
// campaign's.
func (c *campaign) stopBeforeRun(slot Slot, err error) (stop, error) {
	if errors.Is(err, errInterrupted) {
		return stopInterrupted, nil
	}
	var busy errBusyHost
	if errors.As(err, &busy) {
		c.rec.Method.StoppedBy = busy.Error()
		c.progress.Printf("run %d: %v; stopping the campaign (finished runs are kept)", slot.Seq, busy)
		return stopInterrupted, nil
	}
	return stopNone, err
}

// afterRun applies the gate and failure policies to a finished run: the
// loop moves to the next slot, tries this one again, or stops.
func (c *campaign) afterRun(sch *schedule, slot Slot, run schema.Run) stop {
	if run.OK() && c.gateStops(run) {
		c.rec.Method.StoppedBy = fmt.Sprintf("run %d failed its counter expectation (on_gate_failure: stop)", slot.Seq)
		// The verdict is the analysis' to give (FAILED where too few runs
		// are left to judge): the line says what stopped the campaign.
		c.progress.Printf("run %d failed its counter expectation; stopping the campaign "+
			"(finished runs are kept; on_gate_failure: stop, where continue runs on)", slot.Seq)
		return stopAborted
	}
	if run.OK() {
		sch.next, sch.attempt = sch.next+1, 1
		return stopNone
	}
	switch f := c.policy.Failure; {
	case sch.attempt <= f.Retries():
		sch.attempt++
		c.progress.Printf("run %d failed; retrying (attempt %d of %d)", slot.Seq, sch.attempt, f.Retries()+1)
	case f == schema.FailContinue:
		sch.next, sch.attempt = sch.next+1, 1
		c.progress.Printf("run %d failed; continuing (on_failure: continue)", slot.Seq)
	default:
		c.progress.Printf("run %d failed; stopping the campaign (finished runs are kept; on_failure: %s)", slot.Seq, c.scenario.OnFailure)
		return stopAborted
	}
	return stopNone
}

// gateStops reports whether a finished run fails a counter expectation and
// the policy stops the campaign there. The rule is the analysis' own
// (analysis.CounterFailures), so the loop stops exactly when the analysis
// would reject.
func (c *campaign) gateStops(run schema.Run) bool {
	if c.policy.GateFailure == schema.GateContinue {
		return false
	}
	in := c.input([]schema.Run{run})
	return len(analysis.CounterFailures(c.policy, in.Runs[0])) > 0
}
