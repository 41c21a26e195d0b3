package review

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// forgery is what a forger with a committed record's data folder changes:
// the stored scenario (by overrides, which the record names and its
// hash covers: set, or onFailure's), the record's method and runs
// (record, on a copy), and the logs (each edited, or renamed as runs
// name them).
type forgery struct {
	onFailure string
	set       []string
	record    func(*schema.Record)
	logs      []logEdit
	renames   map[string]string
}

// forgedRuns writes the committed record name forged as f says, its
// logs copied, then every file re-hashed, the analysis derived again and
// the Markdown rendered (writeRecordRuns): a record only a check that
// holds the runs to their harness can tell. It returns the record's
// path.
func forgedRuns(t *testing.T, name string, f forgery) string {
	t.Helper()
	rec, scen, s := committedRecord(t, name)
	if f.onFailure != "" {
		f.set = append(f.set, "on_failure="+f.onFailure)
	}
	if len(f.set) > 0 {
		rec.Scenario.Overrides = append(slices.Clone(rec.Scenario.Overrides), f.set...)
		var err error
		s, _, err = scenarios.Parse(recorder.ScenarioFile, ".", scen, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
		if err != nil {
			t.Fatal(err)
		}
		rec.Scenario.Hash, rec.Method.OnFailure = s.Hash(), s.Policy.Failure
		rec.Method.Warmup = s.Schedule.Warmup
		if rec.Method.Requests > 0 {
			rec.Method.Requests = s.Schedule.Requests
		}
	}
	runs := make([]schema.Run, len(rec.Runs))
	for i, r := range rec.Runs {
		r.Metrics = cloneMap(r.Metrics)
		r.Counters = cloneMap(r.Counters)
		r.Requests = slices.Clone(r.Requests)
		runs[i] = r
	}
	rec.Runs = runs
	if f.record != nil {
		f.record(rec)
	}
	for i, a := range rec.Roofline { // as the harness derives it from the runs
		rate := schema.RunsMedian(rec.Runs, a.Arm, func(r schema.Run) (float64, bool) {
			v, ok := r.Metrics[schema.DecodeTokS]
			return v, ok && v > 0
		})
		rec.Roofline[i].DecodeTokS, rec.Roofline[i].Share = rate, schema.RooflineShare(rate, a.BytesPerToken, a.KVBytesPerToken, a.BandwidthGBs)
	}
	dir := t.TempDir()
	logs := filepath.Join(dir, "data", name, "logs")
	copyTree(t, filepath.Join("..", "docs", "benchmark_results", "data", name, "logs"), logs)
	var tmp []string
	for from, to := range f.renames {
		if err := os.Rename(filepath.Join(logs, from), filepath.Join(logs, to+".tmp")); err != nil {
			t.Fatal(err)
		}
		tmp = append(tmp, to)
	}
	for _, to := range tmp {
		if err := os.Rename(filepath.Join(logs, to+".tmp"), filepath.Join(logs, to)); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range f.logs {
		p := filepath.Join(dir, "data", name, e.log)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(e.edit(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return writeRecordRuns(t, dir, name, rec, scen, s, rec.Runs)
}

// problemsOf checks a record and returns its problems, one a line.
func problemsOf(t *testing.T, path string) string {
	t.Helper()
	var got []string
	for _, p := range Check(path) {
		got = append(got, p.String())
	}
	return strings.Join(got, "\n")
}

// wantProblems fails t unless the problems hold every one of want, or,
// want empty, unless there are none.
func wantProblems(t *testing.T, got string, want ...string) {
	t.Helper()
	if len(want) == 0 && got != "" {
		t.Fatalf("problems:\n%s\nwant none", got)
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("problems:\n%s\nwant one holding %q", got, w)
		}
	}
}
