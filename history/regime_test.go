package history_test

import (
	"testing"
	"time"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/schema"
)

type arm struct {
	name          string
	ratio, lo, hi float64
	control       bool
}

// rec is a record of feature f on hw with the arms' ratios to "classic".
func rec(hw, date string, v schema.Verdict, hash string, arms ...arm) history.Record {
	r := &schema.Record{Feature: "spec", Hardware: hw, Date: date, Verdict: v,
		Scenario: schema.ScenarioInfo{Hash: hash, Baseline: "classic", Primary: "decode_tok_s"},
		Method:   schema.Method{MinEffect: 0.05, Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
		Engine:   schema.EngineInfo{Version: "version: 1 (abc)\nbuilt with cc", SHA256: "e" + hw}}
	for _, a := range arms {
		r.Analysis.ArmVerdicts = append(r.Analysis.ArmVerdicts, schema.ArmVerdict{Arm: a.name, Control: a.control,
			Comparison: schema.Comparison{Ratio: a.ratio, Lo: a.lo, Hi: a.hi, Confidence: 0.95, Significant: true}})
	}
	return history.Record{Stem: "spec-" + hw + "-" + date, Seq: 1, Rec: r}
}

func splitsOf(t history.RegimeTable) map[string]history.SplitKind {
	out := map[string]history.SplitKind{}
	for _, s := range t.Splits {
		out[s.Arm+" "+s.HardwareA+"/"+s.HardwareB] = s.Kind
	}
	return out
}

// One row per hardware from its latest VALID record; a result is
// regime-dependent where an arm's intervals on two hardware exclude each
// other and the larger ratio is min_effect or more above the smaller: a
// change of sign (1.19× against 0.70×) or of size (1.50× against 1.19×);
// not where the intervals overlap, nor where they exclude each other by
// less than min_effect, nor for a control arm.
func TestRegimes(t *testing.T) {
	recs := []history.Record{
		rec("m5max", "2026-01-02", schema.Valid, "h1", arm{"draft", 1.19, 1.10, 1.25, false}, arm{"copy", 1.0, 0.98, 1.01, true}),
		rec("m5max", "2026-01-01", schema.Valid, "h1", arm{"draft", 0.5, 0.45, 0.55, false}), // older: not the row
		rec("m1ultra", "2026-01-02", schema.Valid, "h1", arm{"draft", 0.70, 0.65, 0.76, false}, arm{"copy", 0.90, 0.88, 0.92, true}),
		rec("m1ultra", "2026-01-05", schema.Inconclusive, "h1", arm{"draft", 0.2, 0.1, 0.3, false}), // newer, not VALID
		rec("h200", "2026-01-02", schema.Valid, "h1", arm{"draft", 1.50, 1.40, 1.60, false}),
		rec("m4", "2026-01-02", schema.Valid, "h1", arm{"draft", 1.22, 1.12, 1.30, false}),   // overlaps m5max
		rec("m3", "2026-01-02", schema.Valid, "h1", arm{"draft", 1.255, 1.252, 1.26, false}), // excludes m4 by less than 5%
		rec("epyc", "2026-01-03", schema.Rejected, "h1"),
		rec("m5max", "2026-01-02", schema.Valid, "h2", arm{"draft", 2, 1.9, 2.1, false}),
	}
	tables := history.Regimes(recs, "spec")
	if len(tables) != 2 || tables[0].ScenarioHash != "h1" || tables[1].ScenarioHash != "h2" {
		t.Fatalf("tables %+v, want h1 (six hardware) then h2", tables)
	}
	h1 := tables[0]
	var hws []string
	for _, r := range h1.Rows {
		hws = append(hws, r.Hardware)
	}
	if got := fmtList(hws); got != "epyc h200 m1ultra m3 m4 m5max" {
		t.Errorf("rows %s", got)
	}
	row := func(hw string) history.RegimeRow {
		for _, r := range h1.Rows {
			if r.Hardware == hw {
				return r
			}
		}
		t.Fatalf("no row %s", hw)
		return history.RegimeRow{}
	}
	if r := row("m5max"); r.Record != "spec-m5max-2026-01-02" || r.Records != 2 || r.Arms[0].Ratio != 1.19 || r.Engine != "version: 1 (abc)" || r.Newer != nil {
		t.Errorf("m5max row %+v", r)
	}
	if r := row("m1ultra"); r.Record != "spec-m1ultra-2026-01-02" || r.Newer == nil || r.Newer.Verdict != schema.Inconclusive {
		t.Errorf("m1ultra row %+v: want its VALID record and the newer INCONCLUSIVE one named", r)
	}
	if r := row("epyc"); r.Record != "" || r.Verdict != schema.Rejected || len(r.Arms) != 0 {
		t.Errorf("epyc row %+v: want no VALID record", r)
	}
	want := map[string]history.SplitKind{
		"draft h200/m1ultra": history.SplitSign, "draft h200/m3": history.SplitSize, "draft h200/m4": history.SplitSize, "draft h200/m5max": history.SplitSize,
		"draft m1ultra/m3": history.SplitSign, "draft m1ultra/m4": history.SplitSign, "draft m1ultra/m5max": history.SplitSign,
		"draft m3/m5max": history.SplitSize,
	}
	got := splitsOf(h1)
	if len(got) != len(want) || !h1.Dependent {
		t.Errorf("splits %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("split %s: %q, want %q", k, got[k], v)
		}
	}
	if h2 := tables[1]; h2.Dependent || len(h2.Rows) != 1 {
		t.Errorf("one hardware: %+v", h2)
	}
	if len(history.Regimes(recs, "other")) != 0 {
		t.Error("tables of another feature")
	}
}

func fmtList(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
