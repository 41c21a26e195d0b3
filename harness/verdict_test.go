package harness

import (
	"strings"
	"testing"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

const testScenario = `feature: t
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: p, max_tokens: 8}
arms:
  - name: a
  - name: b
    args: [--b]
baseline: a
schedule: {rounds: 6}
counters:
  - name: c
    json: x
    expect: {a: "== 0", b: "> 0"}
unmeasured: [nothing]
`

// concluded builds a campaign over synthetic runs (values per arm, in
// rotated order) and concludes it.
func concluded(t *testing.T, extra string, values map[string][]float64, mutate func(*schema.Run)) *schema.Record {
	t.Helper()
	src := testScenario + extra
	for _, n := range []string{"2", "3"} {
		if strings.Contains(extra, "#rounds"+n) {
			src = strings.Replace(src, "rounds: 6", "rounds: "+n, 1)
		}
	}
	c := testCampaign(t, src)
	s := c.scenario
	plan, _ := Plan(s.ArmNames(), s.Schedule.Rounds.Min, s.Policy.Schedule.Order, s.Schedule.Seed)
	c.rec = c.newRecord("x", "2026-01-01", schema.MachineInfo{}, time.Unix(0, 0))
	c.rec.Method.Planned = Arms(plan)
	if strings.Contains(extra, "#legacy") {
		// A record written before schema.Method.Rule: the first rule.
		c.rec.Method.Rule = schema.RuleMedianU
		c.rule, _ = analysis.RuleOf(schema.RuleMedianU)
	}
	idx := map[string]int{}
	for _, slot := range plan {
		v := values[slot.Arm][idx[slot.Arm]]
		idx[slot.Arm]++
		cv := 0.0
		if slot.Arm == "b" {
			cv = 5
		}
		r := schema.Run{Seq: slot.Seq, Round: slot.Round, Arm: slot.Arm, Start: time.Unix(int64(slot.Seq*10), 0),
			Metrics:    map[string]float64{"decode_tok_s": v, "wall_s": 1},
			Counters:   map[string]schema.CounterReading{"c": {Value: cv}},
			Contention: &schema.ContentionSample{Others: 0.01}, Output: "same text"}
		if mutate != nil {
			mutate(&r)
		}
		c.rec.Runs = append(c.rec.Runs, r)
	}
	c.conclude()
	return c.rec
}

// reasons are the record's verdict reasons and flags as sentences.
func reasons(rec *schema.Record) string {
	var out []string
	for _, r := range append(append([]schema.Reason{}, rec.Analysis.Reasons...), rec.Analysis.Flags...) {
		out = append(out, recorder.ReasonText(rec, r))
	}
	return strings.Join(out, "\n")
}

func warnings(rec *schema.Record) string {
	var out []string
	for _, r := range rec.Analysis.Warnings {
		out = append(out, recorder.ReasonText(rec, r))
	}
	return strings.Join(out, "\n")
}

var (
	steadyA = []float64{100, 101, 99, 100, 100.5, 99.5}
	steadyB = []float64{110, 111, 109, 110, 110.5, 109.5}
)

func TestVerdicts(t *testing.T) {
	tests := []struct {
		name    string
		extra   string
		values  map[string][]float64
		mutate  func(*schema.Run)
		verdict schema.Verdict
		reason  string
	}{
		{"valid and faster", "", map[string][]float64{"a": steadyA, "b": steadyB}, nil, schema.Valid, ""},
		{"counter gate", "", map[string][]float64{"a": steadyA, "b": steadyB}, func(r *schema.Run) {
			if r.Seq == 2 {
				r.Counters["c"] = schema.CounterReading{Value: 0}
			}
		}, schema.Rejected, "counter `c` = 0, expected > 0"},
		{"spread", "", map[string][]float64{"a": {100, 130, 80, 120, 90, 100}, "b": steadyB}, nil, schema.Inconclusive, "Too noisy: arm `a` has a spread of"},
		{"spread gate off", "gates: {max_spread: 0}\n", map[string][]float64{"a": {100, 130, 80, 120, 90, 100}, "b": steadyB}, nil, schema.Valid, ""},
		{"contended", "", map[string][]float64{"a": steadyA, "b": steadyB}, func(r *schema.Run) {
			if r.Seq%3 == 0 {
				r.Contention.Others = 0.5
			}
		}, schema.Inconclusive, "Contended host: in 4 of the 12 runs long enough to judge"},
		{"run failure aborts", "", map[string][]float64{"a": steadyA, "b": steadyB}, func(r *schema.Run) {
			if r.Seq == 12 {
				r.Error = "engine exited"
			}
		}, schema.Failed, "failed: engine exited"},
		{"drift flagged", "gates: {max_spread: 0}\n#legacy\n", map[string][]float64{"a": {100, 98, 96, 94, 92, 90}, "b": steadyB}, nil, schema.Valid, "Drift: arm `a` drifted -8.1% over the campaign"},
		// The baseline drifts 10% down, the arm holds steady: the arm's
		// trend relative to the baseline's is what is flagged.
		{"relative drift flagged", "gates: {max_spread: 0}\n", map[string][]float64{"a": {100, 98, 96, 94, 92, 90}, "b": steadyB}, nil, schema.Valid, "Drift: arm `b` moved +10.9% over the campaign relative to the baseline `a`"},
		// A drift both arms share is not flagged.
		{"common drift not flagged", "gates: {max_spread: 0}\n", map[string][]float64{"a": {100, 98, 96, 94, 92, 90}, "b": {110, 107.8, 105.6, 103.4, 101.2, 99}}, nil, schema.Valid, "!Drift"},
		{"too few samples", "#rounds3\n#legacy\n", map[string][]float64{"a": steadyA, "b": steadyB}, nil, schema.Inconclusive, "Too few samples: with 3 and 3 runs the U test cannot reach p < 0.05 whatever the data (smallest possible p is 0.100); run at least 4 rounds"},
		{"too few samples paired", "#rounds3\n#legacy\nstats: {pairing: auto}\n", map[string][]float64{"a": steadyA, "b": steadyB}, nil, schema.Inconclusive, "Too few samples: with 3 rounds the signed-rank test cannot reach p < 0.05 whatever the data (smallest possible p is 0.250); run at least 6 rounds"},
		// The regression needs three runs of each arm to trim a stall.
		{"too few runs", "#rounds2\n", map[string][]float64{"a": steadyA, "b": steadyB}, nil, schema.Inconclusive, "Too few runs: `b` has 2 finished run(s) and the baseline 2; the regression needs at least 3 each"},
		{"three runs are enough", "#rounds3\n", map[string][]float64{"a": steadyA, "b": steadyB}, nil, schema.Valid, "!Too few"},
		{"unverified", "allow_unverified: no counter\n", map[string][]float64{"a": steadyA, "b": steadyB}, nil, schema.Unverified, ""},
		{"identity fail", "exactness: {compare: [b]}\n", map[string][]float64{"a": steadyA, "b": steadyB}, func(r *schema.Run) {
			if r.Arm == "b" {
				r.Output = "same texT"
			}
		}, schema.Rejected, "arm `b` diverges from `a`"},
		{"identity report", "exactness: {compare: [b], on_mismatch: report}\n", map[string][]float64{"a": steadyA, "b": steadyB}, func(r *schema.Run) {
			if r.Arm == "b" {
				r.Output = "same texT"
			}
		}, schema.Valid, "Output identity contract broken"},
		{"identity empty", "exactness: {compare: [b]}\n", map[string][]float64{"a": steadyA, "b": steadyB}, func(r *schema.Run) {
			r.Output = ""
		}, schema.Inconclusive, "empty output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := concluded(t, tt.extra, tt.values, tt.mutate)
			if rec.Verdict != tt.verdict {
				t.Fatalf("verdict %s, want %s; reasons %q", rec.Verdict, tt.verdict, reasons(rec))
			}
			if no, ok := strings.CutPrefix(tt.reason, "!"); ok {
				if strings.Contains(reasons(rec), no) {
					t.Errorf("reasons %q hold %q", reasons(rec), no)
				}
			} else if tt.reason != "" && !strings.Contains(reasons(rec), tt.reason) {
				t.Errorf("reasons %q lack %q", reasons(rec), tt.reason)
			}
		})
	}
}

func TestRelaxedGatesAreSaid(t *testing.T) {
	rec := concluded(t, "gates: {max_spread: 50%, max_contended: 0}\n", map[string][]float64{"a": steadyA, "b": steadyB}, nil)
	want := "This scenario relaxes the publishability gates (max_spread 50% instead of 4%, max_contended off)"
	if !strings.Contains(warnings(rec), want) {
		t.Errorf("warnings %q lack %q", warnings(rec), want)
	}
	if rec := concluded(t, "", map[string][]float64{"a": steadyA, "b": steadyB}, nil); strings.Contains(warnings(rec), "relaxes") {
		t.Errorf("default gates reported as relaxed: %q", warnings(rec))
	}
}

func TestVerdictSentencesAndOutliers(t *testing.T) {
	steady := concluded(t, "", map[string][]float64{"a": steadyA, "b": steadyB}, nil)
	if v := steady.Analysis.ArmVerdicts; len(v) != 1 || !strings.Contains(recorder.ArmVerdictText(steady, v[0]), "`b` vs `a`: +10.0% faster [") {
		t.Errorf("arm verdicts %+v", v)
	}
	rec := concluded(t, "", map[string][]float64{"a": {100, 101, 99, 100, 100.5, 160}, "b": steadyB}, nil)
	res, _ := rec.Result("decode_tok_s")
	if res.Arms[0].Outliers != 1 || res.Arms[0].Dropped != 0 {
		t.Errorf("outliers flagged %d dropped %d, want 1 and 0", res.Arms[0].Outliers, res.Arms[0].Dropped)
	}
	dropped := concluded(t, "outliers: drop\n", map[string][]float64{"a": {100, 101, 99, 100, 100.5, 160}, "b": steadyB}, nil)
	res, _ = dropped.Result("decode_tok_s")
	if res.Arms[0].N != 5 || res.Arms[0].Dropped != 1 {
		t.Errorf("drop: n %d dropped %d, want 5 and 1", res.Arms[0].N, res.Arms[0].Dropped)
	}
}
