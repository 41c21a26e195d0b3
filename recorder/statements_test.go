package recorder

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// robust-11 states exactly what robust-10 rounded or assumed
// (schema.RuleRobust11), and robust-10's records keep their words.
func TestExactStatements(t *testing.T) {
	early := schema.Comparison{Ratio: 0.914, Lo: 0.845, Hi: 0.989, P: 0.0004, Significant: true, N1: 6, N2: 6, Level: 7.05107021947704e-06}
	unpaired := schema.Comparison{N1: 0, N2: 0, P: 1}
	sn := senseOfUnit(true, "tok/s")
	for _, tc := range []struct {
		rule       schema.Rule
		c          schema.Comparison
		want, nope string
	}{
		{schema.RuleRobust10, early, "at level 0", "e-06"},
		{schema.RuleRobust11, early, "p<0.001 at level 7.1e-06", "at level 0"},
		{schema.RuleRobust10, unpaired, "neither arm has a finished run", "rounds"},
		{schema.RuleRobust11, unpaired, "fewer than 2 rounds hold a finished run of both arms (0 do)", "neither"},
	} {
		got := styleOf(tc.rule, false).comparisonSentence(tc.c, sn, true)
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.nope) {
			t.Errorf("%s: %q, want %q and no %q", tc.rule, got, tc.want, tc.nope)
		}
	}
	few := schema.TooFewRuns{Arm: "draft", N1: 1, N2: 1, Min: 3}
	busy := schema.ContendedHost{Contended: schema.Contended{Runs: 4, Judged: 4, ContendedCPU: 0.1, MaxContended: 0.2}}
	for _, tc := range []struct {
		rule   schema.Rule
		rounds int
		r      schema.Reason
		want   string
	}{
		{schema.RuleRobust10, 30, few, "Run at least 3 rounds."},
		{schema.RuleRobust11, 30, few, "The schedule planned 30 rounds: the runs that failed or were not run are under Raw runs."},
		{schema.RuleRobust11, 2, few, "Run at least 3 rounds."},
		{schema.RuleRobust10, 3, busy, "in 4 of 4 runs (100%)"},
		{schema.RuleRobust11, 3, busy, "in 4 of the 4 runs long enough to judge (100%)"},
	} {
		f := styleOf(tc.rule, false)
		f.rounds = tc.rounds
		got := f.reason(tc.r)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s, %d rounds: %q, want %q", tc.rule, tc.rounds, got, tc.want)
		}
	}
}
