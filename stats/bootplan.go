package stats

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sync"
)

// planEntry is n resamples whose base median falls on positions bi, bj of
// the sorted base sample and whose arm median falls on ai, aj of the
// sorted arm sample.
type planEntry struct {
	bi, bj, ai, aj int32
	n              int32
}

// planKey is everything a bootstrap's draws depend on.
type planKey struct {
	nb, na, resamples int
	seed              uint64
}

type planSlot struct {
	once    sync.Once
	entries []planEntry
}

// maxPlans bounds the plans kept in memory: a fleet's records have a few
// shapes (runs per arm); a process that meets more computes the rest
// each time.
const maxPlans = 64

var (
	plansMu sync.Mutex
	plans   = map[planKey]*planSlot{}
)

// planFor is the bootstrap plan of base and arm samples of sizes nb and
// na: the resamples bootstrapRatio draws (base first, then arm, from
// PCG(seed, pcgStream)), grouped by the positions their medians fall on.
// The draws never look at the values, so one plan serves every pair of
// samples of those sizes.
func planFor(nb, na, resamples int, seed uint64) []planEntry {
	k := planKey{nb, na, resamples, seed}
	plansMu.Lock()
	slot, ok := plans[k]
	if !ok {
		slot = &planSlot{}
		if len(plans) < maxPlans {
			plans[k] = slot
		}
	}
	plansMu.Unlock()
	slot.once.Do(func() { slot.entries = drawPlan(k) })
	return slot.entries
}

func drawPlan(k planKey) []planEntry {
	rng := rand.New(rand.NewPCG(k.seed, pcgStream))
	bb, ab := newResampler(make([]float64, k.nb)), newResampler(make([]float64, k.na))
	counts := map[[4]int32]int32{}
	for range k.resamples {
		bi, bj := bb.medianAt(rng) // base first: the generator's order
		ai, aj := ab.medianAt(rng)
		counts[[4]int32{bi, bj, ai, aj}]++
	}
	out := make([]planEntry, 0, len(counts))
	for p, n := range counts {
		out = append(out, planEntry{p[0], p[1], p[2], p[3], n})
	}
	slices.SortFunc(out, func(a, b planEntry) int {
		return cmp.Or(cmp.Compare(a.bi, b.bi), cmp.Compare(a.bj, b.bj), cmp.Compare(a.ai, b.ai), cmp.Compare(a.aj, b.aj))
	})
	return out
}
