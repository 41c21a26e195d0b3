package harness

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/schema"
)

// A campaign's host history is the newest analysis.HistoryMaxRecords
// earlier records of its feature, hardware and scenario that pass check,
// from the folder its record goes to; none with fewer than
// analysis.HistoryMinRecords, or without a way to read records.
func TestHostHistoryPicks(t *testing.T) {
	start := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	mk := func(i int) history.Record {
		r := &schema.Record{Feature: "f", Hardware: "hw", Verdict: schema.Valid, Date: "2026-12-02",
			Scenario: schema.ScenarioInfo{Hash: "h", Baseline: "a", Primary: "decode_tok_s"},
			Method:   schema.Method{Started: start.Add(-time.Duration(i+1) * time.Hour)},
			Analysis: schema.Analysis{Results: []schema.MetricResult{{Metric: "decode_tok_s", Primary: true, Arms: []schema.ArmResult{{Arm: "a", Summary: schema.Summary{N: 3, Median: float64(100 + i)}}}}}}}
		return history.Record{Stem: fmt.Sprintf("r%02d", i), Seq: 1, Rec: r}
	}
	var recs []history.Record
	for i := range 30 {
		recs = append(recs, mk(i))
	}
	rec := &schema.Record{Feature: "f", Hardware: "hw", Scenario: schema.ScenarioInfo{Hash: "h", Baseline: "a", Primary: "decode_tok_s"}, Method: schema.Method{Started: start}}
	var read string
	c := &campaign{recPath: "/records/f-hw-2026-12-03.md", rec: rec, opt: Options{Progress: io.Discard,
		Records: func(dir string) ([]history.Record, []error, error) { read = dir; return recs, nil, nil },
		Checked: func(path string) bool { return filepath.Base(path) != "r01.md" }}}
	c.hostHistory()
	h := rec.Method.History
	if read != "/records" || h == nil || len(h.Records) != 20 || h.Records[0].Record != "r00" || h.Records[1].Record != "r02" || h.Records[19].Record != "r20" {
		t.Fatalf("read %s, history %+v: want r00, r02 … r20 (r01 fails check)", read, h)
	}
	recs = recs[:4] // r01 fails check: three left
	c.hostHistory()
	if rec.Method.History != nil {
		t.Errorf("a history of three records: %+v", rec.Method.History)
	}
	c.opt.Records = nil
	c.hostHistory()
	if rec.Method.History != nil {
		t.Error("a history without a way to read records")
	}
}
