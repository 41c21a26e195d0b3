package review

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// evidenceName is a committed command-engine record: its decode rate and
// token count are read from llama-completion's lines, its threads counter
// from a log: pattern, and every run's log is stored whole.
const evidenceName = "cli-threads-epyc-2026-11-29"

// forgedFromLogs writes the committed command-engine record with its runs
// edited by edit, its logs copied as they are, then everything re-hashed,
// the analysis derived again and the Markdown rendered (writeRecordRuns):
// only a check that reads the logs can tell.
func forgedFromLogs(t *testing.T, edit func([]schema.Run)) string {
	t.Helper()
	rec, scen, s := committedRecord(t, evidenceName)
	runs := make([]schema.Run, len(rec.Runs))
	for i, r := range rec.Runs {
		r.Metrics = cloneMap(r.Metrics)
		r.Counters = cloneMap(r.Counters)
		runs[i] = r
	}
	edit(runs)
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "docs", "benchmark_results", "data", evidenceName, "logs"), filepath.Join(dir, "data", evidenceName, "logs"))
	return writeRecordRuns(t, dir, evidenceName, rec, scen, s, runs)
}

func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// A counter value and a command engine's metric edited in runs.jsonl, the
// record re-hashed and re-rendered, fail check, each named with the run,
// the field, the stored value and the one its log gives; the record as
// written passes; and a run whose log was cut says nothing.
func TestCheckRederivesValuesFromLogs(t *testing.T) {
	lastOf := func(runs []schema.Run, arm string) *schema.Run {
		for i := len(runs) - 1; i >= 0; i-- {
			if runs[i].Arm == arm && runs[i].OK() {
				return &runs[i]
			}
		}
		t.Fatalf("no run of arm %s", arm)
		return nil
	}
	var rate float64 // the decode rate the edited run's log gives
	for name, c := range map[string]struct {
		edit func([]schema.Run)
		want []string
	}{
		"as written": {func([]schema.Run) {}, nil},
		// arm t1 printed n_threads = 1; its expectation is == 1.
		"counter": {func(runs []schema.Run) {
			r := lastOf(runs, "t1")
			r.Counters["threads"] = schema.CounterReading{Value: 2, Note: r.Counters["threads"].Note}
		}, []string{"(t1): counters.threads.value is 2; its log logs/run-", " gives 1"}},
		"metric": {func(runs []schema.Run) {
			r := lastOf(runs, "t1")
			rate, r.Metrics["decode_tok_s"] = r.Metrics["decode_tok_s"], 999.5
		}, []string{"(t1): metrics.decode_tok_s is 999.5; its log logs/run-", " gives "}},
		"tokens": {func(runs []schema.Run) { lastOf(runs, "t2").Tokens = 7 }, []string{"(t2): tokens is 7; its log", " gives 63"}},
		"cut log": {func(runs []schema.Run) {
			r := lastOf(runs, "t1")
			r.Metrics["decode_tok_s"] = 999.5
			r.EngineOutput = &schema.EngineOutput{WindowBytes: 1, LogCutBytes: 1}
		}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, p := range Check(forgedFromLogs(t, c.edit)) {
				got = append(got, p.String())
			}
			all := strings.Join(got, "\n")
			if name == "metric" && !strings.Contains(all, fmt.Sprintf(" gives %v", rate)) {
				t.Errorf("problems:\n%s\nwant the stored rate %v as the one the log gives", all, rate)
			}
			if c.want == nil && len(got) > 0 {
				t.Fatalf("problems %v, want none", got)
			}
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("problems:\n%s\nwant one holding %q", all, w)
				}
			}
		})
	}
}
