// Package harness runs a campaign: it plans the interleaved order of arms,
// runs each measured run through the engine driver, cools down between
// runs, samples machine load, applies the counter gate and the statistics,
// and hands the result to the recorder.
package harness

import (
	"fmt"
	"math/rand/v2"

	"github.com/decodebench/decodebench/schema"
)

// Slot is one planned measured run.
type Slot struct {
	Seq   int // 1-based position in the plan
	Round int // 1-based round
	Arm   string
}

// Plan returns rounds × arms slots. Every round runs each arm once; the order
// within a round depends on order:
//
//   - rotate: the arm that opens the round rotates (A B C, B C A, C A B, …),
//     so no arm always runs first, right after the cooldown, or last.
//   - abba: forward and reversed rounds alternate (A B, B A, A B, …), which
//     cancels a linear drift between two arms over each pair of rounds.
//   - random: a shuffle per round from a PCG generator seeded with (seed,
//     round), reproducible from the record.
func Plan(arms []string, rounds int, order schema.Order, seed int64) ([]Slot, error) {
	k := len(arms)
	if k == 0 || rounds < 1 {
		return nil, fmt.Errorf("plan: %d arms × %d rounds", k, rounds)
	}
	var out []Slot
	for r := 0; r < rounds; r++ {
		round := make([]string, k)
		switch order {
		case schema.OrderRotate, "":
			for i := range round {
				round[i] = arms[(i+r)%k]
			}
		case schema.OrderABBA:
			for i := range round {
				if r%2 == 0 {
					round[i] = arms[i]
				} else {
					round[i] = arms[k-1-i]
				}
			}
		case schema.OrderRandom:
			copy(round, arms)
			rng := rand.New(rand.NewPCG(uint64(seed), uint64(r)))
			rng.Shuffle(k, func(i, j int) { round[i], round[j] = round[j], round[i] })
		default:
			return nil, fmt.Errorf("plan: unknown order %v", order)
		}
		for _, a := range round {
			out = append(out, Slot{Seq: len(out) + 1, Round: r + 1, Arm: a})
		}
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
