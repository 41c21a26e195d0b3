package harness

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// fakeExec fills runs with steady values; the counter of arm b reads 0
// (failing "> 0") in the run numbered failAt.
type fakeExec struct{ failAt int }

func (f fakeExec) Execute(_ context.Context, slot Slot, run *schema.Run) error {
	v, cv := 100.0, 0.0
	if slot.Arm == "b" {
		v, cv = 110, 5
		if slot.Seq == f.failAt {
			cv = 0
		}
	}
	run.Metrics = map[string]float64{"decode_tok_s": v + float64(slot.Round%3)*0.1, "wall_s": 1}
	run.Counters = map[string]schema.CounterReading{"c": {Value: cv}}
	run.Output = "same"
	return nil
}

func runFake(t *testing.T, extra string, failAt int) *schema.Record {
	t.Helper()
	c := testCampaign(t, testScenario+extra)
	c.exec = fakeExec{failAt: failAt}
	out := executeTest(t, context.Background(), c)
	if filepath.Dir(out.RecordPath) == "" {
		t.Fatal("no record")
	}
	return out.Record
}

// The progress line of a gate's stop says what stopped the campaign and
// names no verdict, which the analysis gives after it (FAILED where too
// few runs are left): it said "REJECTED whatever follows".
func TestGateFailureStopNamesNoVerdict(t *testing.T) {
	for _, failAt := range []int{2, 3} {
		c := testCampaign(t, testScenario)
		var out bytes.Buffer
		c.progress = NewProgress(&out, false, 0, 0, 0)
		c.exec = fakeExec{failAt: failAt}
		executeTest(t, context.Background(), c)
		line := fmt.Sprintf("run %d failed its counter expectation; stopping the campaign", failAt)
		if !strings.Contains(out.String(), line) {
			t.Errorf("no %q in:\n%s", line, out.String())
		}
		for _, v := range []schema.Verdict{schema.Valid, schema.Rejected, schema.Failed, schema.Inconclusive, schema.Unverified, schema.Incomplete} {
			if strings.Contains(out.String(), string(v)) {
				t.Errorf("the progress names the verdict %s before the analysis:\n%s", v, out.String())
			}
		}
	}
}

// A run that fails its counter expectation stops the campaign there by
// default: the verdict is REJECTED whatever follows, and the runs so far
// are kept.
func TestGateFailureStopsCampaign(t *testing.T) {
	rec := runFake(t, "", 3)
	if len(rec.Runs) != 3 || rec.Verdict != schema.Rejected {
		t.Fatalf("stop: %d runs, verdict %s; want 3 runs, REJECTED", len(rec.Runs), rec.Verdict)
	}
	if !strings.Contains(rec.Method.StoppedBy, "run 3 failed its counter expectation") {
		t.Errorf("stopped by %q", rec.Method.StoppedBy)
	}
	rec = runFake(t, "on_gate_failure: continue\n", 3)
	if len(rec.Runs) != 12 || rec.Verdict != schema.Rejected {
		t.Fatalf("continue: %d runs, verdict %s; want 12 runs, REJECTED", len(rec.Runs), rec.Verdict)
	}
	if rec := runFake(t, "", 0); len(rec.Runs) != 12 || rec.Verdict != schema.Valid {
		t.Fatalf("no failure: %d runs, verdict %s; reasons %v", len(rec.Runs), rec.Verdict, rec.Analysis.Reasons)
	}
}
