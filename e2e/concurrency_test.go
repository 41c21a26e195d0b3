package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/execfile"
	"github.com/decodebench/decodebench/schema"
)

// armMedian is an arm's median of a metric in the record's results.
func armMedian(rec *schema.Record, metric, arm string) (float64, bool) {
	m, ok := rec.Result(metric)
	if !ok {
		return 0, false
	}
	for _, a := range m.Arms {
		if a.Arm == arm {
			return a.Median, a.N > 0
		}
	}
	return 0, false
}

// The shipped sweep on the real llama-server, shortened: every run sends
// its arm's number of streams, which all decode at once and each generate
// the whole request; and batching four streams raises the aggregate decode
// rate over one stream's while lowering each stream's rate (measured here
// at about 250 vs 125 tok/s aggregate and 63 vs 125 tok/s a stream, on
// the quiet 2-core VM). The host is shared: a load burst that lands on
// some arms more than others can upset the medians of a short campaign,
// so a campaign whose medians say otherwise is run once more, as a user
// would; twice in a row fails.
func TestConcurrencySweep(t *testing.T) {
	sweep := func() (*schema.Record, string) {
		code, rec, md, _ := runScenario(t, "llamacpp-concurrency", []string{"--rounds", "3", "--set", "schedule.cooldown=0s",
			"--set", "engine.request.max_tokens=64", "--set", "gates.max_spread=0", "--set", "gates.max_contended=0",
			// A busy host costs one wait (the shipped scenario's is a
			// minute); half a second of quiet a run, not the shipped five.
			"--set", "gates.quiet.max_wait=10s", "--set", "gates.quiet.window=500ms", "--set", "gates.quiet.interval=500ms"},
			"LLAMA_SERVER="+llamaServer, "DECODEBENCH_LOCK="+filepath.Join(t.TempDir(), "host.lock"))
		if code != 0 && code != 2 {
			t.Fatalf("exit %d, verdict %s", code, rec.Verdict)
		}
		return rec, md
	}
	claims := func(rec *schema.Record) string {
		agg1, ok1 := armMedian(rec, schema.AggregateDecodeTokS, "streams1")
		agg4, ok4 := armMedian(rec, schema.AggregateDecodeTokS, "streams4")
		per1, ok5 := armMedian(rec, schema.StreamDecodeTokS, "streams1")
		per4, ok6 := armMedian(rec, schema.StreamDecodeTokS, "streams4")
		if !ok1 || !ok4 || !ok5 || !ok6 {
			t.Fatalf("no aggregate or per-stream results: %+v", rec.Analysis.Results)
		}
		t.Logf("aggregate tok/s: 1 stream %.1f, 4 streams %.1f; per stream: %.1f, %.1f", agg1, agg4, per1, per4)
		if agg4 > agg1 && per4 < per1 {
			return ""
		}
		return fmt.Sprintf("aggregate 4 streams %.1f vs 1 stream %.1f (want higher), per stream %.1f vs %.1f (want lower)", agg4, agg1, per4, per1)
	}
	rec, md := sweep()
	if why := claims(rec); why != "" {
		t.Logf("%s; running the campaign again, as a user would after a load burst", why)
		rec, md = sweep()
		if why := claims(rec); why != "" {
			t.Errorf("twice in a row: %s", why)
		}
	}
	if rec.Verdict != schema.Valid && rec.Verdict != schema.Inconclusive {
		t.Errorf("verdict %s: %+v", rec.Verdict, rec.Analysis.Reasons)
	}
	want := map[string]int{"streams1": 1, "streams2": 2, "streams4": 4}
	for _, r := range rec.Runs {
		if !r.OK() {
			t.Errorf("run %d (%s) failed: %s", r.Seq, r.Arm, r.Error)
			continue
		}
		if len(r.Streams) != want[r.Arm] {
			t.Errorf("run %d (%s): %d streams, want %d", r.Seq, r.Arm, len(r.Streams), want[r.Arm])
		}
		if _, _, ok := analysis.StreamOverlap(r.Streams); !ok {
			t.Errorf("run %d (%s): the streams did not all decode at once: %+v", r.Seq, r.Arm, r.Streams)
		}
		for i, s := range r.Streams {
			if s.Tokens != 64 || s.FirstTokenMs <= s.SentMs || s.LastTokenMs <= s.FirstTokenMs {
				t.Errorf("run %d (%s), stream %d: %+v", r.Seq, r.Arm, i+1, s)
			}
		}
		if c := r.Counters["slots"]; c.Value != float64(want[r.Arm]) {
			t.Errorf("run %d (%s): the server reports %v slots", r.Seq, r.Arm, c.Value)
		}
	}
	if rec.Analysis.Identity == nil {
		t.Error("no identity check: every stream's output is compared with the single stream's")
	}
	for _, s := range []string{"## Concurrent streams", "| `streams4` | 4 | 3 of 3 |", "aggregate tok/s"} {
		if !strings.Contains(md, s) {
			t.Errorf("record lacks %q", s)
		}
	}
}

// A server with fewer slots than streams serves them one after another:
// decodebench refuses that at load for llama-server, so here the same
// server runs through a wrapper it does not know as llama-server. The
// run's streams never all decode at once, and the counter gate REJECTS
// the campaign at its first such run.
func TestConcurrencySerialisedRejected(t *testing.T) {
	needEngine(t)
	dir := t.TempDir()
	server := filepath.Join(dir, "serve")
	if err := execfile.Write(server, []byte("#!/bin/sh\nexec "+shellQuote(llamaServer)+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := fmt.Sprintf(`feature: e2e-serialised
engine:
  command: [%q, -m, %q, --host, 127.0.0.1, --port, "${PORT}", --metrics, -t, "2", -np, "1", -c, "1024", --alias, %s]
  ready: {path: /health, timeout: 60s}
  metrics_path: /metrics
  stop_grace: 2s
  request: {endpoint: /completion, prompt: "Once upon a time", max_tokens: 48, temperature: 0, ignore_eos: true}
arms:
  - {name: one, concurrency: 1}
  - {name: two, concurrency: 2}
baseline: one
allow_unverified: "the arms differ only by their streams; the timing of the streams is the proof under test"
schedule: {rounds: 3, warmup: 0, cooldown: 0s}
unmeasured: [everything but the gate: this is a test]
`, server, filepath.Join(modelDir, "target.gguf"), tag(t))
	code, rec, md, _ := runFile(t, yaml, "DECODEBENCH_LOCK="+filepath.Join(dir, "host.lock"))
	if code != 3 || rec.Verdict != schema.Rejected {
		t.Fatalf("exit %d, verdict %s, want 3 and REJECTED", code, rec.Verdict)
	}
	var ss schema.StreamsSerialised
	ok := len(rec.Analysis.Reasons) > 0
	if ok {
		ss, ok = rec.Analysis.Reasons[0].(schema.StreamsSerialised)
	}
	if !ok || ss.Arm != "two" || ss.Streams != 2 || ss.LatestFirstMs <= ss.EarliestLastMs {
		t.Fatalf("reasons %+v", rec.Analysis.Reasons)
	}
	if !strings.Contains(md, "never all decoded at once") {
		t.Error("the record does not say the streams were serialised")
	}
	if last := rec.Runs[len(rec.Runs)-1]; last.Arm != "two" {
		t.Errorf("the campaign ran on after the gate failed: last run %d (%s)", last.Seq, last.Arm)
	}
}
