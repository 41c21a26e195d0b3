package review

import (
	"math"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// A metric one record has and the other has not is "missing", with the
// median of the record that has it (it printed 0 there) and no test (its
// p was 0, which reads as a certain change).
func TestDiffMissingKeepsTheMedianItHas(t *testing.T) {
	const dir = "../docs/benchmark_results/"
	old, err := recorder.LoadFigures(dir + "h200-cpu-check-h200-2026-11-29.md")
	if err != nil {
		t.Fatal(err)
	}
	nu, err := recorder.LoadFigures(dir + "h200-gpu-window-h200-2026-11-29.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, pair := range []struct {
		old, nu *schema.Record
		oldSide bool
	}{{old, nu, true}, {nu, old, false}} {
		// Force: the CPU check's verdict keeps its numbers from use.
		d := Compare("old.md", pair.old, "new.md", pair.nu, DiffOptions{Threshold: 0.02, Force: true})
		if len(d.Refused) > 0 {
			t.Fatalf("refused: %q", d.Refused)
		}
		found := 0
		for _, m := range d.Metrics {
			if m.Metric != "step_tok_s" {
				continue
			}
			found++
			has, median, n := pair.old, m.OldMedian, m.OldN
			if !pair.oldSide {
				has, median, n = pair.nu, m.NewMedian, m.NewN
			}
			res, _ := has.Result("step_tok_s")
			want := math.NaN()
			for _, a := range res.Arms {
				if a.Arm == m.Arm {
					want = a.Median
				}
			}
			if m.Verdict != NotFound || m.P != 1 || n == 0 || math.Abs(median-want) > 1e-9*math.Abs(want) || (pair.oldSide && m.NewMedian != 0) || (!pair.oldSide && m.OldMedian != 0) {
				t.Errorf("%s step_tok_s: %+v, want missing with the median %v it has and p 1", m.Arm, m, want)
			}
		}
		if found != 2 {
			t.Errorf("%d rows of step_tok_s, want one an arm", found)
		}
	}
}
