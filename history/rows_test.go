package history_test

import (
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/recorder"
)

// A row's ratio, interval and p on the primary metric are the verdict's
// (at the level the arm was judged at: this record's Holm step at a
// sequential look, 0.0056), as history --json reads them; they were the
// results' at 1 − alpha, another interval for the same ratio.
func TestRowsOfThePrimaryMetricAreTheVerdicts(t *testing.T) {
	const stem = "spec-draft-epyc-2026-12-05"
	rec, err := recorder.ParseFile(filepath.Join("..", "docs", "benchmark_results", stem+".md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := history.Rows([]history.Record{{Stem: stem, Rec: rec}})
	seen := 0
	for _, v := range rec.Analysis.ArmVerdicts {
		for _, r := range rows {
			if r.Arm != v.Arm || !r.Primary {
				continue
			}
			seen++
			c := v.Comparison
			if r.Ratio != c.Ratio || r.RatioLo != c.Lo || r.RatioHi != c.Hi || r.RatioConfidence != c.Confidence || r.P != c.P {
				t.Errorf("%s: row %v [%v, %v] at %v, p %v; the verdict's %v [%v, %v] at %v, p %v", v.Arm, r.Ratio, r.RatioLo, r.RatioHi, r.RatioConfidence, r.P, c.Ratio, c.Lo, c.Hi, c.Confidence, c.P)
			}
			if c.Confidence <= 0.99 {
				t.Errorf("%s: judged at %v, which this record does not: the test tests nothing", v.Arm, c.Confidence)
			}
		}
	}
	if seen != 2 {
		t.Errorf("%d primary rows of judged arms, want 2 (draft, control)", seen)
	}
}
