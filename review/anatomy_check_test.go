package review

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/engine"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// A record whose starts served a warmup and two measured requests each
// (schedule.requests: 2) passes check, which re-derives each start's value
// from its requests and the noise anatomy from all of them; the record
// shows the anatomy and each arm's prefix-cache state; a figure of the
// anatomy edited in the data block is caught. The runs are a committed
// record's of a build that served several requests a start (robust-3:
// one that writes method.requests writes robust-1 or later), each given
// requests around its own value.
func TestCheckAnatomy(t *testing.T) {
	src := "../docs/benchmark_results/spec-draft-epyc-2026-12-02-2.md"
	rec, err := recorder.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	srcData := filepath.Join(filepath.Dir(src), filepath.FromSlash(rec.DataDir))
	scen, err := os.ReadFile(filepath.Join(srcData, recorder.ScenarioFile))
	if err != nil {
		t.Fatal(err)
	}
	// Two measured requests a start, as a --set override the record
	// states (check compares the method with the stored scenario's).
	rec.Scenario.Overrides = append(rec.Scenario.Overrides, "schedule.requests=2")
	s, _, err := scenarios.Parse(recorder.ScenarioFile, srcData, scen, scenarios.Options{Offline: true, PromptText: rec.Scenario.Request.Prompt, Set: rec.Scenario.Overrides})
	if err != nil {
		t.Fatal(err)
	}
	rec.Scenario.Hash = s.Hash()
	rec.Method.Requests, rec.Method.Warmup, rec.Method.PrefixCache = 2, 1, nil
	for _, a := range rec.Scenario.Arms {
		rec.Method.PrefixCache = append(rec.Method.PrefixCache, schema.ArmPrefixCache{Arm: a.Name, State: schema.PrefixCacheDisabled, Why: string(scenarios.PrefixCacheByPreset)})
	}
	for i := range rec.Runs {
		r := &rec.Runs[i]
		r.ReadyS, r.Requests = 1.5+0.01*float64(i), nil
		for j, f := range []float64{0.95, 1 + 0.003*float64(i%5), 1 - 0.002*float64(i%3)} {
			// The client's figures of a request as the harness measures
			// them (a rate f times the run's, a time 1/f), its end-to-end
			// rate its tokens over its wall time.
			m := map[string]float64{}
			for k, v := range r.Metrics {
				switch k {
				case schema.WallS, schema.TTFTms:
					m[k] = v / f
				case schema.DecodeTokS, schema.StepTokS:
					m[k] = v * f
				}
			}
			m[schema.E2ETokS] = engine.E2ERate(r.Tokens, m[schema.WallS])
			kind := schema.RequestMeasured
			if j == 0 {
				kind = schema.RequestWarmup
			}
			r.Requests = append(r.Requests, schema.ServedRequest{Kind: kind, Metrics: m, Tokens: r.Tokens})
		}
		r.Metrics = schema.PerStart(r.Metrics, r.Requests)
		// The requests were not timed inside the committed run's
		// window: the run keeps no footprint of it.
		r.Footprint = nil
	}
	rec.Method.Footprint = schema.FootprintTotal(rec.Runs)
	rec.Analysis, rec.Verdict, _ = analysis.Record(s.Policy, rec.Runs, rec.Method, rec.Schema)
	an := rec.Analysis.Anatomy
	if an == nil || an.Gap != "" || an.Pooled == nil || an.Pooled.PerStart != 3 || an.Advice < 1 {
		t.Fatalf("anatomy %+v", an)
	}
	dir := t.TempDir()
	path := writeCopy(t, dir, srcData, rec)
	if probs := Check(path); len(probs) > 0 {
		t.Fatalf("check: %v", probs)
	}
	md, _ := os.ReadFile(path)
	for _, want := range []string{"## Noise anatomy", "| pooled |", "schedule.requests:", "Every engine start serves 2 measured requests",
		"Prefix cache, by arm: `classic`: disabled per request"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("record lacks %q", want)
		}
	}
	if i := strings.Index(string(md), "## Noise anatomy"); i >= 0 {
		sec := string(md[i:])
		if j := strings.Index(sec[3:], "\n## "); j >= 0 {
			sec = sec[:j+3]
		}
		t.Log(sec)
	}
	edited := regexp.MustCompile(`"between_cv": [0-9.e-]+`).ReplaceAll(md, []byte(`"between_cv": 0.5`))
	if bytes.Equal(edited, md) {
		t.Fatal("no between_cv to edit in the data block")
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if probs := Check(path); len(probs) == 0 {
		t.Error("check passed a record whose noise anatomy was edited")
	}
}
