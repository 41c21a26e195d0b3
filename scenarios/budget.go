package scenarios

import (
	"fmt"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// RoundTime is what a round has taken over the runs of rounds rounds: the
// runs' own times and the cooldowns before them, summed in the runs'
// order, over the rounds.
func RoundTime(runs []schema.Run, rounds int) time.Duration {
	var s float64
	for _, r := range runs {
		s += r.Seconds + r.CooldownS
	}
	return time.Duration(s / float64(max(rounds, 1)) * float64(time.Second))
}

// PlanAtLook is a budgeted schedule's plan at the look after rounds: the
// most rounds the budget allows at per a round, never fewer than rounds
// nor more than max (max when per is unknown). The campaign plans with it
// at each look (method.planned_rounds) and check derives each plan again
// from the runs.
func (r Rounds) PlanAtLook(rounds int, per time.Duration) int {
	if per <= 0 {
		return r.Max
	}
	left := r.MaxTime.Duration - time.Duration(rounds)*per
	return min(r.Max, rounds+max(0, int(left/per)))
}

// Overrun says, where the rounds run took longer than the budget (by a
// second or more, on the budget's own measure: the runs and their
// cooldowns, RoundTime), by how much and why: the first look comes after
// min rounds whatever they take, and a later one after the rounds the
// budget allowed at the look before, at the time a round had taken until
// then, which the rounds since outran. "" within the budget, and for a
// schedule without one. The harness appends it to why a budgeted
// schedule stopped (method.stopped_by), and check derives it again.
func (r Rounds) Overrun(runs []schema.Run, rounds int) string {
	if r.MaxTime.Duration <= 0 {
		return ""
	}
	took := (time.Duration(rounds) * RoundTime(runs, rounds)).Round(time.Second)
	budget := r.MaxTime.Duration.Round(time.Second)
	if took <= budget {
		return ""
	}
	why := fmt.Sprintf("the first look comes after min (%d) rounds, whatever they take", r.Min)
	if rounds > r.Min {
		why = "the rounds since the look before took longer than those before it"
	}
	return fmt.Sprintf("; the %d rounds' runs and cooldowns took %s, %s past the budget of %s (%s)", rounds, took, took-budget, r.MaxTime, why)
}
