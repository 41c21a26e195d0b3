package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
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
		robust := in.Campaign.Rule.Robust()
		switch g := p.Gates.MaxDrift; {
		case robust && robustDriftFlagged(a, p.Baseline, g):
			flags = append(flags, schema.RelativeDrift{Arm: a.Arm, Baseline: p.Baseline, Change: a.Drift, P: a.DriftP, Alpha: DriftAlpha})
		case !robust && g > 0 && (stats.Drift{N: a.N, Change: a.Drift, Rho: a.DriftRho}).Flagged(g):
			flags = append(flags, schema.Drift{Arm: a.Arm, Change: a.Drift, Rho: a.DriftRho})
		}
		// The regression's t-test has no floor on its p-value; it needs
		// enough runs of each arm to trim a stall.
		if n1, n2 := len(s.values(in, p.Baseline, p.Primary)), len(s.values(in, a.Arm, p.Primary)); a.Arm != p.Baseline && robust && min(n1, n2) < RobustMinRuns {
			inconclusive = append(inconclusive, schema.TooFewRuns{Arm: a.Arm, N1: n1, N2: n2, Min: RobustMinRuns})
		}
		if a.Arm != p.Baseline && !robust {
			// Holm's first step compares the smallest p with alpha/m: an
			// arm of a family of m must be able to get below that.
			limit := p.Stats.Alpha
			if !control[a.Arm] && family > 1 {
				limit /= float64(family)
			}
			if mp, paired := minPFor(in, s, p.Baseline, a.Arm); mp >= limit {
				inconclusive = append(inconclusive, schema.TooFewSamples{Arm: a.Arm, N1: len(s.values(in, p.Baseline, p.Primary)), N2: len(s.values(in, a.Arm, p.Primary)),
					SmallestP: mp, Alpha: limit, Paired: paired})
			}
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

// MinP is the smallest two-sided p-value the Mann–Whitney U test can give
// for samples of n1 and n2: complete separation, 2 / C(n1+n2, n1). With 3
// runs per arm it is 0.1, so nothing could ever be significant at 0.05.
func MinP(n1, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 1
	}
	c := 1.0
	for i := 1; i <= n2; i++ {
		c = c * float64(n1+i) / float64(i)
	}
	return min(1, 2/c)
}

// relaxedGates lists the gates the scenario set looser than the defaults
// (or turned off).
// A v2 record wrote every digit of the percentages (7.000000000000001%).
func relaxedGates(g scenarios.GatesPolicy, v2 bool) string {
	var out []string
	pct := scenarios.Percent
	if v2 {
		pct = func(v float64) string { return strconv.FormatFloat(v*100, 'g', -1, 64) + "%" }
	}
	check := func(name string, v, def float64) {
		switch {
		case v == 0:
			out = append(out, name+" off")
		case v > def:
			out = append(out, fmt.Sprintf("%s %s instead of %s", name, pct(v), pct(def)))
		}
	}
	check("max_spread", g.MaxSpread, scenarios.DefaultMaxSpread)
	check("max_contended", g.MaxContended, scenarios.DefaultMaxContended)
	check("contended_cpu", g.ContendedCPU, scenarios.DefaultContendedCPU)
	return strings.Join(out, ", ")
}
