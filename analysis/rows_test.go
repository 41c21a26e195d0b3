package analysis

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// rowCase is a campaign shape: its arms, schedule and pooling.
type rowCase struct {
	name   string
	arms   []string
	rounds scenarios.Rounds
	ran    int
	pool   bool
	// planned is a budget's plan at each look taken.
	planned []int
}

var rowCases = []rowCase{
	{name: "holm", arms: []string{"a", "b", "c"}, rounds: scenarios.Rounds{Min: 8, Max: 8}, ran: 8},
	{name: "control", arms: []string{"a", "ctl", "b"}, rounds: scenarios.Rounds{Min: 10, Max: 10}, ran: 10},
	{name: "pooled", arms: []string{"a", "ctl", "b", "c"}, rounds: scenarios.Rounds{Min: 10, Max: 10}, ran: 10, pool: true},
	{name: "first look", arms: []string{"a", "ctl", "b"}, rounds: scenarios.Rounds{Min: 5, Max: 30, Every: 5}, ran: 5},
	{name: "second look", arms: []string{"a", "b", "c"}, rounds: scenarios.Rounds{Min: 5, Max: 30, Every: 5}, ran: 10},
	{name: "budget's last look", arms: []string{"a", "ctl", "b"}, ran: 10, planned: []int{30, 12},
		rounds: scenarios.Rounds{Min: 5, Max: 30, Every: 5, MaxTime: scenarios.Duration{Duration: 2 * time.Minute}}},
}

// rowCampaign is a seeded campaign of the case: 3% noise, one run in
// twelve stalled by 30%, each test arm's true ratio drawn from 0.94–1.06.
func rowCampaign(c rowCase, seed uint64) Input {
	rng := rand.New(rand.NewPCG(seed, 11))
	p := policy(c.arms...)
	p.Schedule.Rounds, p.Stats.PoolControl = c.rounds, c.pool
	p.Metrics = []scenarios.MetricPolicy{{Name: schema.DecodeTokS, Unit: "tok/s", HigherIsBetter: true}}
	effect := map[string]float64{}
	for i, a := range c.arms {
		effect[a] = 1
		if i > 0 && a[:min(3, len(a))] != "ctl" {
			effect[a] = 0.94 + 0.12*rng.Float64()
		}
	}
	value := func(a string, _ int) float64 {
		v := 100 * effect[a] * math.Exp(0.03*rng.NormFloat64())
		if rng.IntN(12) == 0 {
			v *= 0.7
		}
		return v
	}
	in := campaign(p, c.ran, value, honest)
	in.Campaign.PlannedRounds = c.planned
	return in
}

func analyzeUnder(t *testing.T, in Input, name schema.Rule) Analysis {
	t.Helper()
	rule, err := RuleOf(name)
	if err != nil {
		t.Fatal(err)
	}
	in.Campaign.Rule = rule
	return Analyze(in)
}

// robust-10 judges every campaign as robust-9 does, verdict for verdict;
// its primary rows are the verdicts' comparisons, where robust-9's rows
// were compared with the baseline at the whole alpha and, at a look, for
// Holm's later arms or against a pooled reference, disagreed with their
// verdicts.
func TestRobust10JudgesAsRobust9(t *testing.T) {
	disagreed, rows := 0, 0
	for _, c := range rowCases {
		for seed := range uint64(40) {
			in := rowCampaign(c, seed)
			old, cur := analyzeUnder(t, in, schema.RuleRobust9), analyzeUnder(t, in, schema.RuleRobust10)
			where := fmt.Sprintf("%s, seed %d", c.name, seed)
			if old.Verdict != cur.Verdict || !reflect.DeepEqual(old.ArmVerdicts, cur.ArmVerdicts) || !reflect.DeepEqual(old.Reasons, cur.Reasons) ||
				!reflect.DeepEqual(old.Flags, cur.Flags) || !reflect.DeepEqual(old.Warnings, cur.Warnings) {
				t.Errorf("%s: robust-10 judged %s %+v, robust-9 %s %+v", where, cur.Verdict, cur.ArmVerdicts, old.Verdict, old.ArmVerdicts)
			}
			if (old.Sequential == nil) != (cur.Sequential == nil) || old.Sequential != nil && (old.Sequential.Decided != cur.Sequential.Decided ||
				!reflect.DeepEqual(old.Sequential.Looks, cur.Sequential.Looks) || old.Sequential.PlannedLooks != cur.Sequential.PlannedLooks) {
				t.Errorf("%s: robust-10's looks %+v, robust-9's %+v", where, cur.Sequential, old.Sequential)
			}
			for _, v := range cur.ArmVerdicts {
				oldRow, curRow := primaryRow(t, old, v.Arm), primaryRow(t, cur, v.Arm)
				rows++
				if oldRow.Significant != v.Comparison.Significant || excludesOne(oldRow) != excludesOne(v.Comparison) {
					disagreed++
				}
				if curRow != v.Comparison {
					t.Errorf("%s: arm %s's row %+v, its verdict %+v", where, v.Arm, curRow, v.Comparison)
				}
			}
		}
	}
	t.Logf("%d of robust-9's %d primary rows differed from their verdicts in significance or in whether the interval excludes 1", disagreed, rows)
	if disagreed == 0 {
		t.Error("no robust-9 row differed from its verdict: the cases test nothing robust-10 changes")
	}
}

func excludesOne(c schema.Comparison) bool { return c.Lo > 1 || c.Hi < 1 }

func primaryRow(t *testing.T, a Analysis, arm string) schema.Comparison {
	t.Helper()
	for _, mr := range a.Results {
		if !mr.Primary {
			continue
		}
		for _, r := range mr.Arms {
			if r.Arm == arm && r.Comparison != nil {
				return *r.Comparison
			}
		}
	}
	t.Fatalf("no primary row of %s", arm)
	return schema.Comparison{}
}

// At the look after which the budget leaves no room for another, the test
// spends the rest of alpha: robust-10 says so; robust-9 stated the rounds
// run over those planned. Any other look is stated alike by both.
func TestBudgetLastLookStatesTheAlphaSpent(t *testing.T) {
	p := policy("a", "b")
	p.Schedule.Rounds = scenarios.Rounds{Min: 5, Max: 30, Every: 5, MaxTime: scenarios.Duration{Duration: 2 * time.Minute}}
	for _, tc := range []struct {
		planned []int
		last    bool
	}{
		{[]int{30, 12}, true},  // 12 − 10 < every: the look after 10 rounds is the last
		{[]int{30, 15}, false}, // room for one more look
	} {
		in := campaign(p, 10, level(map[string]float64{"a": 100, "b": 100.5}), honest)
		in.Campaign.PlannedRounds = tc.planned
		old, cur := analyzeUnder(t, in, schema.RuleRobust9).Sequential, analyzeUnder(t, in, schema.RuleRobust10).Sequential
		if old == nil || cur == nil {
			t.Fatalf("planned %v: no sequential statement", tc.planned)
		}
		share := 10 / float64(tc.planned[1])
		if math.Abs(old.Information-share) > 1e-9 || old.AlphaSpent >= 0.05 {
			t.Errorf("planned %v: robust-9 stated %.3f of the information, alpha %.4f spent; want %.3f, under 0.05", tc.planned, old.Information, old.AlphaSpent, share)
		}
		want, spent := share, old.AlphaSpent
		if tc.last {
			want, spent = 1, 0.05
		}
		if math.Abs(cur.Information-want) > 1e-9 || math.Abs(cur.AlphaSpent-spent) > 1e-12 {
			t.Errorf("planned %v: robust-10 stated %.3f of the information, alpha %.4f spent; want %.3f and %.4f", tc.planned, cur.Information, cur.AlphaSpent, want, spent)
		}
	}
}
