package analysis_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/synthrecords"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

// A rule is a value: a rule defined in one place, from parts that exist,
// analyses and renders a record that check re-derives byte for byte, with
// no other code knowing its name. Once it is gone, check refuses a record
// that names it.
func TestThrowawayRule(t *testing.T) {
	undo := analysis.Define(analysis.Rule{Name: "throwaway", Comparison: analysis.LogRegression{}, MDE: analysis.RegressionMDE{},
		Control: analysis.EquivalentControl{Margin: 3}, Drift: analysis.RankDrift{}, Looks: analysis.FixedLevel{}, Wording: analysis.SenseWords})
	defer undo()

	dir := t.TempDir()
	paths, err := synthrecords.Generate(synthrecords.Spec{Source: "../docs/benchmark_results/spec-draft-epyc-2026-12-02-2.md", Dir: dir, N: 1,
		Start: time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC), Rule: "throwaway"})
	if err != nil {
		t.Fatal(err)
	}
	if probs := review.Check(paths[0]); len(probs) > 0 {
		t.Fatalf("check of a record of the throwaway rule: %v", probs)
	}
	md, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Statistics (rule `throwaway`)", "A negative control is an equivalence test within ±3%.", "stalled runs trimmed"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("the record lacks %q", want)
		}
	}
	for _, not := range []string{"Drift is an arm's trend relative", "sequential:"} {
		if strings.Contains(string(md), not) {
			t.Errorf("the record says %q of a part the rule does not have", not)
		}
	}

	undo()
	probs := review.Check(paths[0])
	if len(probs) == 0 || !strings.Contains(probs[0].String(), `unknown statistics rule "throwaway"`) {
		t.Errorf("check of a record whose rule is unknown: %v", probs)
	}
	// robust-7 was withdrawn (schema.RuleRobust8 says why): no record may
	// be read by a rule of that name.
	if _, err := analysis.RuleOf("robust-7"); err == nil {
		t.Error("RuleOf knows robust-7")
	}
}

// Every rule a record can name has every part.
func TestRulesComplete(t *testing.T) {
	for _, n := range analysis.Rules() {
		r, err := analysis.RuleOf(n)
		if err != nil {
			t.Fatal(err)
		}
		if r.Name != n || r.Comparison == nil || r.MDE == nil || r.Control == nil || r.Drift == nil || r.Looks == nil {
			t.Errorf("rule %q lacks a part: %+v", n, r)
		}
	}
	if _, err := analysis.RuleOf(schema.RuleCurrent); err != nil {
		t.Errorf("the current rule: %v", err)
	}
}
