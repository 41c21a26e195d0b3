// Package harness runs a campaign: it plans the interleaved order of arms,
// runs each measured run through the engine driver, cools down between
// runs, samples machine load, applies the counter gate and the statistics,
// and hands the result to the recorder.
package harness

import (
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Slot is one planned measured run.
type Slot struct {
	Seq   int // 1-based position in the plan
	Round int // 1-based round
	Arm   string
}

// Plan returns rounds × arms slots, in the order scenarios.PlanOrder
// gives (rotate, abba or random by seed).
func Plan(arms []string, rounds int, order schema.Order, seed int64) ([]Slot, error) {
	planned, err := scenarios.PlanOrder(arms, rounds, order, seed)
	if err != nil {
		return nil, err
	}
	out := make([]Slot, len(planned))
	for i, a := range planned {
		out[i] = Slot{Seq: i + 1, Round: i/len(arms) + 1, Arm: a}
	}
	return out, nil
}

// Arms returns the arm of each slot, in order.
func Arms(plan []Slot) []string {
	out := make([]string, len(plan))
	for i, s := range plan {
		out[i] = s.Arm
	}
	return out
}
