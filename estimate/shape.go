package estimate

import "time"

// Shape is what the estimate needs to know of a scenario.
type Shape struct {
	// Feature and Hardware select the records to go by. Hardware is the
	// scenario's: "" or "auto" for the machine the campaign would run on.
	Feature, Hardware string
	// Command is set for a command engine, which starts afresh for each
	// run (warmups included) and serves no requests.
	Command bool
	// MaxTokens is a request's max_tokens.
	MaxTokens int
	// ReadyTimeout bounds an engine's start; RequestTimeout a request (0
	// for no bound).
	ReadyTimeout, RequestTimeout time.Duration
	// Cooldown is the longest cooldown before a start.
	Cooldown time.Duration
	// Warmup is the number of warmup requests a start.
	Warmup int
	// Requests is the number of measured requests a start (0 counts as 1).
	Requests int
	// Rounds is the most rounds the campaign may run; Arms its arms.
	Rounds, Arms int
	// Budget is a sequential schedule's budget in minutes (0 for none),
	// Looks the rounds after which it looks: the campaign runs to the
	// first look whatever the budget, and on to each later look that fits
	// in it.
	Budget time.Duration
	Looks  []int
}

// Duration is a rough duration of the whole campaign at its most rounds:
// rounds × arms × (a start's fixed cost + its measured requests). With a
// budget, the most rounds are those of the last look that fits in it at
// that cost, and never fewer than the first look's: a budget stops a
// campaign only at a look, so one shorter than the first look does not
// shorten it (nor hide its length from MaxCampaign's bound).
func Duration(s Shape, c Costs) time.Duration {
	if e := float64(rounds(s, c)) * roundCost(s, c); e < float64(1<<62) {
		return time.Duration(e)
	}
	return time.Duration(1 << 62)
}

// rounds are the most rounds Duration counts: the schedule's, or with a
// budget the last look's that fits in it at c's costs, at least the first
// look's.
func rounds(s Shape, c Costs) int {
	if s.Budget <= 0 || len(s.Looks) == 0 {
		return s.Rounds
	}
	round := roundCost(s, c)
	n := s.Looks[0]
	for _, l := range s.Looks[1:] {
		if float64(l)*round <= float64(s.Budget) {
			n = l
		}
	}
	return n
}

// FirstLook is how long a budgeted schedule's first look takes at c's
// costs: the rounds a campaign runs whatever its budget, since a budget
// stops it only at a look (FirstLookRounds). 0 without a budget.
func FirstLook(s Shape, c Costs) time.Duration {
	if s.Budget <= 0 {
		return 0
	}
	if e := float64(s.FirstLookRounds()) * roundCost(s, c); e < float64(1<<62) {
		return time.Duration(e)
	}
	return time.Duration(1 << 62)
}

// FirstLookRounds are the rounds a campaign runs before its budget can
// stop it: its first look's, or where no look comes after min (a max off
// the looks' grid, OnGrid) all of them.
func (s Shape) FirstLookRounds() int {
	if len(s.Looks) > 0 {
		return s.Looks[0]
	}
	return s.Rounds
}

// Fit is the most rounds that fit in d at c's costs.
func Fit(s Shape, c Costs, d time.Duration) int {
	if r := roundCost(s, c); r > 0 {
		return int(float64(d) / r)
	}
	return 0
}

// Longest is how long the campaign may run at c's costs whatever its runs
// turn out to cost, for a bound on it: its most rounds', or with a budget
// the longer of the budget and its first look's, when that is shorter. The
// campaign measures a round's cost and runs every look that fits in the
// budget, so a guess too high must not let the bound see fewer rounds than
// would run (Duration counts the looks at the guessed cost, for display).
func Longest(s Shape, c Costs) time.Duration {
	most := float64(s.Rounds) * roundCost(s, c)
	if s.Budget > 0 && len(s.Looks) > 0 {
		most = min(most, max(float64(s.Budget), float64(s.Looks[0])*roundCost(s, c)))
	}
	if most < float64(1<<62) {
		return time.Duration(most)
	}
	return time.Duration(1 << 62)
}

// roundCost is a round's time in nanoseconds: arms × (a start's fixed cost
// + its measured requests, and a replay where the costs need one).
func roundCost(s Shape, c Costs) float64 {
	run := float64(c.Start) + float64(max(1, s.Requests))*float64(c.Request)
	if c.Replays(s.Warmup, s.Requests) {
		run += float64(c.Request)
	}
	return float64(s.Arms) * run
}

// startCost is a start's fixed cost for the scenario from the engine's own
// cost (launch to ready, and stop) and a request's.
func startCost(s Shape, engine, req time.Duration) time.Duration {
	return s.Cooldown + engine + time.Duration(s.Warmup)*req
}
