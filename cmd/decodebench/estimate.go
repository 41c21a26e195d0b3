package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/decodebench/decodebench/estimate"
	"github.com/decodebench/decodebench/machine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/scenarios"
)

// newEstimator finds scenarios' costs in the records of dir, read as
// every command reads records. The hardware of this machine, which a
// scenario of hardware "auto" would record, is identified once, when the
// first such scenario needs it.
func newEstimator(ctx context.Context, dir string) estimate.Records {
	return estimate.Records{Dir: dir, List: review.LoadHistory, Load: recorder.Load, Here: sync.OnceValue(func() string {
		id, _ := machine.Identify(ctx) // a partial identity still has a slug
		return id.Slug
	})}
}

// estimateBasis says what an estimate went by: the record and the costs
// taken from it, or that it is a guess and what it assumed (dir is the
// records folder that had no record to go by).
func estimateBasis(s *scenarios.Scenario, c estimate.Costs, dir string) string {
	command := s.Engine.IsCommand()
	if c.Basis == estimate.BasisGuess {
		what := fmt.Sprintf("an engine start of %s, %d tok/s and %s a request besides its tokens", estimate.GuessEngineStart, estimate.GuessTokensPerSecond, estimate.GuessRequestOverhead)
		if command {
			what = fmt.Sprintf("a run of the command %s (its start %s, its tokens at %d tok/s and %s besides)", c.Request, estimate.GuessEngineStart, estimate.GuessTokensPerSecond, estimate.GuessRequestOverhead)
		}
		return fmt.Sprintf("a guess: %s; no record of %s in %s with a noise anatomy or run times to go by", what, s.Feature, dir)
	}
	var notes []string
	switch c.Basis {
	case estimate.BasisAnatomy:
		notes = append(notes, "by its noise anatomy")
	case estimate.BasisRuns:
		notes = append(notes, "by its runs' times")
	}
	if c.RecordTokens > 0 {
		notes = append(notes, fmt.Sprintf("scaled from its %d tokens to %d", c.RecordTokens, s.Engine.Request.MaxTokens))
	}
	if c.Adjusted {
		notes = append(notes, "the start moved to this scenario's cooldown and warmups")
	}
	if c.OtherHardware {
		notes = append(notes, fmt.Sprintf("a record of other hardware (%s): none of this machine's could be used", c.Hardware))
	}
	start, one := "start", "request"
	if command {
		start, one = "between runs", "a run of the command"
	}
	return fmt.Sprintf("from %s: %s %s, %s %s, %s", c.Record, start, secs(c.Start), one, secs(c.Request), strings.Join(notes, "; "))
}

// secs writes a cost in seconds with two decimals.
func secs(d time.Duration) string {
	return fmt.Sprintf("%.2f s", d.Seconds())
}
