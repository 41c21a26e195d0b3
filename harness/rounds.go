package harness

import (
	"context"
	"fmt"

	"github.com/decodebench/decodebench/analysis"
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
		c.progress.SetTotal(len(sch.plan), sch.next)
		c.progress.Printf("adaptive rounds: %s; adding round %d", why, sch.rounds)
	}
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
	done, a := analysis.SequentialDone(c.input(c.rec.Runs))
	switch {
	case done && a.Sequential != nil && a.Sequential.Decided:
		return true, fmt.Sprintf("sequential look after %d rounds decided every test arm (look %d of %d, alpha %.4g a look)", rounds, len(a.Sequential.Looks), a.Sequential.PlannedLooks, a.Sequential.AlphaPerLook)
	case done:
		return true, fmt.Sprintf("maximum of %d rounds reached at the last sequential look: no decision for every test arm", r.Max)
	}
	return false, fmt.Sprintf("no decision after %d rounds (looks every %d rounds from %d to %d)", rounds, r.Every, r.Min, r.Max)
}
