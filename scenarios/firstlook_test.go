package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/estimate"
)

// A budget shorter than the first look at the estimate's costs is warned
// of at max_time, by how much and with the rounds that fit; one the first
// look fits, and a schedule without a budget, are not; a max off the
// looks' grid before a second look is no escape (a reviewer's {min: 50,
// max: 52, every: 5, max_time: 1m} ran 74 times its budget unwarned). (A reviewer's
// {min: 30, max: 60, every: 5, max_time: 1m} validated ok, estimated at
// 1m32s, and ran 1m51s.)
func TestFirstLookOverBudget(t *testing.T) {
	src, err := ShippedSource("llamacpp-speculative")
	if err != nil {
		t.Fatal(err)
	}
	const demo = "rounds: {min: 5, max: 10, max_time: 10m, every: 5}"
	// The demo's three arms, a start 2 s and a request 1 s: a round of
	// three requests a start takes 15 s.
	costs := estimate.Costs{Basis: estimate.BasisAnatomy, Start: 2 * time.Second, Request: time.Second}
	for rounds, want := range map[string]string{
		"{min: 30, max: 60, every: 5, max_time: 1m}": "the first look, after 30 rounds, is estimated to take 7m30s, 6m30s more than the budget of 1m0s: " +
			"a budget stops a campaign only at a look, so it runs at least that long; lower min to 4 rounds (what fits at this estimate), or raise max_time to at least 7m30s",
		"{min: 5, max: 60, every: 5, max_time: 1m}": "the first look, after 5 rounds, is estimated to take 1m15s, 15s more than the budget of 1m0s: a budget stops a campaign only at a look, so it runs at least that long; lower min to 4",
		"{min: 4, max: 60, every: 5, max_time: 1m}": "",
		// A max off the grid before a second look: min is the only look,
		// run whatever the budget (it was not warned of: no looks).
		"{min: 30, max: 32, every: 5, max_time: 1m}": "the first look, after 30 rounds, is estimated to take 7m30s, 6m30s more than the budget of 1m0s",
		"{min: 30, max: 60, every: 5}":               "",
		"{min: 30, max: 60, every: 5, max_time: 2h}": "",
	} {
		s, _, err := Parse("t.yaml", ".", []byte(strings.Replace(string(src), demo, "rounds: "+rounds, 1)), Options{LookupEnv: noEnv})
		if err != nil {
			t.Fatalf("%s: %v", rounds, err)
		}
		w := s.FirstLookOverBudget(costs)
		switch {
		case want == "" && w != nil:
			t.Errorf("%s: %v", rounds, w)
		case want != "" && (w == nil || !w.Warning || w.Key != "schedule.rounds.max_time" || !strings.HasPrefix(w.Msg, want)):
			t.Errorf("%s: %v, want %q", rounds, w, want)
		}
	}
}
