package export

import (
	"bytes"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// What benchstat reads from an export compares against the scenario's
// baseline and moves in the record's direction for every metric, even when
// the baseline is neither the first arm listed nor the first to run.
func TestExportDirectionMatchesRecord(t *testing.T) {
	src := []byte(`feature: spec-draft
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: p, max_tokens: 8}
arms:
  - {name: draft, args: [--spec-type, draft-simple]}
  - {name: classic}
baseline: classic
schedule: {rounds: 6, order: random, seed: 3}
allow_unverified: test
unmeasured: [everything]
`)
	s, _, err := scenarios.Parse("t.yaml", ".", src, scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := &schema.Record{Feature: "spec-draft", Verdict: schema.Valid}
	rec.Scenario.Primary, rec.Scenario.Baseline = "decode_tok_s", "classic"
	rec.Scenario.Arms = []schema.ArmInfo{{Name: "draft"}, {Name: "classic"}}
	t0 := time.Unix(0, 0)
	for i := 0; i < 12; i++ {
		arm, f := "classic", 1.0
		if i%2 == 0 {
			arm, f = "draft", 1.3 // faster decode, shorter times
		}
		j := float64(i%5) / 100
		rec.Runs = append(rec.Runs, schema.Run{Seq: i + 1, Round: i/2 + 1, Arm: arm, Start: t0,
			Metrics: map[string]float64{"decode_tok_s": 100 * f * (1 + j), "e2e_tok_s": 90 * f * (1 + j), "ttft_ms": 40 / f * (1 + j), "wall_s": 1.2 / f * (1 + j)}})
	}
	rec.Analysis, rec.Verdict, _ = analysis.Record(s.Policy, rec.Runs, rec.Method, rec.Schema)
	var buf bytes.Buffer
	if err := Benchstat(&buf, rec, "spec-draft-x-2026-01-01"); err != nil {
		t.Fatal(err)
	}
	// Group as benchstat -col /arm does: the first arm seen is the base.
	values := map[string]map[string][]float64{}
	var order []string
	r := benchfmt.NewReader(&buf, "export")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		_, arm, _ := bytes.Cut(res.Name, []byte("/arm="))
		if _, seen := values[string(arm)]; !seen {
			values[string(arm)] = map[string][]float64{}
			order = append(order, string(arm))
		}
		for _, v := range res.Values {
			values[string(arm)][v.Unit] = append(values[string(arm)][v.Unit], v.Value)
		}
	}
	if len(order) != 2 || order[0] != "classic" {
		t.Fatalf("benchstat's base column would be %q, not the baseline", order)
	}
	center := func(xs []float64) float64 {
		return benchmath.AssumeNothing.Summary(benchmath.NewSample(xs, &benchmath.DefaultThresholds), 0.95).Center
	}
	for _, m := range []string{"decode_tok_s", "e2e_tok_s", "ttft_ms", "wall_s"} {
		unit := schema.MetricOf(m).Bench
		delta := center(values["draft"][unit]) - center(values["classic"][unit])
		res, _ := rec.Result(m)
		var ratio float64
		for _, a := range res.Arms {
			if a.Arm == "draft" && a.Comparison != nil {
				ratio = a.Comparison.Ratio
			}
		}
		if (delta > 0) != (ratio > 1) {
			t.Errorf("%s: benchstat's delta %+g, the record's ratio %g: opposite directions", m, delta, ratio)
		}
	}
}
