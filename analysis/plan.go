package analysis

import (
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// Noise is what a stored campaign's runs show of the noise its rule's
// comparisons see, for a planner: the noise anatomy of its starts, and
// every arm but the baseline compared with its reference on the primary
// metric at the policy's alpha (a test arm with the baseline and the
// pooled controls, a control with the baseline alone), before any look's
// level or Holm's step. Under a rule that compares by round, each
// comparison's Stalls are what its rounds saw of stalls and the noise of
// its rounds that were not far out.
type Noise struct {
	Anatomy *schema.Anatomy
	Arms    []ArmNoise
}

// ArmNoise is one arm's comparison with its reference (Refs); Rounds
// are the rounds' differences a comparison by round judges
// (stats.RoundDifferences).
type ArmNoise struct {
	Arm     string
	Control bool
	Refs    []string
	R       stats.Robust
	Rounds  []float64
}

// NoiseOf is the noise of the runs in under their rule (outliers dropped
// where the policy drops them, failed runs left out).
func NoiseOf(in Input) Noise {
	in = resolved(in)
	p, rule := in.Policy, in.Campaign.Rule
	ms := marks(in)
	flagOutliers(in, ms)
	s := newSamples(in, ms)
	out := Noise{Anatomy: noiseAnatomy(in)}
	refs, _ := reference(p, rule)
	for _, a := range p.Arms {
		if a.Name == p.Baseline {
			continue
		}
		ref := refs
		if a.Control {
			ref = []string{p.Baseline}
		}
		r := rule.Comparison.compare(in, s, ref, a.Name, p.Primary, p.Stats.Alpha, 1-p.Stats.Alpha)
		var refRuns []stats.Timed
		for _, name := range ref {
			refRuns = append(refRuns, s.timed(in, name, p.Primary)...)
		}
		d := stats.RoundDifferences(refRuns, s.timed(in, a.Name, p.Primary))
		out.Arms = append(out.Arms, ArmNoise{Arm: a.Name, Control: a.Control, Refs: ref, R: r, Rounds: d})
	}
	return out
}

// Planned is a campaign not yet run, as a rule's MDE model reads it: the
// comparison a test arm expects with its reference at the schedule's most
// rounds (Arm), the one its negative control expects with the baseline
// (Control; nil without a control), the stalls that give their rates,
// with the uncertainty their rounds leave, one per comparison the
// campaign will have (Stalls: a rule's model counts the campaign's
// refusals over them; stats.MergeStalls merges more into fewer), and
// the rounds of the schedule's looks (Looks; nil for a fixed schedule,
// else the last is the most rounds).
type Planned struct {
	Arm     stats.Robust
	Control *stats.Robust
	Stalls  []stats.Stalls
	Looks   []int
}

// PlannedMDE is the MDE a campaign of policy p would state for a test arm
// under the rule, were its comparisons what pl expects: the rule's MDE
// model at the test arm's level (alpha over the family, Holm's first
// step), at the power the control's veto asks, over the design of the
// looks (their information the rounds kept at each over the most).
func (r Rule) PlannedMDE(p scenarios.Policy, pl Planned) (up, down float64) {
	alpha := p.Stats.Alpha
	level := alpha / float64(max(1, len(testArms(p))))
	power := MDEPower
	if pl.Control != nil {
		power = r.Control.power(func() stats.Robust { return *pl.Control }, alpha, p.Stats.MinEffect)
	}
	m := mdeCase{r: pl.Arm, stalls: pl.Stalls, level: level, power: power, minEffect: p.Stats.MinEffect, looks: pl.Looks}
	if d, ok := r.Looks.(plannedDesigner); ok && len(pl.Looks) > 1 {
		m.design = d.plannedDesign(pl.Looks, pl.Arm)
	}
	return r.MDE.mde(m)
}

// plannedDesigner is a look spending whose MDE reads a design of looks.
type plannedDesigner interface {
	plannedDesign(looks []int, arm stats.Robust) stats.Design
}

// plannedDesign is the design of a planned schedule's looks as info
// makes it of a campaign: at each look the rounds it will have kept (at
// the rate the arm's comparison keeps them), its information those over
// the most rounds, and 1 at the last.
func (sp SpendingLooks) plannedDesign(looks []int, arm stats.Robust) stats.Design {
	d := stats.Design{Spending: sp.Spending}
	last := looks[len(looks)-1]
	kept := 1.0
	if arm.Blocks > 0 && arm.N1 > 0 {
		kept = float64(arm.N1) / float64(arm.Blocks)
	}
	for k, l := range looks {
		n := max(1, int(float64(l)*kept+0.5))
		t := 1.0
		if k < len(looks)-1 {
			t = min(1, float64(n)/float64(last))
		}
		if k > 0 && t <= d.Ts[k-1] {
			t = min(1, d.Ts[k-1]+1e-6)
		}
		d.Ts, d.Ns = append(d.Ts, t), append(d.Ns, n)
	}
	return d
}
