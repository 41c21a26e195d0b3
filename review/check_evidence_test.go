package review

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/redact"
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
func forgedFromLogs(t *testing.T, edit func([]schema.Run), logs ...logEdit) string {
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
	for _, e := range logs {
		p := filepath.Join(dir, "data", evidenceName, e.log)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if e.remove {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(e.edit(string(b))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return writeRecordRuns(t, dir, evidenceName, rec, scen, s, runs)
}

// logEdit edits one of the copied logs, named as runs name it.
type logEdit struct {
	log    string
	edit   func(string) string
	remove bool
}

// lastWindow edits a log's text at the start of its last measured window.
func lastWindow(insert string) func(string) string {
	return func(s string) string {
		i := strings.LastIndex(s, "measured window start\n") + len("measured window start\n")
		return s[:i] + insert + s[i:]
	}
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
		logs []logEdit
	}{
		"as written": {func([]schema.Run) {}, nil, nil},
		// arm t1 printed n_threads = 1; its expectation is == 1.
		"counter": {func(runs []schema.Run) {
			r := lastOf(runs, "t1")
			r.Counters["threads"] = schema.CounterReading{Value: 2, Note: r.Counters["threads"].Note}
		}, []string{"(t1): counters.threads.value is 2; its log logs/run-", " gives 1"}, nil},
		"metric": {func(runs []schema.Run) {
			r := lastOf(runs, "t1")
			rate, r.Metrics["decode_tok_s"] = r.Metrics["decode_tok_s"], 999.5
		}, []string{"(t1): metrics.decode_tok_s is 999.5; its log logs/run-", " gives "}, nil},
		"tokens": {func(runs []schema.Run) { lastOf(runs, "t2").Tokens = 7 }, []string{"(t2): tokens is 7; its log", " gives 63"}, nil},
		// A cut the log does not show turned re-deriving off.
		"cut log": {func(runs []schema.Run) {
			r := lastOf(runs, "t1")
			r.Metrics["decode_tok_s"] = 999.5
			r.EngineOutput = &schema.EngineOutput{WindowBytes: 1, LogCutBytes: 1}
		}, []string{"(t1): its log logs/run-010-t1.log shows no cut of 1 bytes"}, nil},
		"cut marker": {func(runs []schema.Run) { lastOf(runs, "t1").Metrics["decode_tok_s"] = 999.5 },
			[]string{"run-010-t1.log is not a finished run's log: a cut marker that no log writes"},
			[]logEdit{{log: "logs/run-010-t1.log", edit: func(s string) string {
				return s + engine.MarkerPrefix + "2026-11-29T18:37:59.1Z engine output cut: 0 bytes\n"
			}}}},
		// A redacted line hides only its secret's text.
		"redacted line": {func(runs []schema.Run) { lastOf(runs, "t1").Counters["threads"] = schema.CounterReading{Value: 2} },
			[]string{"(t1): counters.threads.value is 2; its log logs/run-010-t1.log gives 1"},
			[]logEdit{{log: "logs/run-010-t1.log", edit: lastWindow("SECRET=" + redact.Mask + "\n")}}},
		"redacted value": {func([]schema.Run) {}, nil,
			[]logEdit{{log: "logs/run-010-t1.log", edit: func(s string) string {
				i := strings.LastIndex(s, "system_info: n_threads = 1") + len("system_info: n_threads = ")
				return s[:i] + redact.Mask + s[i+1:]
			}}}},
		"marker in window": {func(runs []schema.Run) { lastOf(runs, "t1").Counters["threads"] = schema.CounterReading{Value: 2} },
			[]string{"run-010-t1.log is not a finished run's log: a marker line inside the measured window"},
			[]logEdit{{log: "logs/run-010-t1.log", edit: lastWindow(engine.MarkerPrefix + "2026-11-29T18:37:59.1Z warmup request 1\n")}}},
		"no window end": {func(runs []schema.Run) { lastOf(runs, "t1").Counters["threads"] = schema.CounterReading{Value: 2} },
			[]string{"run-010-t1.log is not a finished run's log: the log's last measured window does not end"},
			[]logEdit{{log: "logs/run-010-t1.log", edit: func(s string) string {
				i := strings.LastIndex(s, engine.MarkerPrefix)
				return s[:strings.LastIndex(s[:i], engine.MarkerPrefix)]
			}}}},
		// Every finished run's values are read from its own log.
		"no log": {func(runs []schema.Run) { lastOf(runs, "t1").Log = "" },
			[]string{"run 10 (t1) names no engine log; the harness names logs/run-010-t1.log"}, nil},
		"another run's log": {func(runs []schema.Run) { lastOf(runs, "t1").Log = "logs/run-007-t1.log" },
			[]string{"run 10 (t1) names the engine log logs/run-007-t1.log; the harness names its logs/run-010-t1.log"}, nil},
		"log removed": {func([]schema.Run) {}, []string{"run 10 (t1): its engine log logs/run-010-t1.log is not among the record's files"},
			[]logEdit{{log: "logs/run-010-t1.log", remove: true}}},
		// The generated text is read again from the window's lines.
		"output": {func(runs []schema.Run) {
			r := lastOf(runs, "t1")
			r.Output = "Once upon a time there was a forged output"
			r.OutputSHA256 = sha(r.Output)
		}, []string{`(t1): output is "Once upon a time there was a forged output"; its log logs/run-010-t1.log gives`}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, p := range Check(forgedFromLogs(t, c.edit, c.logs...)) {
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
