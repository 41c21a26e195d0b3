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
	s += comparisonMethod(rule.Comparison, me) + mdeMethod(rule.MDE) + driftMethod(rule.Drift) + controlMethod(rule.Control, me) + looksMethod(rule.Looks, me)
	if rule.Pooling == analysis.Pools && me.PoolControl {
		s += " The negative controls are pooled with the baseline into the reference of every test arm (stats.pool_control);" +
			" each control is still tested against the baseline alone."
	}
	return s
}

// comparisonMethod says how arms are compared and when a change counts.
func comparisonMethod(cmp analysis.Comparison, me schema.Method) string {
	switch c := cmp.(type) {
	case analysis.RatioOfMedians:
		return "medians with distribution-free confidence intervals (benchmath; the level actually achievable with n samples is shown); " +
			fmt.Sprintf("ratio of medians with a percentile-bootstrap interval (%d resamples, seeded); two-sided Mann–Whitney U test.", me.Resamples) +
			fmt.Sprintf(" A change counts only when p < %s, the interval excludes 1, and it is at least %s.", count(me.Alpha), pct.Exact(me.MinEffect))
	case analysis.RoundBlocks:
		trim := fmt.Sprintf("a round is trimmed as a stall when its difference is beyond the Bonferroni t quantile at %s over the rounds ", count(stats.TrimAlpha)) +
			fmt.Sprintf("and at least %s off the others (at most a quarter of the rounds; with more that far out, the comparison is refused); ", pct.Exact(stats.StallFloor))
		switch c.Trim {
		case stats.TrimOneByOne:
			trim = fmt.Sprintf("a round is trimmed as a stall when its difference is beyond the Bonferroni t quantile at %s over the rounds ", count(stats.TrimAlpha)) +
				fmt.Sprintf("and at least %s off the fit of the rounds kept, the far rounds put back one at a time, the least far first ", pct.Exact(stats.StallFloor)) +
				"(with more than a quarter of the rounds, and at least three, that far out on one side, the comparison is refused); "
		case stats.TrimGoodRuns:
			trim = fmt.Sprintf("a round is trimmed as a stall when its difference is beyond the Bonferroni t quantile at %s over the rounds ", count(stats.TrimAlpha)) +
				fmt.Sprintf("and at least %s off the fit of the rounds kept, the far rounds put back one at a time, the least far first ", pct.Exact(stats.StallFloor)) +
				"(with more than a quarter of the rounds, and at least three, that far out on one side, the comparison is refused; " +
				"so it is with more than a quarter, and at least two, far out on the better side of one side's own median, its good runs, " +
				"which a stall does not make: that side's median is itself stalled); "
		}
		return "medians with distribution-free confidence intervals (benchmath); " +
			"each arm against its reference round by round: the log value of the arm's run against the mean of the reference's runs in the same round, " +
			"so that a step of the host, noise that wanders slowly or a drift common to the arms cancels within the round, " +
			"and each arm keeps its own noise (no variance is pooled); " + trim +
			"t interval and two-sided t-test of the rounds' mean difference, both at the one level the arm was judged at" + farKeptMethod(c) + refusedMethod(c) + stageMethod(c) + "." +
			fmt.Sprintf(" A change counts only when p is below that level and it is at least %s.", pct.Exact(me.MinEffect))
	case analysis.LogRegression:
		return "medians with distribution-free confidence intervals (benchmath); " +
			"each arm against the baseline by a least-squares regression of log values on the arm and the run's place in the plan, " +
			"which takes out a trend common to the arms, " +
			fmt.Sprintf("after trimming runs whose studentized residual is beyond the Bonferroni t quantile at %s over the runs ", count(stats.TrimAlpha)) +
			"(a stall, at most a quarter of the runs); t interval and two-sided t-test of the arm's coefficient, Holm over the test arms." +
			fmt.Sprintf(" A change counts only when the adjusted p < %s and it is at least %s.", count(me.Alpha), pct.Exact(me.MinEffect))
	}
	return fmt.Sprintf("%T.", cmp)
}

// farKeptMethod says what a comparison by round that keeps far rounds in
// states, where it is not the t interval of the rounds kept.
func farKeptMethod(c analysis.RoundBlocks) string {
	if c.FarKept == stats.FarKeptHull {
		return "; a comparison that puts far rounds back in states the hull of that t interval and the t interval of the rounds not far out," +
			" and a p that rejects only where both t-tests do, on the same side"
	}
	return ""
}

// stageMethod says how a schedule that stops on its intervals' width
// takes its noise, where it runs in two stages.
func stageMethod(c analysis.RoundBlocks) string {
	if c.Stage == stats.StageStein {
		return "; under a schedule that stops on its intervals' width (until_ci_width), the rounds after the minimum are planned once from the minimum's widest interval" +
			" (relative to its ratio) and run to that, and each interval's standard error is the noise of every one of the minimum's rounds over the rounds kept," +
			" at their degrees of freedom (Stein's two-stage procedure), so that a claim holds alpha"
	}
	return ""
}

// refusedMethod says what a refused comparison by round states, where it
// is not the t interval of every round.
func refusedMethod(c analysis.RoundBlocks) string {
	if c.Refused == stats.RefusedByHull {
		return "; a refused comparison states the hull of that t interval and the distribution-free interval of the median difference (order statistics)," +
			" and a p that rejects only where the t-test and the sign test both do, on the same side (with too few rounds for the median's interval, the t interval alone)"
	}
	return ""
}

// mdeMethod says how the minimum detectable effect is stated.
func mdeMethod(m analysis.MDEModel) string {
	switch m := m.(type) {
	case analysis.RegressionMDE:
		return " The minimum detectable effect is stated for an increase and a decrease from the regression's standard error (unbiased for small n)," +
			" at least min_effect plus its margin."
	case analysis.BlocksMDE:
		return " The minimum detectable effect is stated for an increase and a decrease:" +
			" the effect a campaign like this one (the same rounds, noise and stalls) claims with the stated power," +
			" from the noise of the rounds the test kept (unbiased for small n)," +
			" the rounds its stalls cost or move (over every comparison of the campaign, their rate taken with its uncertainty)," +
			" the chance that the comparison is refused for its stalls, the chance that the control's noise vetoes," +
			" and the looks' spending; at least min_effect plus its margin."
	case analysis.RoundsMDE:
		noise, kept, median := "the rounds the test kept", "", "its median over campaigns like this one, for small n"
		if m.Kept.PutBack() {
			noise = "the rounds not far out"
			kept = " (as many of a comparison's as the trimming keeps, found by running it on draws at this noise and the far rounds' sizes the campaign saw)"
		}
		rate := "their rate over every comparison of the campaign, taken with its uncertainty even where none was seen"
		if m.Kept == stats.KeptByPutBackSpread || m.Kept == stats.KeptBySelection {
			median = "its median over campaigns like this one, at the spread that choosing those rounds by the sample's own scale gives it (a jackknife)"
		}
		if m.Kept == stats.KeptBySelection {
			kept = " (as many of a comparison's as the trimming keeps, each count with the clean noise it keeps them with," +
				" found by running it on draws at this noise and the far rounds' sizes the campaign saw)"
			rate = "their rate over every comparison of the campaign at its posterior mean, a prior's share even where none was seen"
		}
		return " The minimum detectable effect is stated for an increase and a decrease:" +
			" the effect a campaign like this one (the same rounds and noise) claims with the stated power," +
			" from the noise of " + noise + " (" + median + ")," +
			" with the rounds far out drawn from " + rate + ":" +
			" the rounds they cost or move" + kept + ", the chance that they refuse this comparison or another," +
			" the chance that the control's noise vetoes, and the looks' spending; at least min_effect plus its margin."
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
	switch d := d.(type) {
	case analysis.RelativeDrift:
		return fmt.Sprintf(" Drift is an arm's trend relative to the baseline's (t-test at %s).", count(d.Alpha))
	case analysis.BlockDrift:
		by := ""
		if d.Welch {
			by = ", each arm its own line and noise (stalls trimmed on its own scale; Welch–Satterthwaite degrees of freedom)"
		}
		return fmt.Sprintf(" Drift is an arm's trend relative to the baseline's%s (t-test at %s);", by, count(d.Alpha)) +
			" a flagged arm's change is stated at the campaign's start and end, and a sequential look does not stop on it."
	}
	return ""
}

// looksMethod says how a sequential schedule's looks spend alpha, where a
// rule spends it by the information reached.
func looksMethod(l analysis.LookSpending, me schema.Method) string {
	if l, ok := l.(analysis.SpendingLooks); ok {
		refused := ""
		if l.RefusedLast {
			refused = " Holm's order takes a refused comparison last, as if its p were 1."
		}
		allows := "the most the schedule allows"
		if l.LatestPlan {
			allows = "the most the schedule allows, past a budget's plans (a campaign stopped between looks) the latest plan's"
		}
		return fmt.Sprintf(" A sequential schedule spends alpha over its looks by the %s Lan-DeMets function at the information each comparison reached", l.Spending) +
			" (its rounds kept over " + allows + "; the whole alpha at the last look), Holm's levels passed on to the arms left at each look." + refused
	}
	return ""
}

// controlMethod says how a negative control is judged, where the
// comparison does not.
func controlMethod(c analysis.ControlTest, me schema.Method) string {
	if c, ok := c.(analysis.EquivalentControl); ok {
		at := ""
		if c.AtArmLevel {
			at = " A test arm's comparison with it is judged at the level the arm was judged at."
		}
		return fmt.Sprintf(" A negative control is an equivalence test within ±%s.", pct.Exact(c.Margin*me.MinEffect)) + at
	}
	return ""
}

// resultsLegend explains the results tables' columns.
func resultsLegend(rule analysis.Rule) string {
	s := "Median with its confidence interval at the level it achieves with n samples; MAD is the median absolute deviation; spread is (Q3−Q1)/median; "
	switch rule.Drift.(type) {
	case analysis.RelativeDrift, analysis.BlockDrift:
		s += "drift is the baseline's own trend over the campaign and, for any other arm, its trend relative to the baseline's; "
	}
	switch c := rule.Comparison.(type) {
	case analysis.RoundBlocks:
		level := ", at the level the arm was judged at (the verdict lines say it). "
		if rule.Rows == analysis.RowsAsJudged {
			level = ": in the primary metric's rows, the arm's verdict, against its reference (the baseline with the controls, where they are pooled) at the level it was judged at" +
				" (the verdict lines say it), and against the baseline at 1 − alpha in the other metrics' rows. "
		}
		s += "ratio is exp of the mean difference of log values between the arm and the baseline within a round (stalled rounds trimmed) with its t interval," +
			" and p the t-test of that mean" + level
		if c.FarKept == stats.FarKeptHull {
			s += "For a comparison that put far rounds back in, the interval is the hull of that t interval and the t interval of the rounds not far out," +
				" and p rejects only where both t-tests do, on the same side. "
		}
		if c.Refused == stats.RefusedByHull {
			s += "For a comparison refused for its stalls, the interval is the hull of that t interval and the median difference's order-statistic interval," +
				" and p rejects only where the t-test and the sign test both do, on the same side. "
		}
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
	switch rule.Comparison.(type) {
	case analysis.LogRegression:
		return "ratio intervals from the regression on arm and run position, stalled runs trimmed"
	case analysis.RoundBlocks:
		return "ratio intervals round by round, stalled rounds trimmed, each at the level its arm was judged at"
	}
	return fmt.Sprintf("ratio intervals at %s by percentile bootstrap", pct.Exact(me.Confidence))
}

// outlierRule names the outlier rule.
func outlierRule() string {
	return fmt.Sprintf("modified z-score > %s", count(stats.OutlierThreshold))
}
