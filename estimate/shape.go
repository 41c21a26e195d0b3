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
	// Budget is a sequential schedule's budget in minutes (0 for none):
	// the campaign stops at the look the next would not fit after.
	Budget time.Duration
}

// Duration is a rough duration of the whole campaign at its most rounds:
// rounds × arms × (a start's fixed cost + its measured requests), or its
// budget when it has one and the rounds would not fit in it.
func Duration(s Shape, c Costs) time.Duration {
	run := float64(c.Start) + float64(max(1, s.Requests))*float64(c.Request)
	if c.Replays(s.Warmup, s.Requests) {
		run += float64(c.Request)
	}
	est := time.Duration(1 << 62)
	if e := float64(s.Rounds) * float64(s.Arms) * run; e < float64(1<<62) {
		est = time.Duration(e)
	}
	if s.Budget > 0 && est > s.Budget {
		return s.Budget
	}
	return est
}

// startCost is a start's fixed cost for the scenario from the engine's own
// cost (launch to ready, and stop) and a request's.
func startCost(s Shape, engine, req time.Duration) time.Duration {
	return s.Cooldown + engine + time.Duration(s.Warmup)*req
}
