package planner

import (
	"math"

	"github.com/decodebench/decodebench/estimate"
)

// The guess made when no record of the scenario's feature can be read: a
// shared CPU host, as the noise anatomy measured on a 2-core VM (a start's
// draw about 5%, a request's about 3% at 256 tokens), without stalls.
const (
	// GuessBetweenCV is the noise of a start's draw, as a CV.
	GuessBetweenCV = 0.05
	// GuessWithinCV is a request's own noise within its start, as a CV, at
	// GuessTokens.
	GuessWithinCV = 0.03
	// GuessTokens is the max_tokens GuessWithinCV is for.
	GuessTokens = 256
)

// Guess is the host model without a record: the Guess figures, the
// costs estimate.Guess gives.
func Guess(s estimate.Shape, metric string) Host {
	return Host{Basis: BasisGuess, Metric: metric, Between: logVar(GuessBetweenCV),
		WithinTok: logVar(GuessWithinCV) * GuessTokens, Split: true, Costs: estimate.Guess(s)}
}

// logVar is the variance of the log of a log-normal value of CV cv.
func logVar(cv float64) float64 { return math.Log1p(cv * cv) }
