package website

import (
	"testing"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/review"
	"github.com/decodebench/decodebench/schema"
)

// A REJECTED record marks a series' plot only when it passes check: one
// that fails check is only what its file claims.
func TestRejectedMarksOnlyChecked(t *testing.T) {
	rec := &schema.Record{Verdict: schema.Rejected, Date: "2026-09-01"}
	rec.Scenario.Hash = "h"
	s := history.Series{ScenarioHash: "h"}
	n := &names{files: map[string]string{}, features: map[string]string{}}
	for _, c := range []struct {
		problems []review.Problem
		marks    int
	}{{nil, 1}, {[]review.Problem{{Section: "Data", Message: "forged"}}, 0}} {
		data := plotsData{Pages: map[string]string{}, Plots: map[string]plotData{}}
		seriesPlots(0, s, []review.FleetRecord{{File: "a.md", Stem: "a", Rec: rec, Problems: c.problems}}, n, &data)
		if len(data.Marked) != c.marks {
			t.Errorf("problems %v: %d marks, want %d", c.problems, len(data.Marked), c.marks)
		}
	}
}
