package scenarios

import (
	"fmt"
	"math/rand/v2"

	"github.com/decodebench/decodebench/schema"
)

// PlanOrder is the arm of each of rounds × arms planned runs, in order
// (harness.Plan, which a campaign runs, and check, which holds a record's
// method.planned to it, both take it from here). Every round runs each
// arm once; the order within a round depends on order:
//
//   - rotate: the arm that opens the round rotates (A B C, B C A, C A B, …),
//     so no arm always runs first, right after the cooldown, or last.
//   - abba: forward and reversed rounds alternate (A B, B A, A B, …), which
//     cancels a linear drift between two arms over each pair of rounds.
//   - random: a shuffle per round from a PCG generator seeded with (seed,
//     round), reproducible from the record.
func PlanOrder(arms []string, rounds int, order schema.Order, seed int64) ([]string, error) {
	k := len(arms)
	if k == 0 || rounds < 1 {
		return nil, fmt.Errorf("plan: %d arms × %d rounds", k, rounds)
	}
	var out []string
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
		out = append(out, round...)
	}
	return out, nil
}
