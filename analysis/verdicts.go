package analysis

import (
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// judgement is what a rule's parts judge the arms' verdicts from: the
// arms' comparisons with their references (rs[i], refs[i] for
// verdicts[i]) at the look's level alpha.
type judgement struct {
	in       Input
	s        samples
	alpha    float64
	verdicts []schema.ArmVerdict
	rs       []stats.Robust
	refs     [][]string
}

// compare is arm i's comparison with its reference again, at another level.
func (j *judgement) compare(i int, alpha, confidence float64) stats.Robust {
	p := j.in.Policy
	return j.in.Campaign.Rule.Comparison.compare(j.in, j.s, j.refs[i], j.verdicts[i].Arm, p.Primary, alpha, confidence)
}

// armVerdicts judges every arm but the baseline on the primary metric, by
// the campaign's rule.
//
// Test arms form a family judged by Holm's method, so that the chance of
// any false "faster"/"slower" among them stays at the family's alpha (the
// rule's look spending decides how, at each look). A negative control is
// judged alone, by the rule's control test; when the campaign has one,
// each test arm is also compared with it (SeparatesFromNoise). It returns
// the verdicts, the warnings of the statistics library, and the reasons
// that make the campaign INCONCLUSIVE (a control that differs from its
// baseline, a comparison refused for its stalls).
func armVerdicts(in Input, s samples) ([]schema.ArmVerdict, []schema.Reason, []schema.Reason) {
	p, rule := in.Policy, in.Campaign.Rule
	alpha, confidence, seq := rule.Looks.levels(in)
	var looks []int
	if seq != nil {
		looks = seq.Looks
	}
	family := testArms(p)
	control := firstControl(p)
	refs, pooled := reference(p, rule)
	j := &judgement{in: in, s: s, alpha: alpha}
	compare := func(refs []string, arm string) stats.Robust {
		return rule.Comparison.compare(in, s, refs, arm, p.Primary, alpha, confidence)
	}
	// A test arm's MDE is the effect the campaign claims with its power:
	// a rule whose control vetoes makes up for the chance that the
	// control's own noise does.
	power := MDEPower
	if control != "" && !in.decisionOnly {
		power = rule.Control.power(func() stats.Robust { return compare([]string{p.Baseline}, control) }, alpha, p.Stats.MinEffect)
	}
	// A test arm is compared with the reference (the baseline, and the
	// controls when pooled); a control with the baseline alone.
	var stalls []stats.Stalls
	seen := 0
	for _, a := range p.Arms {
		seen += len(s.timed(in, a.Name, p.Primary))
		if a.Name == p.Baseline {
			continue
		}
		ref := refs
		if a.Control {
			ref = []string{p.Baseline}
		}
		r := compare(ref, a.Name)
		j.verdicts = append(j.verdicts, schema.ArmVerdict{Arm: a.Name, Control: a.Control, Comparison: rule.Comparison.store(r, alpha, p.Stats.MinEffect)})
		j.rs, j.refs = append(j.rs, r), append(j.refs, ref)
		stalls = append(stalls, r.Stalls)
	}
	var vcs []stats.Robust
	var warnings, inconclusive []schema.Reason
	for i := range j.verdicts {
		v, r := &j.verdicts[i], j.rs[i]
		for _, w := range r.Warnings {
			warnings = append(warnings, schema.ComparisonNote{Arm: v.Arm, Baseline: p.Baseline, Note: w})
		}
		if r.Refused {
			inconclusive = append(inconclusive, schema.TooManyStalls{Arm: v.Arm, Far: r.Stalls.Trimmed + r.Stalls.Kept, Rounds: r.Blocks})
		}
		v.MDEAlpha = alpha
		m := mdeCase{in: in, s: s, arm: v.Arm, r: r, stalls: stalls, seen: seen, level: alpha, power: MDEPower, minEffect: p.Stats.MinEffect, looks: looks}
		if !v.Control {
			v.Pooled = pooled
			v.MDEAlpha = alpha / float64(len(family))
			m.level, m.power = v.MDEAlpha, power
		}
		if !in.decisionOnly {
			m.design = rule.Looks.design(j, i, m.level)
			up, down := rule.MDE.mde(m)
			v.MDE, v.MDEDown = orZero(up), orZero(down)
		}
		var vc stats.Robust
		switch {
		case v.Control:
			vc = r
		case control != "":
			vc = compare([]string{control}, v.Arm)
			cc := rule.Control.vsControl(rule.Comparison.store(vc, alpha, p.Stats.MinEffect), vc, v.Comparison)
			v.ControlArm, v.VsControl = control, &cc
		}
		vcs = append(vcs, vc)
	}
	rule.Looks.decide(j)
	for i := range j.verdicts {
		v := &j.verdicts[i]
		c := &v.Comparison
		if v.Control {
			level := alpha
			if c.Level > 0 {
				level = c.Level
			}
			if rule.Control.judge(v, j.rs[i], level, p.Stats.MinEffect) {
				inconclusive = append(inconclusive, schema.ControlDiffers{Arm: v.Arm, Baseline: p.Baseline, Metric: p.Primary,
					Ratio: c.Ratio, P: c.P, Lo: c.Lo, Hi: c.Hi, Alpha: alpha})
			}
			continue
		}
		if v.VsControl != nil {
			vc := vcs[i]
			if level := rule.Control.vsLevel(c.Level, alpha); level != alpha {
				vc = rule.Comparison.compare(in, s, []string{control}, v.Arm, p.Primary, level, 1-level)
				cc := rule.Control.vsControl(rule.Comparison.store(vc, level, p.Stats.MinEffect), vc, *c)
				cc.Level = level
				v.VsControl = &cc
			}
			v.SeparatesFromNoise = rule.Control.separates(*c, *v.VsControl, vc)
		}
	}
	return j.verdicts, warnings, inconclusive
}

// testArms are the arms whose primary comparison with the baseline forms
// the family: every arm but the baseline and negative controls.
func testArms(p scenarios.Policy) []string {
	var out []string
	for _, a := range p.Arms {
		if a.Name != p.Baseline && !a.Control {
			out = append(out, a.Name)
		}
	}
	return out
}

// firstControl is the campaign's first negative control; "" without one.
func firstControl(p scenarios.Policy) string {
	for _, a := range p.Arms {
		if a.Control {
			return a.Name
		}
	}
	return ""
}

// reference is what a test arm is compared with: the baseline, and the
// negative controls pooled with it when the policy asks and the rule
// pools; pooled names those controls.
func reference(p scenarios.Policy, rule Rule) (refs, pooled []string) {
	if p.Stats.PoolControl && rule.Pooling != NoPooling {
		for _, a := range p.Arms {
			if a.Control {
				pooled = append(pooled, a.Name)
			}
		}
	}
	return append([]string{p.Baseline}, pooled...), pooled
}

// FamilyAlpha is the family-wise error rate the verdict controls, and the
// number of arms in the family.
func FamilyAlpha(p scenarios.Policy) (float64, int) {
	return p.Stats.Alpha, len(testArms(p))
}
