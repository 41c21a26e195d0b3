package review

import (
	"math/rand/v2"
	"testing"

	"github.com/decodebench/decodebench/schema"
)

// Two campaigns of one build minutes apart: the host slowed both arms by
// 16% in the second, so raw decode_tok_s is significantly worse, but each
// record's interleaved ratio is the same: --fail-on-regression does not
// fail. A build whose draft arm lost a fifth of its lead over classic, on
// an unchanged host, does.
func TestRegressionGatesOnWithinRecordRatios(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	record := func(host, draftGain float64) *schema.Record {
		r := &schema.Record{Verdict: schema.Valid}
		r.Scenario.Baseline, r.Scenario.Primary = "classic", schema.DecodeTokS
		r.Scenario.Arms = []schema.ArmInfo{{Name: "classic"}, {Name: "draft"}}
		r.Method.Confidence, r.Method.Alpha = 0.95, 0.05
		r.Analysis.Results = []schema.MetricResult{{Metric: schema.DecodeTokS, Unit: "tok/s", HigherIsBetter: true, Primary: true}}
		for round := 1; round <= 10; round++ {
			// What the host does in a round moves both arms alike.
			slow := host * (1 + 0.01*rng.NormFloat64())
			for _, arm := range []string{"classic", "draft"} {
				v := 100 * slow * (1 + 0.005*rng.NormFloat64())
				if arm == "draft" {
					v *= draftGain
				}
				r.Runs = append(r.Runs, schema.Run{Seq: len(r.Runs) + 1, Round: round, Arm: arm, Metrics: map[string]float64{schema.DecodeTokS: v}})
			}
		}
		return r
	}
	old := record(1, 1.5)
	d := Compare("old.md", old, "new.md", record(0.84, 1.5), DiffOptions{Threshold: 0.02})
	rawWorse := false
	for _, m := range d.Metrics {
		rawWorse = rawWorse || (m.Arm == "classic" && m.Verdict == Worse)
	}
	if !rawWorse {
		t.Fatalf("the simulation does not slow classic's raw rate significantly: %+v", d.Metrics)
	}
	if d.Regressed() {
		t.Errorf("a host slower for both arms failed the gate: %+v", d.Ratios)
	}
	if d := Compare("old.md", old, "new.md", record(1, 1.2), DiffOptions{Threshold: 0.02}); !d.Regressed() {
		t.Errorf("draft's ratio fell from 1.5 to 1.2 and the gate passed: %+v", d.Ratios)
	}
}
