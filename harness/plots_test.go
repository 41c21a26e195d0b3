package harness

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/decodebench/decodebench/plots"
	"github.com/decodebench/decodebench/schema"
)

// The figures get the record's marks, the metric's readable name, its unit
// and direction from the result, and each arm's verdict in the recorder's
// words.
func TestPlotInputs(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rec := &schema.Record{
		Runs: []schema.Run{
			{Seq: 1, Arm: "a", Start: t0, Seconds: 2, Metrics: map[string]float64{"lat": 10}},
			{Seq: 2, Arm: "b", Start: t0.Add(3 * time.Second), Seconds: 2, Metrics: map[string]float64{"lat": 12}},
			{Seq: 3, Arm: "b", Start: t0.Add(6 * time.Second), Seconds: 2, Metrics: map[string]float64{"lat": 30}},
			{Seq: 4, Arm: "a", Start: t0.Add(9 * time.Second), Error: "boom"},
		},
		Analysis: schema.Analysis{
			Marks: []schema.Mark{{Seq: 1, Contended: true}, {Seq: 2}, {Seq: 3, Outlier: true}, {Seq: 4}},
			Results: []schema.MetricResult{{Metric: "lat", Unit: "ms", Primary: true, HigherIsBetter: false,
				Arms: []schema.ArmResult{{Arm: "a", Summary: schema.Summary{Median: 10}}, {Arm: "b", Summary: schema.Summary{Median: 12}}}}},
			ArmVerdicts: []schema.ArmVerdict{{Arm: "b", Comparison: schema.Comparison{Ratio: 1.2, Lo: 1.1, Hi: 1.3, Significant: true}}},
		},
	}
	runs := plotRuns(rec, "lat")
	if len(runs) != 4 || !runs[0].Contended || runs[1].Contended || !runs[2].Outlier || !math.IsNaN(runs[3].Value) || runs[1].End != t0.Add(5*time.Second) {
		t.Errorf("runs = %+v", runs)
	}
	spec := plotSpec(rec, "lat", []string{"a", "b"}, "a")
	want := plots.Spec{Metric: "lat", Unit: "ms", Label: "lat", Arms: []string{"a", "b"}, Baseline: "a", BaselineMedian: 10,
		Annotations: []plots.Annotation{{Arm: "b", Text: "+20.0% slower [+10.0%, +30.0%]"}}}
	if !reflect.DeepEqual(spec, want) {
		t.Errorf("spec = %+v\nwant %+v", spec, want)
	}
	if got := plotSpec(&schema.Record{}, schema.DecodeTokS, nil, "").Label; got != "decode rate" {
		t.Errorf("label = %q", got)
	}
}
