package scenarios

import (
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
