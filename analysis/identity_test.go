package analysis

import (
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A start's measured requests after the first are compared token by token
// where their ids are known (schedule.requests), as its first is: tokens
// stay compared; a request without ids leaves the arm's tokens compared
// false; ids that differ under the same text make the arm DIVERGENT.
func TestIdentityComparesEveryRequestsTokens(t *testing.T) {
	p := policy("a", "b")
	p.Exactness = &scenarios.ExactnessPolicy{Compare: []string{"b"}, Against: "a"}
	in := campaign(p, 3, level(map[string]float64{"a": 100, "b": 110}), honest)
	for i := range in.Runs {
		r := &in.Runs[i]
		r.Output, r.TokenIDs = "x\ufffdy", []int{1, 2, 3}
		r.RequestOutputs, r.RequestTokenIDs = []string{"x\ufffdy", "x\ufffdy"}, [][]int{{1, 2, 3}, {1, 2, 3}}
	}
	id := checkIdentity(in)
	if id.Verdict != schema.Identical || !id.Baseline.TokensCompared || !id.Arms[0].TokensCompared || id.Arms[0].Runs != 9 {
		t.Fatalf("every request with ids: %+v", id)
	}
	last := len(in.Runs) - 1
	for in.Runs[last].Arm != "b" {
		last--
	}
	in.Runs[last].RequestTokenIDs[1] = nil
	if id := checkIdentity(in); id.Verdict != schema.Identical || id.Arms[0].TokensCompared {
		t.Errorf("a request without ids: %+v", id.Arms[0])
	}
	in.Runs[last].RequestTokenIDs[1] = []int{1, 4, 3}
	if id := checkIdentity(in); id.Verdict != schema.Divergent || id.Arms[0].TokenIndex != 1 || id.Arms[0].ByteOffset != -1 {
		t.Errorf("other ids under the same text: %+v", id.Arms[0])
	}
}
