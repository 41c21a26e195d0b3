package schema

import "testing"

func TestHigherIsBetter(t *testing.T) {
	rec := &Record{Analysis: Analysis{Results: []MetricResult{
		{Metric: DecodeTokS, HigherIsBetter: false},
		{Metric: "joules", HigherIsBetter: true},
	}}}
	for _, tc := range []struct {
		metric string
		want   bool
	}{
		{DecodeTokS, false}, // as the analysis recorded it, not the registry
		{"joules", true},    // a scenario's own metric
		{E2ETokS, true},     // not in the results: the registry's
		{TTFTms, false},
	} {
		if got := rec.HigherIsBetter(tc.metric); got != tc.want {
			t.Errorf("HigherIsBetter(%s) = %v, want %v", tc.metric, got, tc.want)
		}
	}
}

func TestRunCounts(t *testing.T) {
	rec := &Record{
		Runs: []Run{{Seq: 1}, {Seq: 2, Error: "boom"}, {Seq: 3}, {Seq: 4}},
		// Marks cover the first three runs only: a record cut short.
		Analysis: Analysis{Marks: []Mark{{}, {}, {Dropped: true}}},
	}
	want := []bool{true, false, false, true}
	for i, w := range want {
		if got := rec.RunCounts(i); got != w {
			t.Errorf("RunCounts(%d) = %v, want %v", i, got, w)
		}
	}
}
