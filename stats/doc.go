// Package stats is the statistics of a campaign. It computes typed
// results from the runs' samples: values (NaN where undefined), the
// method that computed them, and warnings. It imports nothing of
// decodebench's: the analysis turns its results into the stored schema
// types, and the recorder words them.
//
// # Summaries and intervals
//
// Summarize is one sample's location and dispersion (median and quartiles
// by Quantile's type-7 interpolation, MAD, mean, standard deviation, CV).
// MedianInterval is the median's distribution-free confidence interval
// from order statistics (benchmath's), saying the level it really has
// when the sample is too small for the one asked. Outliers marks values
// by their modified z-score (Iglewicz and Hoaglin).
//
// # Comparing an arm with the baseline
//
//   - Compare: the ratio of medians, its percentile-bootstrap interval
//     (bootstrapRatio), and the Mann–Whitney U test (benchmath).
//   - ComparePaired: per-round log ratios, a bootstrap over rounds, and
//     the Wilcoxon signed-rank test (SignedRankP; exact for small n).
//   - CompareRobust: a regression of the log values on the arm and the
//     run's position, so that a trend of the host is taken out, fitted
//     after trimming runs far out (TrimZ robust standard deviations, and
//     a studentized residual beyond the Bonferroni t quantile at
//     TrimAlpha), with a t-test and t interval; Trend and TrendDifference
//     are an arm's own trend and its trend relative to the baseline.
//   - CompareBlocks and CompareRounds: each arm against its reference
//     round by round (a host step or a common drift cancels within the
//     round, each arm keeps its own variance), far rounds trimmed as
//     stalls and too many refused (RoundTrim); what a refused comparison
//     states is RefusedEstimate's (RefusedByHull: the hull of the t
//     interval and the median's order-statistic interval, SignInterval,
//     with HullP, the t-test and the sign test on one side).
//   - CompareRatios: how an arm's ratio to its baseline moved between two
//     campaigns (a bootstrap of the ratio of ratios).
//
// Holm adjusts the p-values of a family of comparisons (Holm's step-down
// procedure), so that a campaign of several arms keeps its family-wise
// error rate.
//
// # Minimum detectable effects
//
// MDE is the effect a comparison of medians detects with a given power,
// from a robust σ of the logs (RobustSigmaLog, PooledSigma). MDERobust is
// CompareRobust's: it models the noise, the t quantiles at the fit's
// degrees of freedom, min_effect, the stalls a campaign meets (trimmed or
// kept; Stalls, PoolStalls, with their rate as seen or averaged over its
// uncertainty, StallRate) and the sequential looks of the schedule.
// MDERobust1 is rule robust-1's, which its records re-derive. MDEBlocks
// (rule robust-4) and MDERounds (robust-5) are the comparisons by round':
// MDERounds draws the far rounds, the refusals and the rounds trimmed
// from the rate's posterior even where a campaign saw none; MDERoundsKept
// with KeptByPutBack (robust-6) keeps a comparison's far rounds in at the
// chance that the trimming itself puts them back (PutBackChance).
//
// # Drift
//
// DriftOf measures how one arm's values moved over the campaign
// (Spearman's rho against time, and the change between the medians of the
// first and last thirds); Flagged says whether it is large enough to
// report.
//
// # Planning
//
// CIWidth is the width of a comparison's interval, by which adaptive
// repetition decides whether another round is needed. The bootstrap's
// draws depend only on the samples' sizes, the resamples and the seed, so
// they are planned once per shape (bootplan.go) and every interval is
// bit-identical to drawing each resample, as committed records' checks
// require.
//
// Everything here is deterministic given its inputs and seeds.
package stats
