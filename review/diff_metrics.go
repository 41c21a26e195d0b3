package review

import (
	"math"
	"slices"

	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// metricDiffs compares every arm's every metric that either record has
// values of.
func metricDiffs(old, nu *schema.Record, cfg stats.Config, threshold float64) []MetricDiff {
	var out []MetricDiff
	metrics := metricNames(nu, old)
	for _, arm := range armNames(old, nu) {
		for _, m := range metrics {
			md := metricDiff(old, nu, arm, m, cfg, threshold)
			if md.OldN == 0 && md.NewN == 0 {
				continue // the arm has no such values in either record
			}
			out = append(out, md)
		}
	}
	return out
}

// ratioDiffs compares each arm's ratio to the baseline both records share,
// on the primary metric. Every arm's ratio can fail the gate: Bonferroni
// over them keeps the chance of a false regression anywhere at alpha.
func ratioDiffs(old, nu *schema.Record, cfg stats.Config, threshold float64) (*RatioFamily, []RatioDiff) {
	base := nu.Scenario.Baseline
	m := nu.Scenario.Primary
	var arms []string
	for _, arm := range armNames(old, nu) {
		if arm != base {
			arms = append(arms, arm)
		}
	}
	var family *RatioFamily
	rcfg := cfg
	if len(arms) > 0 {
		family = &RatioFamily{Alpha: cfg.Alpha, Comparisons: len(arms), Confidence: 1 - cfg.Alpha/float64(len(arms))}
		rcfg.Confidence, rcfg.Alpha = family.Confidence, cfg.Alpha/float64(len(arms))
	}
	var out []RatioDiff
	for _, arm := range arms {
		rc := stats.CompareRatios(samples(old, base, m), samples(old, arm, m), samples(nu, base, m), samples(nu, arm, m), rcfg)
		rd := RatioDiff{Arm: arm, Baseline: base, Metric: m, Old: nan0(rc.Old), New: nan0(rc.New), Change: nan0(rc.Change - 1), Lo: nan0(rc.Lo - 1), Hi: nan0(rc.Hi - 1), P: rc.P}
		rd.Verdict = judge(rc.Change-1, rc.Lo-1, rc.Hi-1, rc.P, rcfg.Alpha, threshold, nu.HigherIsBetter(m))
		rd.runs = [4]int{len(samples(old, base, m)), len(samples(old, arm, m)), len(samples(nu, base, m)), len(samples(nu, arm, m))}
		out = append(out, rd)
	}
	return family, out
}

func metricDiff(old, nu *schema.Record, arm, m string, cfg stats.Config, threshold float64) MetricDiff {
	a, b := samples(old, arm, m), samples(nu, arm, m)
	md := MetricDiff{Arm: arm, Metric: m, Unit: unitOf(nu, old, m), HigherIsBetter: nu.HigherIsBetter(m), OldN: len(a), NewN: len(b), Confidence: 1 - cfg.Alpha}
	// Each record's median where it has values, though the other has
	// none (the arm or the metric is missing there): no test then, and a
	// p of 1 (0 read as a certain change).
	if len(a) > 0 {
		md.OldMedian = stats.Summarize(a).Median
	}
	if len(b) > 0 {
		md.NewMedian = stats.Summarize(b).Median
	}
	if len(a) == 0 || len(b) == 0 {
		md.Verdict, md.P = NotFound, 1
		return md
	}
	// One test gives the p and the interval, at one level (1 − alpha): a
	// rank test's p beside a bootstrap interval could contradict it.
	c := stats.CompareBootstrap(a, b, cfg)
	md.Change, md.Lo, md.Hi, md.P, md.Confidence = nan0(c.Ratio-1), nan0(c.Lo-1), nan0(c.Hi-1), c.P, c.Confidence
	md.Verdict = judge(c.Ratio-1, c.Lo-1, c.Hi-1, c.P, cfg.Alpha, threshold, md.HigherIsBetter)
	return md
}

// judge says whether a change counts: its interval excludes no change, its
// p (the same test's) is below alpha, and it is at least the threshold.
func judge(change, lo, hi, p, alpha, threshold float64, higher bool) Change {
	if math.IsNaN(change) || math.IsNaN(lo) || math.IsNaN(hi) {
		// No change, or no interval (a group of one run): nothing was
		// tested, which "~" would claim.
		return Unknown
	}
	if (lo <= 0 && hi >= 0) || (!math.IsNaN(p) && p >= alpha) || math.Abs(change) < threshold {
		return Same
	}
	if (change > 0) == higher {
		return Better
	}
	return Worse
}

func nan0(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// samples are an arm's values of a metric that count: finished runs not
// dropped as outliers, each run's value the one the analysis reads (its
// start's, from its measured requests: schema.Run.Analysed).
func samples(rec *schema.Record, arm, metric string) []float64 {
	var out []float64
	for i, r := range rec.Runs {
		if r.Arm != arm || !rec.RunCounts(i) {
			continue
		}
		if v, ok := r.Analysed()[metric]; ok {
			out = append(out, v)
		}
	}
	return out
}

func armNames(old, nu *schema.Record) []string {
	var out []string
	for _, r := range []*schema.Record{nu, old} {
		for _, a := range r.Scenario.Arms {
			out = append(out, a.Name)
		}
	}
	return distinct(out)
}

// distinct keeps the first of each name, in order.
func distinct(names []string) []string {
	seen := map[string]bool{}
	return slices.DeleteFunc(names, func(n string) bool { s := seen[n]; seen[n] = true; return s })
}

// metricNames lists the metrics either record reports (the new record's
// order first): built-in ones and the scenarios' own.
func metricNames(nu, old *schema.Record) []string {
	var out []string
	for _, r := range []*schema.Record{nu, old} {
		for _, m := range r.Analysis.Results {
			out = append(out, m.Metric)
		}
	}
	if out = distinct(out); len(out) == 0 {
		out = append(out, nu.Scenario.Primary)
		for _, m := range schema.Metrics {
			if !m.Stream && m.Name != nu.Scenario.Primary {
				out = append(out, m.Name)
			}
		}
	}
	return out
}

// unitOf is a metric's unit as either record reports it.
func unitOf(nu, old *schema.Record, metric string) string {
	for _, r := range []*schema.Record{nu, old} {
		if res, ok := r.Result(metric); ok {
			return res.Unit
		}
	}
	return schema.MetricOf(metric).Unit
}
