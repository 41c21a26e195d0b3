package analysis

import (
	"testing"

	"github.com/decodebench/decodebench/schema"
)

func bisectRecord(v schema.Verdict, higher bool, c schema.Comparison) *schema.Record {
	return &schema.Record{Verdict: v, Scenario: schema.ScenarioInfo{Baseline: "reference"}, Analysis: schema.Analysis{
		Results: []schema.MetricResult{{Metric: "m", Primary: true, HigherIsBetter: higher, Arms: []schema.ArmResult{
			{Arm: "reference"}, {Arm: "candidate", Comparison: &c}}}}}}
}

func TestClassifyStep(t *testing.T) {
	const th = 0.05
	for _, tc := range []struct {
		name   string
		v      schema.Verdict
		higher bool
		c      schema.Comparison
		class  schema.BisectClass
		why    schema.BisectWhy
	}{
		{"rate much slower", schema.Valid, true, schema.Comparison{Ratio: 0.8, Lo: 0.78, Hi: 0.82, P: 0.008, Significant: true}, schema.ClassBad, ""},
		{"rate slower below threshold, interval within", schema.Valid, true, schema.Comparison{Ratio: 0.98, Lo: 0.97, Hi: 0.99, P: 0.008, Significant: true}, schema.ClassGood, ""},
		{"rate slower, not significant", schema.Valid, true, schema.Comparison{Ratio: 0.9, Lo: 0.8, Hi: 1.01, P: 0.2}, schema.ClassUndecided, schema.WhyWide},
		{"rate no change, narrow", schema.Inconclusive, true, schema.Comparison{Ratio: 1.0, Lo: 0.99, Hi: 1.01, P: 0.9}, schema.ClassGood, ""},
		{"rate no change, wide", schema.Valid, true, schema.Comparison{Ratio: 1.0, Lo: 0.9, Hi: 1.1, P: 0.9}, schema.ClassUndecided, schema.WhyWide},
		{"rate faster", schema.Valid, true, schema.Comparison{Ratio: 1.3, Lo: 1.2, Hi: 1.4, P: 0.008, Significant: true}, schema.ClassGood, ""},
		{"time longer", schema.Valid, false, schema.Comparison{Ratio: 1.2, Lo: 1.15, Hi: 1.25, P: 0.008, Significant: true}, schema.ClassBad, ""},
		{"time shorter", schema.Valid, false, schema.Comparison{Ratio: 0.8, Lo: 0.75, Hi: 0.85, P: 0.008, Significant: true}, schema.ClassGood, ""},
		{"rejected", schema.Rejected, true, schema.Comparison{Ratio: 0.5, Lo: 0.4, Hi: 0.6, Significant: true}, schema.ClassUndecided, schema.WhyVerdict},
		{"incomplete", schema.Incomplete, true, schema.Comparison{Ratio: 0.5, Lo: 0.4, Hi: 0.6, Significant: true}, schema.ClassUndecided, schema.WhyVerdict},
		{"no interval", schema.Valid, true, schema.Comparison{Ratio: 0.5}, schema.ClassUndecided, schema.WhyNoComparison},
	} {
		got := ClassifyStep(bisectRecord(tc.v, tc.higher, tc.c), "reference", "candidate", th)
		if got.Class != tc.class || got.Why != tc.why {
			t.Errorf("%s: %s (%s), want %s (%s)", tc.name, got.Class, got.Why, tc.class, tc.why)
		}
	}
	// The arms must be the ones the bisect names.
	rec := bisectRecord(schema.Valid, true, schema.Comparison{Ratio: 0.5, Lo: 0.4, Hi: 0.6, Significant: true})
	if got := ClassifyStep(rec, "reference", "other", th); got.Why != schema.WhyNoComparison {
		t.Errorf("unknown candidate arm: %s (%s)", got.Class, got.Why)
	}
	if got := ClassifyStep(rec, "other", "candidate", th); got.Why != schema.WhyNoComparison {
		t.Errorf("baseline not the reference: %s (%s)", got.Class, got.Why)
	}
}

func TestConcludeBisect(t *testing.T) {
	c := []string{"a", "b", "c", "d"}
	G, B, U := schema.ClassGood, schema.ClassBad, schema.ClassUndecided
	for _, tc := range []struct {
		classes map[string]schema.BisectClass
		result  schema.BisectResult
		first   string
		among   int
	}{
		{map[string]schema.BisectClass{}, schema.Unfinished, "", 4},
		{map[string]schema.BisectClass{"d": G}, schema.BadNotBad, "", 0},
		// A bad revision that did not build, or stayed undecided, was not
		// found not slower: each is its own outcome.
		{map[string]schema.BisectClass{"d": U}, schema.BadUndecided, "", 0},
		{map[string]schema.BisectClass{"d": schema.ClassBuildFailed}, schema.BadBuildFailed, "", 0},
		{map[string]schema.BisectClass{"d": B}, schema.Unfinished, "", 4},
		{map[string]schema.BisectClass{"d": B, "b": G, "c": G}, schema.FoundFirstBad, "d", 1},
		{map[string]schema.BisectClass{"d": B, "b": B, "a": G}, schema.FoundFirstBad, "b", 1},
		{map[string]schema.BisectClass{"d": B, "b": B}, schema.Unfinished, "", 2},
		{map[string]schema.BisectClass{"d": B, "b": B, "a": U}, schema.AmbiguousSkipped, "", 2},
		{map[string]schema.BisectClass{"d": B, "a": G, "b": schema.ClassBuildFailed, "c": U}, schema.AmbiguousSkipped, "", 3},
	} {
		o := ConcludeBisect(c, tc.classes)
		if o.Result != tc.result || o.FirstBad != tc.first || len(o.Among) != tc.among {
			t.Errorf("%v: %+v, want %s %q among %d", tc.classes, o, tc.result, tc.first, tc.among)
		}
	}
}
