package review

import (
	"math"
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
	// A new record whose scenario lowers alpha is still gated at the old
	// record's: at 1e-12 over ten rounds the fall from 1.5 to 1.45 could
	// never be significant, and the gate passed it.
	low := record(1, 1.45)
	low.Method.Alpha, low.Method.Confidence = 1e-12, 1-1e-12
	if d := Compare("old.md", old, "new.md", low, DiffOptions{Threshold: 0.02}); d.Alpha != 0.05 || !d.Regressed() {
		t.Errorf("the new record lowers alpha to 1e-12: the gate is judged at %g, regressed %v: %+v", d.Alpha, d.Regressed(), d.Ratios)
	}
}

// --fail-on-regression gates on every arm's ratio at once: with four arms
// and no change at all, the chance that any of them shows a significant
// regression is held at alpha by Bonferroni over the arms (each interval
// at 1 − alpha/4), where intervals at 1 − alpha each would fail the gate
// far more often. Seeded A/A pairs of records, 5% noise, six rounds.
func TestRegressionGateFamilyWise(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation")
	}
	arms := []string{"base", "a", "b", "c", "d"}
	record := func(rng *rand.Rand) *schema.Record {
		r := &schema.Record{Verdict: schema.Valid}
		r.Scenario.Baseline, r.Scenario.Primary = "base", schema.DecodeTokS
		for _, a := range arms {
			r.Scenario.Arms = append(r.Scenario.Arms, schema.ArmInfo{Name: a})
		}
		r.Method.Confidence, r.Method.Alpha = 0.95, 0.05
		r.Analysis.Results = []schema.MetricResult{{Metric: schema.DecodeTokS, Unit: "tok/s", HigherIsBetter: true, Primary: true}}
		for round := 1; round <= 6; round++ {
			for _, a := range arms {
				v := 100 * (1 + 0.05*rng.NormFloat64())
				r.Runs = append(r.Runs, schema.Run{Seq: len(r.Runs) + 1, Round: round, Arm: a, Metrics: map[string]float64{schema.DecodeTokS: v}})
			}
		}
		return r
	}
	const pairs = 200
	rng := rand.New(rand.NewPCG(18, 8))
	failed := 0
	for range pairs {
		d := Compare("old.md", record(rng), "new.md", record(rng), DiffOptions{Threshold: 1e-9})
		if f := d.Family; f == nil || f.Comparisons != 4 || f.Confidence != 1-0.05/4 {
			t.Fatalf("family %+v, want 4 comparisons at 98.75%%", f)
		}
		if d.Regressed() {
			failed++
		}
	}
	rate := float64(failed) / pairs
	t.Logf("A/A, four arms, %d pairs of records: the gate failed in %.1f%% (family-wise alpha 5%%)", pairs, 100*rate)
	if rate > 0.05+3*math.Sqrt(0.05*0.95/pairs) {
		t.Errorf("false regressions in %.3f of A/A pairs > 0.05", rate)
	}
}
