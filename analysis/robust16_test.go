package analysis

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// robust-16 changes only campaigns stopped past their budget's plans
// (schema.RuleRobust16): its rule value is robust-15's but for its name
// and SpendingLooks.LatestPlan; every analysis of the row cases' seeded
// campaigns (fixed and sequential schedules, a budget's last look with a
// plan at every look) is robust-15's. A budgeted campaign interrupted
// between looks (looks at 5 and 10 taken, plans 28 and 20, max 30, 12
// rounds run) states 60% of the information, 12 of the latest plan's 20,
// and its arms are tested there; under robust-15 the point was read at
// 12 of max's 30, below the look at 10, and held at that look's level
// while the record stated 60%.
func TestRobust16ChangesOnlyStopsPastThePlans(t *testing.T) {
	old, _ := RuleOf(schema.RuleRobust15)
	cur, _ := RuleOf(schema.RuleRobust16)
	same := cur
	sl := same.Looks.(SpendingLooks)
	if !sl.LatestPlan || old.Looks.(SpendingLooks).LatestPlan {
		t.Fatalf("LatestPlan: robust-16 %+v, robust-15 %+v", cur.Looks, old.Looks)
	}
	sl.LatestPlan = false
	same.Name, same.Looks = old.Name, sl
	if !reflect.DeepEqual(same, old) {
		t.Errorf("robust-16 is %+v, robust-15 %+v: more than LatestPlan differs", cur, old)
	}
	sameOnRowCases(t, schema.RuleRobust15, schema.RuleRobust16)
	budget := scenarios.Rounds{Min: 5, Max: 30, Every: 5, MaxTime: scenarios.Duration{Duration: 5 * time.Minute}}
	stopped := rowCase{name: "interrupted between looks", arms: []string{"a", "b"}, rounds: budget, ran: 12, planned: []int{28, 20}}
	atLook := rowCase{name: "its look at 10", arms: []string{"a", "b"}, rounds: budget, ran: 10, planned: []int{28, 20}}
	for seed := range uint64(5) {
		in := rowCampaign(stopped, seed)
		in.Campaign.Interrupted = true
		a, b := analyzeUnder(t, in, schema.RuleRobust15), analyzeUnder(t, in, schema.RuleRobust16)
		q := b.Sequential
		if q == nil || q.PlannedLooks != 4 || !slicesEqual(q.Looks, []int{5, 10}) || math.Abs(q.Information-0.6) > 1e-12 ||
			math.Abs(q.AlphaSpent-stats.SpendOBF.Spent(0.05, 0.6)) > 1e-12 {
			t.Fatalf("seed %d: robust-16's account %+v, want 2 of 4 looks, 60%% of the information and its alpha", seed, q)
		}
		look := rowCampaign(atLook, seed)
		look.Campaign.Interrupted = true
		l := analyzeUnder(t, look, schema.RuleRobust16).ArmVerdicts[0].Comparison.Level
		lb, la := b.ArmVerdicts[0].Comparison.Level, a.ArmVerdicts[0].Comparison.Level
		if !(lb > 1.05*l) {
			t.Errorf("seed %d: robust-16 tests the arm at %.5f at 60%% of the information, the look at 10 at %.5f: want more alpha spent", seed, lb, l)
		}
		if !(la < 1.01*l) {
			t.Errorf("seed %d: robust-15 tested the arm at %.5f, the look at 10 at %.5f: it held that look's level", seed, la, l)
		}
	}
	// A review's record: {min: 3, max_time: 1m, every: 3} (max 99),
	// interrupted in round 6 after its first look planned 7 rounds.
	review := rowCase{name: "interrupted in a look's round", arms: []string{"a", "b"}, ran: 6, planned: []int{7},
		rounds: scenarios.Rounds{Min: 3, Max: 99, Every: 3, MaxTime: scenarios.Duration{Duration: time.Minute}}}
	in := rowCampaign(review, 1)
	in.Campaign.Interrupted = true
	if q := analyzeUnder(t, in, schema.RuleRobust15).Sequential; q == nil || q.PlannedLooks != 33 {
		t.Errorf("robust-15's account %+v: the review's 33 planned looks", q)
	}
	if q := analyzeUnder(t, in, schema.RuleRobust16).Sequential; q == nil || q.PlannedLooks != 2 || math.Abs(q.Information-6.0/7) > 1e-12 {
		t.Errorf("robust-16's account %+v, want 2 planned looks and 6/7 of the information", q)
	}
}

func slicesEqual(a, b []int) bool { return reflect.DeepEqual(a, b) }
