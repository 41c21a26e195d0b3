package planner_test

import (
	"fmt"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/planner"
)

// BenchmarkPlanAsk times a plan that answers an asked MDE from five
// records of the quiet simulated host, the search over the
// requests a start spread on the machine's cores (make bench).
func BenchmarkPlanAsk(b *testing.B) {
	h := simHosts[0]
	past := simScenario(b, fmt.Sprint(h.historyRounds), h.historyK)
	host, ok := planner.HostOf(h.history(b, past, *simSeed+30), past.EstimateShape(), analysis.Current())
	if !ok {
		b.Fatal("no host model")
	}
	s := simScenario(b, "{min: 5, max: 10, every: 5}", 1)
	b.ResetTimer()
	for range b.N {
		if p := planner.New(s, host, planner.Options{MDE: h.mde}); p.Ask == nil || p.Ask.Reach == nil {
			b.Fatal("no schedule reaches the ask")
		}
	}
}
