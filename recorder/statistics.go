package recorder

import (
	"fmt"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/internal/pct"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// This file describes a record's statistics, sentence by sentence from the
// parts of its rule: the comparison, the MDE model, the drift test, the
// control test and the pooling, with the constants of the stats and
// analysis packages.

// methodStatistics is the method's paragraph on the statistics.
func methodStatistics(me schema.Method, rule analysis.Rule) string {
	s := "Statistics: "
	if rule.Name != "" {
		s = "Statistics (rule " + code(string(rule.Name)) + "): "
	}
	s += comparisonMethod(rule.Comparison, me) + mdeMethod(rule.MDE) + driftMethod(rule.Drift) + controlMethod(rule.Control, me)
	if rule.Pooling == analysis.Pools && me.PoolControl {
		s += " The negative controls are pooled with the baseline into the reference of every test arm (stats.pool_control);" +
			" each control is still tested against the baseline alone."
	}
	return s
}

// comparisonMethod says how arms are compared and when a change counts.
func comparisonMethod(c analysis.Comparison, me schema.Method) string {
	switch c.(type) {
	case analysis.RatioOfMedians:
		return "medians with distribution-free confidence intervals (benchmath; the level actually achievable with n samples is shown); " +
			fmt.Sprintf("ratio of medians with a percentile-bootstrap interval (%d resamples, seeded); two-sided Mann–Whitney U test.", me.Resamples) +
			fmt.Sprintf(" A change counts only when p < %s, the interval excludes 1, and it is at least %s.", count(me.Alpha), pct.Exact(me.MinEffect))
	case analysis.LogRegression:
		return "medians with distribution-free confidence intervals (benchmath); " +
			"each arm against the baseline by a least-squares regression of log values on the arm and the run's place in the plan, " +
			"which takes out a trend common to the arms, " +
			fmt.Sprintf("after trimming runs whose studentized residual is beyond the Bonferroni t quantile at %s over the runs ", count(stats.TrimAlpha)) +
			"(a stall, at most a quarter of the runs); t interval and two-sided t-test of the arm's coefficient, Holm over the test arms." +
			fmt.Sprintf(" A change counts only when the adjusted p < %s and it is at least %s.", count(me.Alpha), pct.Exact(me.MinEffect))
	}
	return fmt.Sprintf("%T.", c)
}

// mdeMethod says how the minimum detectable effect is stated.
func mdeMethod(m analysis.MDEModel) string {
	switch m := m.(type) {
	case analysis.RegressionMDE:
		return " The minimum detectable effect is stated for an increase and a decrease from the regression's standard error (unbiased for small n)," +
			" at least min_effect plus its margin."
	case analysis.ModelledMDE:
		rate := ""
		if m.StallRate == stats.StallRateUncertain {
			rate = "; their rate is taken with its uncertainty, a few stalls being a rough estimate of it"
		}
		return " The minimum detectable effect is stated for an increase and a decrease:" +
			" the effect a campaign like this one (the same runs, noise and stalls) claims with the stated power," +
			" from the noise of the runs not far out (unbiased for small n)," +
			" the runs its stalls cost or move (over every comparison of the campaign" + rate + ")," +
			" the chance that the control's noise vetoes, and the looks taken; at least min_effect plus its margin."
	}
	return ""
}

// driftMethod says how drift is measured, where the comparison does not.
func driftMethod(d analysis.DriftTest) string {
	if d, ok := d.(analysis.RelativeDrift); ok {
		return fmt.Sprintf(" Drift is an arm's trend relative to the baseline's (t-test at %s).", count(d.Alpha))
	}
	return ""
}

// controlMethod says how a negative control is judged, where the
// comparison does not.
func controlMethod(c analysis.ControlTest, me schema.Method) string {
	if c, ok := c.(analysis.EquivalentControl); ok {
		return fmt.Sprintf(" A negative control is an equivalence test within ±%s.", pct.Exact(c.Margin*me.MinEffect))
	}
	return ""
}

// resultsLegend explains the results tables' columns.
func resultsLegend(rule analysis.Rule) string {
	s := "Median with its confidence interval at the level it achieves with n samples; MAD is the median absolute deviation; spread is (Q3−Q1)/median; "
	if _, ok := rule.Drift.(analysis.RelativeDrift); ok {
		s += "drift is the baseline's own trend over the campaign and, for any other arm, its trend relative to the baseline's; "
	}
	switch rule.Comparison.(type) {
	case analysis.LogRegression:
		s += "ratio is exp of the arm's coefficient in the regression of log values on arm and run position (stalled runs trimmed) with its t interval," +
			" and p the t-test of that coefficient. "
	case analysis.RatioOfMedians:
		s += "ratio is the arm's median over the baseline's with its bootstrap interval and p the Mann–Whitney U test against the baseline, or," +
			" when the arms are paired by round, the median within-round ratio with a bootstrap over rounds and p the Wilcoxon signed-rank test. "
	}
	s += "Changes are new/old − 1 on the metric's own scale. "
	if rule.Wording == analysis.SenseWords {
		return s + "Only the primary metric is judged (better or worse: faster or slower for a speed; corrected for the family of arms); secondary metrics are described."
	}
	return s + "Only the primary metric is judged (faster/slower, corrected for the family of arms); secondary metrics are described."
}

// intervalBasis says how the primary verdicts' ratio intervals were made.
func intervalBasis(rule analysis.Rule, me schema.Method) string {
	if _, ok := rule.Comparison.(analysis.LogRegression); ok {
		return "ratio intervals from the regression on arm and run position, stalled runs trimmed"
	}
	return fmt.Sprintf("ratio intervals at %s by percentile bootstrap", pct.Exact(me.Confidence))
}

// outlierRule names the outlier rule.
func outlierRule() string {
	return fmt.Sprintf("modified z-score > %s", count(stats.OutlierThreshold))
}
