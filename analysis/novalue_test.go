package analysis

import (
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// An extra metric that no finished run has a value for is a visible
// warning; one that some run has is not; a v2 record's analysis is derived
// as v2 derived it.
func TestExtraMetricWithoutValueWarns(t *testing.T) {
	p := policy("a", "b")
	p.Metrics = []scenarios.MetricPolicy{
		{Name: schema.DecodeTokS, HigherIsBetter: true},
		{Name: "gbps", Extra: &scenarios.ExtraMetric{Name: "gbps", Expr: "model_bytes * decode_tok_s / 1e9"}},
		{Name: "drafted", Extra: &scenarios.ExtraMetric{Name: "drafted", JSON: "timings.draft_n"}},
	}
	in := campaign(p, 6, level(map[string]float64{"a": 100, "b": 110}), honest)
	for i := range in.Runs {
		if in.Runs[i].Arm == "b" {
			in.Runs[i].Metrics["drafted"] = 10
		}
	}
	a := Analyze(in)
	var got []schema.MetricNoValue
	for _, w := range a.Warnings {
		if m, ok := w.(schema.MetricNoValue); ok {
			got = append(got, m)
		}
	}
	if len(got) != 1 || got[0] != (schema.MetricNoValue{Metric: "gbps", Runs: 12}) {
		t.Errorf("warnings %+v; want gbps without a value in 12 runs, and drafted (one arm has it) not named", a.Warnings)
	}
	in.Campaign.V2 = true
	for _, w := range Analyze(in).Warnings {
		if _, ok := w.(schema.MetricNoValue); ok {
			t.Errorf("a v2 record's analysis gained %+v", w)
		}
	}
}
