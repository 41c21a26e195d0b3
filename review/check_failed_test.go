package review

import (
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/schema"
)

// requestsName is a committed server record that keeps its served
// requests (a warmup and 3 measured ones a start) and what each engine
// loaded.
const requestsName = "spec-draft-epyc-2026-12-05-4"

// lastLine edits a log's text: its last line holding old, old replaced
// by new; new empty drops the line.
func lastLine(old, new string) func(string) string {
	return func(s string) string {
		i := strings.LastIndex(s, old)
		start := strings.LastIndexByte(s[:i], '\n') + 1
		end := i + strings.IndexByte(s[i:], '\n') + 1
		if new == "" {
			return s[:start] + s[end:]
		}
		return s[:i] + new + s[i+len(old):]
	}
}

// A finished run marked failed (its values and log kept, everything
// re-hashed) leaves the statistics under on_failure: continue, where the
// run order cannot tell: it fails check, where it holds what only a run
// past every step that fails a run holds, or, a command engine's, where
// its log shows the measured run exiting well with every value the
// harness reads there. Genuine failures pass: a request that failed, a
// counter not read, libraries that changed, a log that could not be
// closed; a command's lost timing line, lost count, failed exit or
// timeout, and a failed attempt whose slot was retried.
func TestCheckRefusesAFinishedRunMarkedFailed(t *testing.T) {
	const (
		forged = "engine exited before its ready answer: exit status 1"
		eof    = "measured request: event stream: unexpected EOF; the engine exited (exit status 1)"
	)
	at := func(i int, f func(r *schema.Run)) func(*schema.Record) {
		return func(rec *schema.Record) { f(&rec.Runs[i]) }
	}
	// dropped is a command engine's run marked failed, the values its
	// output gave dropped: what a lost line leaves.
	dropped := func(r *schema.Run) {
		r.Error, r.Metrics, r.Counters = forged, map[string]float64{schema.WallS: r.Metrics[schema.WallS]}, nil
		r.Tokens, r.TokenSource, r.Output, r.OutputSHA256 = 0, "", "", ""
	}
	const cliLog = "logs/run-010-t1.log"
	for name, c := range map[string]struct {
		record string
		f      forgery
		want   []string
		none   string // a part no problem holds, where want is not empty
	}{
		"server as written": {record: requestsName},
		"server run marked failed": {record: requestsName, f: forgery{onFailure: "continue", record: at(4, func(r *schema.Run) { r.Error = forged })},
			want: []string{`run 5 (draft) failed ("engine exited before its ready answer: exit status 1"), yet it holds its metrics, every measured request and counter`}},
		"server request failed": {record: requestsName, f: forgery{onFailure: "continue", record: at(4, func(r *schema.Run) {
			*r = failedAttempt(*r, r.Start.Add(time.Second))
			r.Error = eof
		})}},
		"server counter not read": {record: requestsName, f: forgery{onFailure: "continue", record: at(4, func(r *schema.Run) {
			r.Error = "scrape /metrics: connection refused"
			delete(r.Counters, "draft_tokens")
		})}},
		"server libraries changed": {record: requestsName, f: forgery{onFailure: "continue", record: at(4, func(r *schema.Run) {
			r.Error = "arm draft's engine loaded other libraries than in run 1: the code that ran changed mid-campaign"
			r.Loaded = append([]schema.FileSum{{Path: "/usr/lib/libnew.so", SHA256: strings.Repeat("ab", 32)}}, r.Loaded...)
		})}},
		"server log not closed": {record: requestsName, f: forgery{onFailure: "continue",
			record: at(4, func(r *schema.Run) { r.Error = "stop engine: close: input/output error" }),
			logs:   []logEdit{{log: "logs/run-005-draft.log", edit: lastLine(engine.MarkerPrefix, "")}}}},
		"server log closed, error of its closing": {record: requestsName, f: forgery{onFailure: "continue",
			record: at(4, func(r *schema.Run) { r.Error = "stop engine: close: input/output error" })},
			want: []string{`run 5 (draft) failed ("stop engine: close: input/output error"), yet it holds`}},
		"command run marked failed": {record: evidenceName, f: forgery{onFailure: "continue", record: at(9, func(r *schema.Run) { r.Error = forged })},
			want: []string{"run 10 (t1) failed", "yet it holds its primary metric, token count and every counter, and names no lost count"}},
		"command run marked failed, its values dropped": {record: evidenceName, f: forgery{onFailure: "continue", record: at(9, dropped)},
			want: []string{"run 10 (t1) failed", "yet its log logs/run-010-t1.log shows the measured run exiting with status 0 and printing its decode_tok_s"}},
		"command timing line lost": {record: evidenceName, f: forgery{onFailure: "continue", record: at(9, dropped),
			logs: []logEdit{{log: cliLog, edit: lastLine("common_perf_print:        eval time", "")}}}},
		// The record is of the first rule, whose builds wrote no lost
		// count: check names that (its writer), and nothing of the run.
		"command count lost": {record: evidenceName, f: forgery{onFailure: "continue", record: at(9, func(r *schema.Run) { dropped(r); r.LostCount = "threads" }),
			logs: []logEdit{{log: cliLog, edit: lastLine("system_info: n_threads", "")}}},
			want: []string{"cannot be its writer's: the record holds a lost count"}, none: "run 10"},
		"command exited 1": {record: evidenceName, f: forgery{onFailure: "continue", record: at(9, dropped),
			logs: []logEdit{{log: cliLog, edit: lastLine("exited (exit status 0)", "exited (exit status 1)")}}}},
		"command timed out": {record: evidenceName, f: forgery{onFailure: "continue", record: at(9, dropped),
			logs: []logEdit{{log: cliLog, edit: lastLine("measured window end", "stopping: the command did not finish within 2m0s")}}}},
		"command attempt retried": {record: evidenceName, f: forgery{record: func(rec *schema.Record) {
			rec.Runs = retried(rec.Runs, 9, 1)
			dropped(&rec.Runs[9])
		}}},
	} {
		t.Run(name, func(t *testing.T) {
			got := problemsOf(t, forgedRuns(t, c.record, c.f))
			wantProblems(t, got, c.want...)
			if c.none != "" && strings.Contains(got, c.none) {
				t.Errorf("problems:\n%s\nwant none of %q", got, c.none)
			}
		})
	}
}
