package analysis_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/harness"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// planPolicy is a baseline, a negative control and a test arm over rounds
// (schedule.rounds as YAML).
func planPolicy(t *testing.T, rounds string) scenarios.Policy {
	t.Helper()
	src := `feature: sim
engine:
  preset: llama.cpp
  command: [llama-server, --port, "${PORT}"]
  request: {prompt: p, max_tokens: 8}
arms:
  - name: base
  - name: control
    control: true
  - name: test
    args: [--test]
baseline: base
schedule: {rounds: ` + rounds + `, order: rotate}
gates: {max_spread: 0}
allow_unverified: simulation
unmeasured: [nothing]
`
	s, _, err := scenarios.Parse("sim.yaml", ".", []byte(src), scenarios.Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	return s.Policy
}

// TestPlannedMDEIsTheStatedMDE: a campaign whose comparisons are what a
// plan expects states the MDE the rule's PlannedMDE gives for them: for a
// fixed schedule, the same number, the control's veto and the stalls'
// rates included; NoiseOf's comparisons are those the verdict judged.
func TestPlannedMDEIsTheStatedMDE(t *testing.T) {
	p := planPolicy(t, "12")
	plan, err := harness.Plan(p.ArmNames(), 12, p.Schedule.Order, 7)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 33))
	in := analysis.Input{Policy: p, Campaign: analysis.Campaign{Planned: len(plan), Started: time.Unix(0, 0), Rule: analysis.Current()}}
	for i, s := range plan {
		v := 100 * math.Exp(0.03*rng.NormFloat64())
		if s.Arm == "test" {
			v *= 1.02
		}
		if i == 7 || i == 20 {
			v *= 0.6 // two stalls
		}
		in.Runs = append(in.Runs, analysis.Run{Seq: s.Seq, Round: s.Round, Arm: s.Arm, Start: time.Unix(int64(i), 0), Metrics: map[string]float64{schema.DecodeTokS: v}})
	}
	a := analysis.Analyze(in)
	nz := analysis.NoiseOf(in)
	var pl analysis.Planned
	for _, c := range nz.Arms {
		pl.Stalls = append(pl.Stalls, c.R.Stalls)
		switch c.Arm {
		case "control":
			r := c.R
			pl.Control = &r
		case "test":
			pl.Arm = c.R
			if len(c.Rounds) != 12 || len(c.Refs) != 1 {
				t.Errorf("test arm's rounds %v, references %v", c.Rounds, c.Refs)
			}
		}
	}
	if pl.Control == nil || pl.Stalls[0].Trimmed+pl.Stalls[0].Kept+pl.Stalls[1].Trimmed+pl.Stalls[1].Kept == 0 {
		t.Fatalf("noise %+v: no control, or no stall seen", nz)
	}
	up, down := analysis.Current().PlannedMDE(p, pl)
	for _, v := range a.ArmVerdicts {
		if v.Arm == "test" && (math.Abs(v.MDE-up) > 1e-12 || math.Abs(v.MDEDown-down) > 1e-12) {
			t.Errorf("stated MDE +%v / -%v, planned +%v / -%v", v.MDE, v.MDEDown, up, down)
		}
	}
	// Looks widen it: the design of {min: 4, max: 12, every: 4}.
	pl.Looks = []int{4, 8, 12}
	if u, _ := analysis.Current().PlannedMDE(p, pl); !(u > up) || u > 1.2*up {
		t.Errorf("with looks +%v, one look +%v", u, up)
	}
	// No control: no veto to make up for, a smaller MDE.
	pl.Looks, pl.Control = nil, nil
	if u, _ := analysis.Current().PlannedMDE(p, pl); !(u < up) {
		t.Errorf("without a control +%v, with one +%v", u, up)
	}
}
