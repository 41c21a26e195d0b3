package plots

import (
	"bytes"
	"slices"
	"testing"
	"time"
)

// Hundreds of records, REJECTED ones and a step draw; the legend names
// the cross and the step line; dense lines drop their intervals; the same
// input gives the same bytes.
func TestTrendFleet(t *testing.T) {
	var pts []TrendPoint
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 400 {
		pts = append(pts, TrendPoint{Date: start.AddDate(0, 0, i/2), Hardware: []string{"epyc", "xeon"}[i%2],
			Ratio: 1 + float64(i%13)/100, Lo: 0.5, Hi: 1.9, Valid: i%3 != 0, Rejected: i%17 == 0})
	}
	steps := []TrendStep{{Date: start.AddDate(0, 0, 100), Hardware: "epyc"}}
	p, marks, entries, err := trend("spec-draft", "decode_tok_s", pts, steps)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.name)
	}
	for _, want := range []string{TrendRejectedLabel, TrendStepLabel} {
		if !slices.Contains(names, want) {
			t.Errorf("legend %q lacks %q", names, want)
		}
	}
	if marks.clipped() {
		t.Error("a dense line's intervals were drawn (and clipped)")
	}
	a, err := PNG(p)
	if err != nil {
		t.Fatal(err)
	}
	p2, _ := Trend("spec-draft", "decode_tok_s", pts, steps)
	b, err := PNG(p2)
	if err != nil || !bytes.Equal(a, b) {
		t.Errorf("the same input gave different bytes (%v)", err)
	}
}
