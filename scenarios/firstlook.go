package scenarios

import (
	"fmt"

	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/schema"
)

// FirstLookOverBudget is a warning where the estimate at costs c says
// the schedule's first look takes longer than its budget (max_time): a
// budget stops a campaign only at a look, so the campaign runs to its
// first look whatever the budget, and the budget would be passed by the
// difference it names. It says what to do: lower min to the rounds that
// fit, or raise max_time to the first look's time. nil where the first
// look fits, or there is no budget. validate and run print it; it is not
// a record's warning (the estimate is this machine's, not the scenario's).
func (s *Scenario) FirstLookOverBudget(c estimate.Costs) *Error {
	sh := s.EstimateShape()
	first := estimate.FirstLook(sh, c)
	if first <= sh.Budget {
		return nil
	}
	fix := fmt.Sprintf("raise max_time to at least %s", Round(first))
	if n := estimate.Fit(sh, c, sh.Budget); n >= schema.RobustMinRuns {
		fix = fmt.Sprintf("lower min to %d rounds (what fits at this estimate), or %s", n, fix)
	}
	return &Error{File: s.Path, Pos: s.pos.of("schedule.rounds.max_time"), Key: "schedule.rounds.max_time", Warning: true,
		Msg: fmt.Sprintf("the first look, after %d rounds, is estimated to take %s, %s more than the budget of %s: "+
			"a budget stops a campaign only at a look, so it runs at least that long; %s",
			sh.FirstLookRounds(), Round(first), Round(first-sh.Budget), s.Schedule.Rounds.MaxTime, fix)}
}
