package harness

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// Key=value diagnostic lines in the form the seed project's server writes
// them (the brief, §3): counters and metrics read only the measured
// window, so the start-up warm-up line with rounds=0 is never evidence,
// and a decline line is found.
func TestDiagnosticLinesInTheWindow(t *testing.T) {
	log, err := engine.NewLog(filepath.Join(t.TempDir(), "e.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	log.Write([]byte("INFO DFlash diagnostics block_size=4 rounds=0 proposed_tokens=0 accepted_tokens=0\n"))
	log.BeginWindow()
	log.Write([]byte("INFO DFlash diagnostics block_size=4 rounds=79 proposed_tokens=316 accepted_tokens=152\n"))
	log.Write([]byte("INFO MTP round-loop diagnostics rounds=12 accepted=30\n"))
	log.Write([]byte("WARN MTP declined: verify batch too large, falling back to classic\n"))
	window := log.EndWindow(0, 0)

	rounds, err := engine.NewCounter(scenarios.CounterPolicy{Name: "rounds", Kind: schema.SourceLog, Expr: `DFlash diagnostics .*\brounds=(\d+)`})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := rounds.Read(engine.Observation{Window: window})
	if err != nil || rd.Value != 79 || rd.Absent {
		t.Errorf("rounds in the window = %+v, %v; want 79 (the start-up rounds=0 line is outside it)", rd, err)
	}
	accepted := regexp.MustCompile(`\baccepted(?:_tokens)?=(\d+)`)
	for how, want := range map[string]float64{"last": 30, "sum": 182, "mean": 91} {
		if v, ok := engine.Aggregate(accepted, window, how); !ok || v != want {
			t.Errorf("%s of accepted = %v, %v; want %v", how, v, ok, want)
		}
	}
	d := declines(regexp.MustCompile(`declined|falling back to classic`), window)
	if len(d) != 1 || d[0] != "WARN MTP declined: verify batch too large, falling back to classic" {
		t.Errorf("declines %q", d)
	}
	if declines(nil, window) != nil {
		t.Error("no pattern, yet declines")
	}
}

// The scenario guide's metrics (docs/guide/writing-scenarios.md), read
// from a reply the way a run reads them: the GB/s expression (1e9 is a
// number) has a value when the model's size and the decode rate do; an
// expression may use one declared after it; an input without a value (no
// token count, no model file) leaves the metric without one, never a 0.
func TestExtraMetricsFromARun(t *testing.T) {
	src := `feature: x
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: hi, max_tokens: 8}
arms: [{name: a}, {name: b, args: [-x]}]
baseline: a
allow_unverified: test
unmeasured: [Prefill.]
metrics:
  extra:
    - {name: per_token, expr: "gbps / tokens"}
    - {name: gbps, unit: GB/s, expr: "model_bytes * decode_tok_s / 1e9"}
    - {name: drafted, unit: tok, json: timings.draft_n}
    - {name: accepted, unit: tok, json: timings.draft_n_accepted}
    - {name: acceptance, better: higher, expr: "accepted / drafted"}
`
	s, _, err := scenarios.Parse("x.yaml", t.TempDir(), []byte(src), scenarios.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	c := &campaign{rec: &schema.Record{Engine: schema.EngineInfo{Models: []schema.ModelFile{{Bytes: 2_000_000_000}}}}}
	c.extra, _ = newExtraMetrics(s.Policy)
	run := &schema.Run{Tokens: 4, Metrics: map[string]float64{schema.DecodeTokS: 50}}
	c.readExtraMetrics(engine.Observation{Reply: map[string]any{"timings": map[string]any{"draft_n": 8.0, "draft_n_accepted": 6.0}}}, run)
	want := map[string]float64{schema.DecodeTokS: 50, "gbps": 100, "per_token": 25, "drafted": 8, "accepted": 6, "acceptance": 0.75}
	if len(run.Metrics) != len(want) {
		t.Errorf("metrics %v, want %v", run.Metrics, want)
	}
	for k, v := range want {
		if run.Metrics[k] != v {
			t.Errorf("%s = %v, want %v", k, run.Metrics[k], v)
		}
	}

	c.rec.Engine.Models = nil
	run = &schema.Run{Metrics: map[string]float64{schema.DecodeTokS: 50}}
	c.readExtraMetrics(engine.Observation{Reply: map[string]any{}}, run)
	if len(run.Metrics) != 1 {
		t.Errorf("without a model file, token count or reply fields: %v; want decode_tok_s only", run.Metrics)
	}
}
