package stats

// RoundDifferences are the rounds' differences CompareBlocks judges, in
// round order: in each round with a valid run of each side, the arm's
// mean log value less the reference's. A planner reads a host's noise and
// stalls from them over many campaigns.
func RoundDifferences(ref, arm []Timed) []float64 {
	rounds := pairRounds(ref, arm)
	out := make([]float64, len(rounds))
	for i, r := range rounds {
		out[i] = r.d
	}
	return out
}
