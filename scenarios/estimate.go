package scenarios

import (
	"time"

	"github.com/decodebench/decodebench/estimate"
)

// EstimateShape is what package estimate needs to know of the scenario.
func (s *Scenario) EstimateShape() estimate.Shape {
	r := s.Schedule.Rounds
	if r.MaxTime.Duration > 0 {
		r = r.OnGrid()
	}
	return estimate.Shape{
		Feature:        s.Feature,
		Hardware:       s.Hardware,
		Command:        s.Engine.IsCommand(),
		MaxTokens:      s.Engine.Request.MaxTokens,
		ReadyTimeout:   s.Engine.Ready.Timeout.Duration,
		RequestTimeout: s.Engine.Request.Timeout.Duration,
		Cooldown:       s.Schedule.Cooldown.Longest(),
		Warmup:         s.Schedule.Warmup,
		Requests:       s.Schedule.Requests,
		Rounds:         max(r.Max, r.Min),
		Arms:           len(s.Arms),
		Budget:         r.MaxTime.Duration,
		Looks:          r.Looks(),
	}
}

// Estimate is a rough duration of the whole campaign at its most rounds
// from the guessed costs (estimate.Guess).
func (s *Scenario) Estimate() time.Duration {
	sh := s.EstimateShape()
	return estimate.Duration(sh, estimate.Guess(sh))
}

// Longest is how long the campaign may run at the guessed costs whatever
// its runs turn out to cost (estimate.Longest), as the bound MaxCampaign
// takes it.
func (s *Scenario) Longest() time.Duration {
	sh := s.EstimateShape()
	return estimate.Longest(sh, estimate.Guess(sh))
}
