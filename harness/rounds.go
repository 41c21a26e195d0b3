package harness

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
)

// runRounds runs the planned rounds, then, while an adaptive schedule is
// not done, one more round at a time.
func (c *campaign) runRounds(ctx context.Context, sch *schedule) (stop, error) {
	for {
		if st, err := c.runSlots(ctx, sch); err != nil || st != stopNone {
			return st, err
		}
		done, why := c.scheduleDone(sch.rounds)
		if done {
			c.rec.Method.StoppedBy = why
			return stopNone, nil
		}
		sch.rounds++
		var err error
		if sch.plan, err = c.plan(sch.rounds); err != nil {
			return stopNone, err
		}
		c.progress.Grow(c.runsToNextLook(sch))
		c.progress.Printf("adaptive rounds: %s; adding round %d", why, sch.rounds)
	}
}

// runsToNextLook is the runs the progress line counts to: through the
// next sequential look (rounds are added one at a time, and counting to
// the round under way showed an ETA of 0 s for a look minutes away), or
// through the round under way for a schedule without looks.
func (c *campaign) runsToNextLook(sch *schedule) int {
	r := c.scenario.Schedule.Rounds
	if !r.Sequential() || !c.rule.Sequential() || sch.rounds == 0 {
		return len(sch.plan)
	}
	perRound := len(sch.plan) / sch.rounds
	for _, l := range r.Looks() {
		if l >= sch.rounds {
			return len(sch.plan) + (l-sch.rounds)*perRound
		}
	}
	return len(sch.plan)
}

// scheduleDone decides, after the planned rounds, whether to stop: a fixed
// schedule always does; an adaptive one when every arm's ratio interval is
// narrower than the target or the maximum is reached.
func (c *campaign) scheduleDone(rounds int) (bool, string) {
	r := c.scenario.Schedule.Rounds
	if !r.Adaptive() {
		return true, fmt.Sprintf("fixed schedule of %d rounds", rounds)
	}
	if r.Sequential() && c.rule.Sequential() {
		return c.sequentialDone(rounds)
	}
	if r.WidthStops() && c.rule.WidthStaged() {
		return c.twoStageDone(rounds)
	}
	width, arm := analysis.WidestInterval(c.input(c.rec.Runs))
	switch {
	case width < float64(r.UntilCIWidth):
		return true, fmt.Sprintf("every ratio interval narrower than %s after %d rounds (widest: `%s`, %.2f%%)", r.UntilCIWidth, rounds, arm, width*100)
	case rounds >= r.Max:
		return true, fmt.Sprintf("maximum of %d rounds reached; widest ratio interval `%s` %.2f%%, target %s", r.Max, arm, width*100, r.UntilCIWidth)
	}
	return false, fmt.Sprintf("widest ratio interval `%s` %.2f%% ≥ target %s", arm, width*100, r.UntilCIWidth)
}

// sequentialDone is scheduleDone for a schedule with looks: the
// analysis' own rule (analysis.SequentialDone) stops at a look that
// decides every test arm, or at the last.
func (c *campaign) sequentialDone(rounds int) (bool, string) {
	r := c.scenario.Schedule.Rounds
	if r.MaxTime.Duration > 0 && slices.Contains(r.Looks(), rounds) {
		if err := c.planLook(rounds); err != nil {
			c.progress.Printf("the budget's plan at this look could not be kept for a resume: %v", err)
		}
	}
	done, a := analysis.SequentialDone(c.input(c.rec.Runs))
	why, stopped := r.SequentialStop(rounds, done, a.Sequential, c.roundTime(rounds))
	if stopped && r.MaxTime.Duration > 0 {
		why += r.Overrun(c.rec.Runs, rounds)
	}
	return stopped, why
}

// roundTime is what a round has taken so far (scenarios.RoundTime).
func (c *campaign) roundTime(rounds int) time.Duration {
	return scenarios.RoundTime(c.rec.Runs, rounds)
}

// planLook plans a budgeted schedule at a look: the most rounds the budget
// allows at the time a round has taken so far (never fewer than run, never
// more than max), kept in the record and the resume state.
func (c *campaign) planLook(rounds int) error {
	r := c.scenario.Schedule.Rounds
	if k := slices.Index(r.Looks(), rounds); k < len(c.rec.Method.PlannedRounds) {
		return nil // planned before an interruption: the plan stands
	}
	n := r.PlanAtLook(rounds, c.roundTime(rounds))
	c.rec.Method.PlannedRounds = append(c.rec.Method.PlannedRounds, n)
	c.st.PlannedRounds = c.rec.Method.PlannedRounds
	return writeStateIn(c.data, c.st)
}

// twoStageDone is scheduleDone for a schedule that stops on its
// intervals' width under a rule that runs it in two stages
// (analysis.Rule.WidthStaged): the rounds planned once from the widest
// interval of the first min rounds, and run to that (analysis.PlanWidth).
func (c *campaign) twoStageDone(rounds int) (bool, string) {
	r := c.scenario.Schedule.Rounds
	w := analysis.PlanWidth(c.input(c.rec.Runs))
	stage := fmt.Sprintf("the first %d rounds' widest ratio interval `%s` %.2f%% of its ratio", r.Min, w.FirstArm, w.First*100)
	switch {
	case w.Done && w.Planned == r.Min:
		return true, fmt.Sprintf("every ratio interval narrower than %s of its ratio after the first %d rounds (widest: `%s`, %.2f%%)", r.UntilCIWidth, r.Min, w.FirstArm, w.First*100)
	case w.Done && w.Planned >= r.Max:
		return true, fmt.Sprintf("maximum of %d rounds reached: %s asked for more to reach %s (two stages); widest now `%s` %.2f%%",
			r.Max, stage, r.UntilCIWidth, w.Arm, w.Widest*100)
	case w.Done:
		return true, fmt.Sprintf("the %d rounds %s planned to reach %s (two stages); widest now `%s` %.2f%%",
			w.Planned, stage, r.UntilCIWidth, w.Arm, w.Widest*100)
	}
	return false, fmt.Sprintf("widest ratio interval `%s` %.2f%% of its ratio after the first %d rounds ≥ target %s: %d rounds planned (two stages)", w.FirstArm, w.First*100, r.Min, r.UntilCIWidth, w.Planned)
}
