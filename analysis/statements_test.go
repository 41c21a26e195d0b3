package analysis

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/decodebench/decodebench/schema"
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
	for _, c := range rowCases {
		for seed := range uint64(20) {
			in := rowCampaign(c, seed)
			a, b := analyzeUnder(t, in, schema.RuleRobust11), analyzeUnder(t, in, schema.RuleRobust12)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s, seed %d: robust-12 analysed %+v, robust-11 %+v", c.name, seed, b, a)
			}
		}
	}
}
