package e2e

import (
	"strings"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// A settings change is proven like a decoding change: a -t 1 arm against
// -t 2, a log counter over the engine's start-up ("llama threadpool init,
// n_threads = 1"), which neither /props nor the measured window's lines
// say. The campaign is VALID on the real llama-server, every run's reading
// its arm's thread count; an arm whose flag did not take is REJECTED.
func TestSettingsChangeProvenByStartupLog(t *testing.T) {
	counter := `  - name: threads
    log: 'threadpool init, n_threads = (\d+)'
    phase: startup
    expect: {t2: "== 2", t1: "== 1"}
`
	s := scenario{
		Feature:   "e2e-threads",
		Arms:      "  - name: t2\n  - name: t1\n    args: [\"-t\", \"1\"]\n",
		Baseline:  "t2",
		Rounds:    3,
		MaxTokens: 32,
		Counters:  counter,
	}
	res := run(t, s)
	if res.code != 0 || res.record == nil || res.record.Verdict != schema.Valid {
		t.Fatalf("exit %d, want VALID", res.code)
	}
	for _, r := range res.record.Runs {
		want := map[string]float64{"t2": 2, "t1": 1}[r.Arm]
		if c := r.Counters["threads"]; c.Value != want || c.Absent || !strings.Contains(c.Note, "start-up") {
			t.Errorf("run %d (%s): threads %+v, want %v from the start-up", r.Seq, r.Arm, c, want)
		}
	}
	if !strings.Contains(res.md, "over the engine's start-up log, until it was ready") {
		t.Error("the record does not say the counter read the start-up")
	}

	// Another flag than the one the arm claims (the batch threads): the
	// arm runs with two threads, and the campaign is REJECTED.
	s.Arms = "  - name: t2\n  - name: t1\n    args: [\"-tb\", \"1\"]\n"
	res = run(t, s)
	if res.code != 3 || res.record == nil || res.record.Verdict != schema.Rejected {
		t.Fatalf("an arm that ran two threads: exit %d, want REJECTED", res.code)
	}
}
