package estimate

import "time"

// The guess made when no record of the feature says what a start and a
// request cost: a small model served from a CPU. A large model takes
// longer to load, a GPU decodes faster.
const (
	// GuessEngineStart is an engine's launch, load, ready answer and stop.
	GuessEngineStart = 5 * time.Second
	// GuessTokensPerSecond is the decode speed assumed for a request.
	GuessTokensPerSecond = 50
	// GuessRequestOverhead is added to each request (prefill, HTTP).
	GuessRequestOverhead = 500 * time.Millisecond
)

// Guess are the costs assumed without a record: the engine start
// (GuessEngineStart, or the ready timeout when that is shorter), and
// requests of max_tokens at GuessTokensPerSecond plus GuessRequestOverhead
// (or the request timeout when that is shorter). A command engine starts
// afresh for each run, warmups included: its Request is the whole run and
// its Start only the cooldown and warmups.
func Guess(s Shape) Costs {
	tokens := float64(s.MaxTokens) / GuessTokensPerSecond * float64(time.Second)
	req := GuessRequestOverhead + time.Duration(tokens)
	if t := s.RequestTimeout; t > 0 {
		req = min(req, t)
	}
	start := min(GuessEngineStart, s.ReadyTimeout)
	if s.Command {
		start, req = 0, GuessEngineStart+req
	}
	return Costs{Basis: BasisGuess, Request: req, Start: startCost(s, start, req)}
}
