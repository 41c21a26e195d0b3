package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// Under the current rule every verdict's test and interval are one test at
// one level: significant only when p is below the level it was judged at
// and the interval at one minus that level excludes no change — with two
// test arms (Holm) and sequential looks alike, where robust-3's p and
// interval disagreed (issue 33: 136 of 2,000 campaigns with two test arms).
func TestOneTestOneLevel(t *testing.T) {
	t.Parallel() // a seeded simulation with its own generators: runs beside the others
	two := simPolicyRounds(t, "{min: 5, max: 15, every: 5}", "")
	two.Arms = append(two.Arms, two.Arms[2])
	two.Arms[3].Name = "test2"
	checked := 0
	for i := range 200 {
		spec := campaignSpec{policy: two, host: quietHost, rule: schema.RuleCurrent, effects: map[string]float64{"test": 1.03, "test2": 1.015}}
		a := simulate(t, spec, 700000+uint64(i))
		for _, v := range a.ArmVerdicts {
			c := v.Comparison
			if c.Level == 0 || !c.Defined() || !c.HasInterval() {
				continue
			}
			checked++
			pSig, ciSig := c.P < c.Level, c.Lo > 1 || c.Hi < 1
			if pSig != ciSig && math.Abs(c.P-c.Level) > 1e-9 {
				t.Errorf("campaign %d, arm %s: p %.4g at level %.4g, interval [%.4f, %.4f]", i, v.Arm, c.P, c.Level, c.Lo, c.Hi)
			}
			if c.Significant && !(pSig && ciSig) {
				t.Errorf("campaign %d, arm %s: significant with p %.4g at level %.4g, interval [%.4f, %.4f]", i, v.Arm, c.P, c.Level, c.Lo, c.Hi)
			}
			if math.Abs(c.Confidence-(1-c.Level)) > 1e-9 {
				t.Errorf("campaign %d, arm %s: interval at %.4f for level %.4f", i, v.Arm, c.Confidence, c.Level)
			}
		}
	}
	if checked < 400 {
		t.Fatalf("only %d verdicts checked", checked)
	}
}

// An arm that drifts on its own is flagged with its change at the start
// and the end, and a sequential look does not stop on it, however
// significant its average.
func TestOwnDriftStatedAndNotStoppedOn(t *testing.T) {
	p := simPolicyRounds(t, "{min: 10, max: 20, every: 10}", "")
	slide := func(rng *rand.Rand, arm string, center, pos float64) float64 {
		v := center * math.Exp(0.01*rng.NormFloat64())
		if arm == "test" {
			v *= 1.10 * math.Exp(-0.3*(pos-0.25))
		}
		return v
	}
	spec := campaignSpec{policy: p, host: host{drift: 0.01}, rule: schema.RuleCurrent, valueAt: slide}
	in := simInput(t, spec, 42)
	in.Runs = in.Runs[:10*len(p.Arms)]
	in.Campaign.Planned = len(in.Runs)
	done, a := analysis.SequentialDone(in)
	var drift *schema.RelativeDrift
	for _, f := range a.Flags {
		if d, ok := f.(schema.RelativeDrift); ok && d.Arm == "test" {
			drift = &d
		}
	}
	if drift == nil || drift.Start <= drift.End {
		t.Fatalf("no drift flag with start and end: %+v (flags %v)", drift, a.Flags)
	}
	significant := false
	for _, v := range a.ArmVerdicts {
		significant = significant || (v.Arm == "test" && v.Comparison.Significant)
	}
	if !significant || done {
		t.Errorf("significant %v, the look stopped %v: a drifting arm must not stop the schedule", significant, done)
	}
}
