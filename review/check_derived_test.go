package review

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// forgedCommitted writes the committed record name with its runs edited
// by edit (each run's maps its own), its logs copied as they are, then
// everything re-hashed, the analysis derived again and the Markdown
// rendered (writeRecordRuns): what a forger's tool writes.
func forgedCommitted(t *testing.T, name string, edit func([]schema.Run)) string {
	t.Helper()
	rec, scen, s := committedRecord(t, name)
	runs := make([]schema.Run, len(rec.Runs))
	for i, r := range rec.Runs {
		r.Metrics, r.Counters, r.EngineTimings = maps.Clone(r.Metrics), maps.Clone(r.Counters), maps.Clone(r.EngineTimings)
		r.Requests = append([]schema.ServedRequest(nil), r.Requests...)
		for j := range r.Requests {
			q := &r.Requests[j]
			q.Metrics, q.EngineTimings = maps.Clone(q.Metrics), maps.Clone(q.EngineTimings)
		}
		runs[i] = r
	}
	edit(runs)
	dir := t.TempDir()
	copyTree(t, filepath.Join("..", "docs", "benchmark_results", "data", name, "logs"), filepath.Join(dir, "data", name, "logs"))
	return writeRecordRuns(t, dir, name, rec, scen, s, runs)
}

// forgedCase is a committed record edited, and the problems check must
// name (none: the record as written passes).
type forgedCase struct {
	record string
	edit   func([]schema.Run)
	want   []string
}

// runForged checks each case's forged record and wants its problems.
func runForged(t *testing.T, cases map[string]forgedCase) {
	t.Helper()
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var got []string
			for _, p := range Check(forgedCommitted(t, c.record, c.edit)) {
				got = append(got, p.String())
			}
			all := strings.Join(got, "\n")
			if c.want == nil && len(got) > 0 {
				t.Fatalf("problems:\n%s\nwant none", all)
			}
			for _, w := range c.want {
				if !strings.Contains(all, w) {
					t.Errorf("problems:\n%s\nwant one holding %q", all, w)
				}
			}
		})
	}
}

// eachRun edits every finished run of arm.
func eachRun(arm string, edit func(r *schema.Run)) func([]schema.Run) {
	return func(runs []schema.Run) {
		for i := range runs {
			if runs[i].Arm == arm && runs[i].OK() {
				edit(&runs[i])
			}
		}
	}
}

// Committed records whose primary metric is energy per token, whose draft
// arm's acceptance is an expression of two reply fields, and whose runs
// served three measured requests each, edited in the values the harness
// computes from other stored values (energy from the window's joules and
// tokens, an expression from its inputs, a json: metric or counter from
// the reply's timings the run keeps, a start's metrics from its
// requests), then re-hashed and re-rendered: check names each value and
// what its inputs give; each record as written passes.
func TestCheckRecomputesDerivedValues(t *testing.T) {
	const (
		energy = "h200-energy-h200-2026-12-02"
		draft  = "spec-draft-epyc-2026-11-29-3"
		starts = "spec-draft-epyc-2026-12-05-4"
	)
	runForged(t, map[string]forgedCase{
		"energy as written": {energy, func([]schema.Run) {}, nil},
		"draft as written":  {draft, func([]schema.Run) {}, nil},
		"starts as written": {starts, func([]schema.Run) {}, nil},
		// -16.2% lower (better) became +17.4% higher (worse).
		"energy per token": {energy, eachRun("draft", func(r *schema.Run) { r.Metrics[schema.EnergyJPerTok] *= 1.4 }),
			[]string{"(draft): metrics.energy_j_per_tok is ", "; its energy over 1 measured request(s) of 4000 tokens gives "}},
		"energy dropped": {energy, eachRun("classic", func(r *schema.Run) { delete(r.Metrics, schema.EnergyJ) }),
			[]string{"(classic): metrics.energy_j is absent; its energy over 1 measured request(s) of 4000 tokens gives "}},
		"energy without a source": {energy, eachRun("classic", func(r *schema.Run) { r.Energy = &schema.Energy{Unavailable: "none"} }),
			[]string{"(classic): metrics.energy_j_per_tok is ", "of 4000 tokens gives absent"}},
		// The joules raised with what they give: more than the GPU drew.
		"joules": {energy, eachRun("draft", func(r *schema.Run) {
			e := *r.Energy
			e.Joules *= 1.4
			r.Energy = &e
			schema.EnergyMetrics(r, 1)
		}), []string{"(draft): energy.joules is ", "; its GPUs' highest power over its 2.4", "s window (gpu_window) gives at most "}},
		"expression": {draft, eachRun("draft", func(r *schema.Run) { r.Metrics["acceptance"] = 0.93 }),
			[]string{`(draft): metrics.acceptance is 0.93; its expression "accepted / drafted" gives 0.43030303030303`}},
		// The reviewer's: the expression's inputs edited to match it.
		"json metric and counter": {draft, eachRun("draft", func(r *schema.Run) {
			r.Metrics["acceptance"], r.Metrics["accepted"] = 153.0/165, 153
			r.Counters["draft_tokens"] = schema.CounterReading{Value: 400}
		}), []string{"(draft): metrics.accepted is 153; its engine_timings give 71", "(draft): counters.draft_tokens.value is 400; its engine_timings give 165"}},
		"counter the reply lacks": {draft, eachRun("classic", func(r *schema.Run) { r.Counters["draft_tokens"] = schema.CounterReading{Value: 5} }),
			[]string{"(classic): counters.draft_tokens.value is 5; its engine_timings give 0 (absent)"}},
		"json metric the reply lacks": {draft, eachRun("classic", func(r *schema.Run) { r.Metrics["drafted"] = 12 }),
			[]string{"(classic): metrics.drafted is 12; its engine_timings give absent"}},
		// A start's json: metrics are its last measured request's reply's.
		"last request's reply": {starts, eachRun("draft", func(r *schema.Run) { r.Metrics["drafted"]++ }),
			[]string{"(draft): metrics.drafted is ", "; its engine_timings give "}},
		// The analysis reads a start's value from its requests; diff read
		// the run's: -40% there, nothing in the verdict.
		"run metrics": {starts, eachRun("draft", func(r *schema.Run) {
			r.Metrics[schema.DecodeTokS] *= 0.6
			r.Metrics[schema.E2ETokS] *= 0.6
		}), []string{"(draft): metrics.decode_tok_s is ", "; the mean of its measured requests gives ", "(draft): metrics.e2e_tok_s is "}},
		"run metric no request has": {starts, eachRun("classic", func(r *schema.Run) { r.Metrics[schema.StepTokS] = 100 }),
			[]string{"(classic): metrics.step_tok_s is 100; the mean of its measured requests gives absent"}},
		"run tokens": {starts, eachRun("classic", func(r *schema.Run) { r.Tokens = 200 }),
			[]string{"(classic): tokens is 200; its first measured request's is 256"}},
	})
}

// What diff, export and the roofline read of a run is what the analysis
// reads (schema.Run.Analysed): a start's value from its measured
// requests, never a run-level value they do not give.
func TestReadersReadTheStartsValue(t *testing.T) {
	rec, _, _ := committedRecord(t, "spec-draft-epyc-2026-12-05-4")
	want := samples(rec, "draft", schema.DecodeTokS)
	for i := range rec.Runs {
		rec.Runs[i].Metrics = maps.Clone(rec.Runs[i].Metrics)
		rec.Runs[i].Metrics[schema.DecodeTokS] *= 0.6
	}
	got := samples(rec, "draft", schema.DecodeTokS)
	if len(got) == 0 || !slices.Equal(got, want) {
		t.Fatalf("samples %v, want %v", got, want)
	}
	if probs := checkRoofline(rec); len(probs) > 0 {
		t.Fatalf("roofline: %v", probs)
	}
}

// A command engine's json: metric is read again from its window's JSON
// line, as its json: counters are.
func TestRederivesCommandJSONMetric(t *testing.T) {
	src := `feature: x
engine:
  kind: command
  command: [gen, -n, "8"]
  output:
    metrics: {decode_tok_s: 'rate ([0-9.]+)'}
arms: [{name: a}, {name: b, args: [-x]}]
baseline: a
allow_unverified: test
unmeasured: [Prefill.]
metrics:
  extra:
    - {name: accepted, unit: tok, json: timings.accepted}
`
	s, _, err := scenarios.Parse("x.yaml", t.TempDir(), []byte(src), scenarios.Options{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	rd := newRederiver(s)
	lines := []string{"rate 50", `{"timings": {"accepted": 71}}`, "a line of standard error"}
	r := schema.Run{Metrics: map[string]float64{schema.DecodeTokS: 50, "accepted": 71}}
	if m := rd.compare(r, lines); len(m) > 0 {
		t.Fatalf("as printed: %+v", m[0])
	}
	r.Metrics["accepted"] = 153
	m := rd.compare(r, lines)
	if len(m) != 1 || m[0].stored != "metrics.accepted is 153" || m[0].derived != "71" {
		t.Fatalf("forged: %+v", m)
	}
}
