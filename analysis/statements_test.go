package analysis

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// robust-11 changes only what its records state (schema.RuleRobust11):
// every analysis, verdict, reason, row and look of robust-10's, campaign
// for campaign, over the row cases' seeded campaigns.
func TestRobust11JudgesAsRobust10(t *testing.T) {
	for _, c := range rowCases {
		for seed := range uint64(40) {
			in := rowCampaign(c, seed)
			old, cur := analyzeUnder(t, in, schema.RuleRobust10), analyzeUnder(t, in, schema.RuleRobust11)
			where := fmt.Sprintf("%s, seed %d", c.name, seed)
			if !reflect.DeepEqual(old, cur) {
				t.Errorf("%s: robust-11 analysed %+v, robust-10 %+v", where, cur, old)
			}
		}
	}
	if r, _ := RuleOf(schema.RuleRobust11); r.Statements != StatementsExact {
		t.Error("robust-11 does not state exactly")
	}
	if r, _ := RuleOf(schema.RuleRobust10); r.Statements != StatementsRounded {
		t.Error("robust-10's records would no longer re-render as written")
	}
}

// robust-12 changes only what its records state (schema.RuleRobust12):
// its rule value is robust-11's but for its name and statements, and
// every analysis of the row cases' seeded campaigns is robust-11's.
func TestRobust12JudgesAsRobust11(t *testing.T) {
	old, _ := RuleOf(schema.RuleRobust11)
	cur, _ := RuleOf(schema.RuleRobust12)
	if cur.Statements != StatementsAsRun || old.Statements != StatementsExact {
		t.Errorf("statements: robust-12 %d, robust-11 %d", cur.Statements, old.Statements)
	}
	same := cur
	same.Name, same.Statements = old.Name, old.Statements
	if !reflect.DeepEqual(same, old) {
		t.Errorf("robust-12 is %+v, robust-11 %+v: more than its statements differ", cur, old)
	}
	sameOnRowCases(t, schema.RuleRobust11, schema.RuleRobust12)
}

// sameOnRowCases holds every analysis of the row cases' seeded campaigns
// (twenty seeds a case) under rule cur to rule old's.
func sameOnRowCases(t *testing.T, old, cur schema.Rule) {
	t.Helper()
	for _, c := range rowCases {
		for seed := range uint64(20) {
			in := rowCampaign(c, seed)
			a, b := analyzeUnder(t, in, old), analyzeUnder(t, in, cur)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s, seed %d: %s analysed %+v, %s %+v", c.name, seed, cur, b, old, a)
			}
		}
	}
}

// sameButMDEOnRowCases analyses the row cases' seeded campaigns under
// rules old and cur, gives each pair of an arm's verdicts to each, and
// fails where the analyses differ once the MDEs are set aside.
func sameButMDEOnRowCases(t *testing.T, old, cur schema.Rule, each func(c rowCase, seed uint64, va, vb schema.ArmVerdict)) {
	t.Helper()
	for _, c := range rowCases {
		for seed := range uint64(20) {
			in := rowCampaign(c, seed)
			a, b := analyzeUnder(t, in, old), analyzeUnder(t, in, cur)
			for i := range a.ArmVerdicts {
				each(c, seed, a.ArmVerdicts[i], b.ArmVerdicts[i])
				a.ArmVerdicts[i].MDE, a.ArmVerdicts[i].MDEDown = 0, 0
				b.ArmVerdicts[i].MDE, b.ArmVerdicts[i].MDEDown = 0, 0
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s, seed %d: %s analysed %+v, %s %+v", c.name, seed, cur, b, old, a)
			}
		}
	}
}

// robust-13 changes only the minimum detectable effect
// (schema.RuleRobust13): its rule value is robust-12's but for its name
// and its MDE's model of the clean noise, and every analysis of the row
// cases' seeded campaigns is robust-12's once the MDEs are set aside,
// where its MDE is never smaller (its noise's degrees of freedom are at
// most chi-square's) and larger in some.
func TestRobust13ChangesOnlyTheMDE(t *testing.T) {
	old, _ := RuleOf(schema.RuleRobust12)
	cur, _ := RuleOf(schema.RuleRobust13)
	if cur.MDE != (RoundsMDE{Kept: stats.KeptByPutBackSpread}) || old.MDE != (RoundsMDE{Kept: stats.KeptByPutBack}) {
		t.Errorf("MDE: robust-13 %+v, robust-12 %+v", cur.MDE, old.MDE)
	}
	same := cur
	same.Name, same.MDE = old.Name, old.MDE
	if !reflect.DeepEqual(same, old) {
		t.Errorf("robust-13 is %+v, robust-12 %+v: more than its MDE differs", cur, old)
	}
	larger, mdes := 0, 0
	sameButMDEOnRowCases(t, schema.RuleRobust12, schema.RuleRobust13, func(c rowCase, seed uint64, va, vb schema.ArmVerdict) {
		if vb.MDE < va.MDE-1e-12 || vb.MDEDown < va.MDEDown-1e-12 {
			t.Errorf("%s, seed %d, %s: robust-13's MDE %.4f/%.4f under robust-12's %.4f/%.4f", c.name, seed, va.Arm, vb.MDE, vb.MDEDown, va.MDE, va.MDEDown)
		}
		if va.MDE > 0 {
			mdes++
			if vb.MDE > va.MDE+1e-9 {
				larger++
			}
		}
	})
	if larger == 0 {
		t.Errorf("robust-13 stated no larger MDE than robust-12 in %d verdicts", mdes)
	}
	t.Logf("robust-13's MDE larger than robust-12's in %d of %d verdicts", larger, mdes)
}

// robust-14 changes only the campaigns of a schedule that stops on its
// intervals' width (schema.RuleRobust14): its rule value is robust-13's
// but for its name and its comparison's stage; every analysis of the row
// cases' seeded campaigns (fixed and sequential schedules) is robust-13's;
// a width schedule's comparisons take the first stage's noise, at its
// degrees of freedom.
func TestRobust14ChangesOnlyWidthSchedules(t *testing.T) {
	old, _ := RuleOf(schema.RuleRobust13)
	cur, _ := RuleOf(schema.RuleRobust14)
	if !cur.WidthStaged() || old.WidthStaged() {
		t.Errorf("width staged: robust-14 %v, robust-13 %v", cur.WidthStaged(), old.WidthStaged())
	}
	same := cur
	same.Name, same.Comparison = old.Name, old.Comparison
	if !reflect.DeepEqual(same, old) {
		t.Errorf("robust-14 is %+v, robust-13 %+v: more than its comparison's stage differs", cur, old)
	}
	sameOnRowCases(t, schema.RuleRobust13, schema.RuleRobust14)
	width := rowCase{name: "width", arms: []string{"a", "b"}, rounds: scenarios.Rounds{Min: 5, Max: 30, UntilCIWidth: 0.02}, ran: 12}
	staged := 0
	for seed := range uint64(20) {
		in := rowCampaign(width, seed)
		a, b := analyzeUnder(t, in, schema.RuleRobust13), analyzeUnder(t, in, schema.RuleRobust14)
		va, vb := a.ArmVerdicts[0], b.ArmVerdicts[0]
		if vb.Comparison.Ratio != va.Comparison.Ratio {
			t.Errorf("seed %d: the ratio moved (%v against %v): only the error may", seed, vb.Comparison.Ratio, va.Comparison.Ratio)
		}
		if vb.Comparison.Lo != va.Comparison.Lo {
			staged++
		}
	}
	if staged < 15 {
		t.Errorf("%d of 20 width campaigns' intervals took the first stage's noise", staged)
	}
}
