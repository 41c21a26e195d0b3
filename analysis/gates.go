package analysis

import (
	"fmt"
	"strings"

	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
)

// gates applies the publishability rules to the primary metric. It returns
// the reasons that make the campaign INCONCLUSIVE and the flags reported
// without changing the verdict.
func gates(in Input, s samples, res []schema.MetricResult, marks []schema.Mark) (inconclusive, flags []schema.Reason) {
	p := in.Policy
	var primary *schema.MetricResult
	for i := range res {
		if res[i].Primary {
			primary = &res[i]
		}
	}
	if primary == nil {
		return nil, nil
	}
	_, family := FamilyAlpha(p)
	control := map[string]bool{}
	for _, a := range p.Arms {
		control[a.Name] = a.Control
	}
	for _, a := range primary.Arms {
		if g := p.Gates.MaxSpread; g > 0 && a.Spread() > g {
			inconclusive = append(inconclusive, schema.TooNoisy{Arm: a.Arm, Metric: p.Primary, Spread: a.Spread(), Limit: g})
		}
		if f := in.Campaign.Rule.Drift.flag(a, p.Baseline, p.Gates.MaxDrift); f != nil {
			flags = append(flags, f)
		}
		if a.Arm == p.Baseline {
			continue
		}
		// A comparison that cannot decide whatever the values: Holm's
		// first step judges an arm of a family of m at alpha/m.
		limit := p.Stats.Alpha
		if !control[a.Arm] && family > 1 {
			limit /= float64(family)
		}
		if r := in.Campaign.Rule.Comparison.tooFew(in, s, p.Baseline, a.Arm, limit); r != nil {
			inconclusive = append(inconclusive, r)
		}
	}
	contended, measured := 0, 0
	for i, r := range in.Runs {
		if !r.OK() || !r.HasContention || !judged(r, p.Gates) {
			continue
		}
		measured++
		if marks[i].Contended {
			contended++
		}
	}
	g := p.Gates
	c := schema.Contended{Runs: contended, Judged: measured, ContendedCPU: g.ContendedCPU, MaxContended: g.MaxContended}
	switch {
	case measured > 0 && g.MaxContended > 0 && float64(contended)/float64(measured) > g.MaxContended:
		inconclusive = append(inconclusive, schema.ContendedHost{Contended: c})
	case contended > 0:
		flags = append(flags, schema.Contention{Contended: c})
	}
	return inconclusive, flags
}

// relaxedGates lists the gates the scenario set looser than the defaults
// (or turned off).
// A v2 record wrote every digit of the percentages (7.000000000000001%).
func relaxedGates(g scenarios.GatesPolicy, v2 bool) string {
	var out []string
	format := pct.Rounded
	if v2 {
		format = pct.Exact
	}
	check := func(name string, v, def float64) {
		switch {
		case v == 0:
			out = append(out, name+" off")
		case v > def:
			out = append(out, fmt.Sprintf("%s %s instead of %s", name, format(v), format(def)))
		}
	}
	check("max_spread", g.MaxSpread, scenarios.DefaultMaxSpread)
	check("max_contended", g.MaxContended, scenarios.DefaultMaxContended)
	check("contended_cpu", g.ContendedCPU, scenarios.DefaultContendedCPU)
	return strings.Join(out, ", ")
}
