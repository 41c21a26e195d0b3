package website

import (
	"fmt"
	"slices"
	"strings"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/review"
)

// Regimes is the feature's regime table (history.Regimes over its records
// that pass check) as a HardwareTable, for Options.Regimes: the scenario
// with the most hardware, one row per hardware with its latest VALID
// record, each arm's ratio to the baseline with its interval, the GPU, the
// engine build and the share of the hardware's limit; the caption says
// whether the result holds across the hardware or depends on the regime.
// Nil when no scenario of the feature ran on two hardware.
func Regimes(feature string, f *review.Fleet) *HardwareTable {
	var recs []history.Record
	for _, r := range f.Records[feature] {
		if r.Counts() {
			recs = append(recs, history.Record{Stem: r.Stem, Seq: r.Seq, Rec: r.Rec})
		}
	}
	var best *history.RegimeTable
	tables := history.Regimes(recs, feature)
	for i := range tables {
		if best == nil || len(tables[i].Rows) > len(best.Rows) {
			best = &tables[i]
		}
	}
	if best == nil || len(best.Rows) < 2 {
		return nil
	}
	word := "no regime dependence shown across these hardware"
	if best.Dependent {
		var pairs []string
		for _, s := range best.Splits {
			pairs = append(pairs, fmt.Sprintf("%s: %s against %s (%s)", s.Arm, s.HardwareA, s.HardwareB, s.Kind))
		}
		word = "regime-dependent: " + strings.Join(pairs, "; ")
	}
	t := &HardwareTable{
		Caption: fmt.Sprintf("Regimes of scenario %.12s (%s vs %s): %s", best.ScenarioHash, best.Metric, best.Baseline, word),
		Columns: []string{"latest VALID record", "verdict"},
	}
	for _, a := range best.Arms {
		t.Columns = append(t.Columns, a+" / "+best.Baseline)
	}
	t.Columns = append(t.Columns, "GPU", "power mode", "engine", "share of the hardware's limit")
	for _, r := range best.Rows {
		cells := []string{dash(r.Record), string(r.Verdict)}
		if r.Newer != nil {
			cells[1] += fmt.Sprintf("; newer: %s (%s)", r.Newer.Verdict, r.Newer.Record)
		}
		for _, arm := range best.Arms {
			cells = append(cells, regimeArm(r, arm))
		}
		gpu := r.GPU
		if gpu == "" && r.CPU != "" {
			gpu = "none (CPU: " + r.CPU + ")"
		}
		var shares []string
		for _, x := range r.Roofline {
			shares = append(shares, x.Arm+" "+review.ShareText(x, slices.Contains(r.Drafts, x.Arm)))
		}
		cells = append(cells, dash(gpu), dash(r.PowerMode), dash(r.Engine), dash(strings.Join(shares, ", ")))
		t.Rows = append(t.Rows, HardwareRow{Hardware: r.Hardware, Cells: cells})
	}
	return t
}

func regimeArm(r history.RegimeRow, arm string) string {
	for _, a := range r.Arms {
		if a.Arm != arm {
			continue
		}
		s := fmt.Sprintf("%.3f×", a.Ratio)
		if a.Lo != 0 || a.Hi != 0 {
			s += fmt.Sprintf(" [%.3f, %.3f]", a.Lo, a.Hi)
		}
		if !a.Significant {
			s += " ~"
		}
		if a.Control {
			s += " (control)"
		}
		return s
	}
	return "—"
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
