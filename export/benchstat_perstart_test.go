package export

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/schema"
)

// A run's exported value is the one the analysis reads: its start's, from
// its measured requests (schema.Run.Analysed), not a run-level value its
// requests do not give.
func TestExportWritesTheStartsValue(t *testing.T) {
	rec := &schema.Record{Feature: "spec-draft", Hardware: "xeon", Date: "2026-11-29", Verdict: schema.Valid}
	rec.Scenario.Primary, rec.Scenario.Baseline = "decode_tok_s", "classic"
	rec.Scenario.Arms = []schema.ArmInfo{{Name: "classic"}}
	req := func(v float64) schema.ServedRequest {
		return schema.ServedRequest{Kind: schema.RequestMeasured, Metrics: map[string]float64{"decode_tok_s": v}}
	}
	rec.Runs = []schema.Run{{Seq: 1, Arm: "classic", Start: time.Unix(0, 0),
		Metrics: map[string]float64{"decode_tok_s": 60}, Requests: []schema.ServedRequest{req(100), req(100)}}}
	var buf bytes.Buffer
	if err := Benchstat(&buf, rec, "spec-draft-xeon-2026-11-29"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "arm=classic 1 100.") || strings.Contains(buf.String(), " 60 ") {
		t.Fatalf("export:\n%s\nwant the start's 100 decode-tok/s", buf.String())
	}
}
