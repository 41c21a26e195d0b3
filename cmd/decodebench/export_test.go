package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
	"golang.org/x/perf/benchfmt"
)

// The export is valid Go benchmark format: benchfmt (what benchstat reads)
// parses one result per finished run, with the arm as a sub-benchmark and
// every metric as a unit.
func TestExportBenchstat(t *testing.T) {
	rec := &schema.Record{Feature: "spec-draft", Hardware: "xeon", Date: "2026-11-29", Verdict: schema.Valid}
	rec.Scenario.Primary, rec.Scenario.Baseline = "decode_tok_s", "classic"
	rec.Scenario.Arms = []schema.ArmInfo{{Name: "draft"}, {Name: "classic"}}
	for i, arm := range []string{"draft", "classic", "classic", "draft"} {
		rec.Runs = append(rec.Runs, schema.Run{Seq: i + 1, Arm: arm, Start: time.Unix(0, 0),
			Metrics: map[string]float64{"decode_tok_s": 100 + float64(i), "ttft_ms": 12.5, "e2e_tok_s": 90, "wall_s": 1.2}})
	}
	rec.Runs = append(rec.Runs, schema.Run{Seq: 5, Arm: "draft", Error: "failed"})
	var buf bytes.Buffer
	if err := writeBenchstat(&buf, rec, "spec-draft-xeon-2026-11-29-3"); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(&buf, "export")
	n := 0
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		n++
		name := string(res.Name)
		if n == 1 && name != "SpecDraft/arm=classic" {
			t.Errorf("first result %q: the baseline must come first, benchstat compares against the first", name)
		}
		if got := res.GetConfig("decodebench-record"); got != "spec-draft-xeon-2026-11-29-3" {
			t.Errorf("label %q, want the record's file stem", got)
		}
		if name != "SpecDraft/arm=classic" && name != "SpecDraft/arm=draft" {
			t.Errorf("name %q", name)
		}
		if v, ok := res.Value("decode-tok/s"); !ok || v < 100 {
			t.Errorf("%s: decode-tok/s %v %v", name, v, ok)
		}
		if len(res.Values) != 4 {
			t.Errorf("%s: %d values", name, len(res.Values))
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("%d results, want 4 (the failed run is left out)", n)
	}
}
