package review

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/decodebench/decodebench/internal/safefs"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// bigRecord writes a record of n runs into a temporary folder: a committed
// record's runs repeated, analysed and rendered as the harness does, so
// that it passes check. It returns the record's path.
func bigRecord(tb testing.TB, n int) string {
	tb.Helper()
	rec, scen, _ := committedRecord(tb, craftedName)
	arms := len(rec.Scenario.Arms)
	rounds := n / arms
	base := rec.Runs
	runs := make([]schema.Run, 0, rounds*arms)
	rec.Method.Planned = nil
	// Each repeat of the runs later than the one before, as they ran.
	span := rec.Method.Finished.Sub(rec.Method.Started)
	for i := range rounds * arms {
		r := base[i%len(base)]
		r.Seq, r.Round = i+1, i/arms+1
		r.Start = r.Start.Add(time.Duration(i/len(base)) * span)
		r.Log = schema.RunLog(r.Seq, r.Arm)
		runs = append(runs, r)
		rec.Method.Planned = append(rec.Method.Planned, r.Arm)
	}
	rec.Method.Finished = rec.Method.Started.Add(time.Duration((len(runs)+len(base)-1)/len(base)) * span)
	// The stored scenario run with --rounds, as the campaign would have
	// been: check holds the method to the schedule.
	rec.Scenario.Overrides = append(slices.Clone(rec.Scenario.Overrides), fmt.Sprintf("schedule.rounds=%d", rounds))
	s, _, err := scenarios.Parse(recorder.ScenarioFile, ".", scen, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
	if err != nil {
		tb.Fatal(err)
	}
	rec.Scenario.Hash, rec.Method.Rounds, rec.Method.RoundsRun = s.Hash(), rounds, rounds
	rec.Method.StoppedBy = fmt.Sprintf("fixed schedule of %d rounds", rounds)
	dir := tb.TempDir()
	writeMissingLogs(tb, filepath.Join(dir, "data", craftedName), rec, runs)
	return writeRecordRuns(tb, dir, craftedName, rec, scen, s, runs)
}

// A large record passes check, and a changed runs.jsonl stops it at the
// checksum: no analysis follows an integrity failure.
func TestCheckBigRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("a 2000-run record")
	}
	p := bigRecord(t, 2000)
	if probs := Check(p); len(probs) != 0 {
		t.Fatalf("check: %v", probs)
	}
	runs := filepath.Join(filepath.Dir(p), "data", "spec-draft-epyc-2026-11-29", recorder.RunsFile)
	b, err := safefs.ReadFile(runs, safefs.MaxRuns)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(runs, append(b, b...), 0o644); err != nil {
		t.Fatal(err)
	}
	probs := Check(p)
	if len(probs) != 1 || probs[0].Section != "Raw runs" {
		t.Fatalf("after doubling runs.jsonl: %v, want one checksum problem", probs)
	}
}

// BenchmarkCheckBig checks a 3,000-run record, the most a schedule of
// three arms can run (1,000 rounds; issue 19 measured 20,000 runs, 33.6 s
// before the counting resampler, a record check now refuses as beyond its
// schedule).
func BenchmarkCheckBig(b *testing.B) {
	p := bigRecord(b, 3000)
	b.ResetTimer()
	for b.Loop() {
		if probs := Check(p); len(probs) != 0 {
			b.Fatalf("check: %v", probs[0])
		}
	}
}
