package stats

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"
)

// Config sets the thresholds of Compare.
type Config struct {
	// Confidence is the level of the bootstrap interval, e.g. 0.95.
	Confidence float64
	// Alpha is the level below which the U test's p-value counts, e.g. 0.05.
	Alpha float64
	// MinEffect is the smallest relative change that can count as
	// significant, e.g. 0.01 for 1%. As in asv, a difference too small to
	// matter is never reported, however small its p-value: with enough
	// runs any systematic wobble becomes "significant".
	MinEffect float64
	// Resamples is the number of bootstrap resamples; 0 means 10000.
	Resamples int
	// Seed seeds the bootstrap, which makes Compare deterministic.
	Seed uint64
	// StallSign is which way a stall moves a run's value: −1 for a rate
	// (it falls), +1 for a time (it grows), 0 when unknown. Only
	// TrimGoodRuns reads it.
	StallSign int
}

// DefaultConfig returns 95% intervals, alpha 0.05, a 1% minimum effect,
// 10000 resamples and seed 1.
func DefaultConfig() Config {
	return Config{Confidence: 0.95, Alpha: 0.05, MinEffect: 0.01, Resamples: 10000, Seed: 1}
}

// withDefaults fills the fields whose zero value means nothing useful
// (a 0% interval, a test that can never reject, no resamples) from
// DefaultConfig. MinEffect and Seed keep their zero values, which are
// meaningful.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if c.Confidence == 0 {
		c.Confidence = d.Confidence
	}
	if c.Alpha == 0 {
		c.Alpha = d.Alpha
	}
	if c.Resamples <= 0 {
		c.Resamples = d.Resamples
	}
	return c
}

// Result is an arm's samples of one metric judged against the baseline's,
// in raw form: NaN where undefined, with the method and the library's
// warnings. The analysis stores it as a schema.Comparison.
type Result struct {
	// Ratio is median(arm)/median(base); NaN when undefined.
	Ratio float64
	// Lo and Hi bound the bootstrap interval of Ratio at Confidence; NaN
	// when either group has fewer than two samples.
	Lo, Hi     float64
	Confidence float64
	// Method names how Lo and Hi were computed.
	Method string
	// P is the two-sided Mann–Whitney U p-value (benchmath.AssumeNothing);
	// 1 when the test cannot be run (e.g. all values equal).
	P float64
	// Significant is P < Alpha, |Ratio−1| ≥ MinEffect, and the interval
	// excludes 1. Requiring all three keeps the rank test, the effect size
	// and the interval from contradicting each other in a report.
	Significant bool
	// N1 and N2 are the numbers of base and arm samples used (NaNs
	// dropped).
	N1, N2   int
	Warnings []string
	// Paired is set by ComparePaired: N1 = N2 = the number of rounds.
	Paired bool
}

// Compare judges arm against base. NaN values are ignored. Values are
// assumed positive, as throughputs and latencies are.
//
// The p-value comes from benchmath's U test, which like the median assumes
// nothing about the shape of the noise; the interval comes from a
// bootstrap of the ratio of medians (see bootstrapRatio), because the
// U test has no interval of its own for a ratio.
func Compare(base, arm []float64, c Config) Result {
	c = c.withDefaults()
	b, a := sorted(base), sorted(arm)
	out := Result{
		Ratio:      math.NaN(),
		Lo:         math.NaN(),
		Hi:         math.NaN(),
		Confidence: c.Confidence,
		Method:     fmt.Sprintf("percentile bootstrap of the ratio of medians, %d resamples, seed %d", c.Resamples, c.Seed),
		P:          1,
		N1:         len(b),
		N2:         len(a),
	}
	if len(b) == 0 || len(a) == 0 {
		out.Warnings = append(out.Warnings, "no samples to compare")
		return out
	}
	out.Ratio = Ratio(Quantile(a, 0.5), Quantile(b, 0.5))
	if math.IsNaN(out.Ratio) {
		out.Warnings = append(out.Warnings, "base median is 0: ratio undefined")
	}

	th := &benchmath.Thresholds{CompareAlpha: c.Alpha}
	u := benchmath.AssumeNothing.Compare(benchmath.NewSample(b, th), benchmath.NewSample(a, th))
	out.P = u.P
	out.Warnings = append(out.Warnings, errStrings(u.Warnings)...)

	if len(b) < 2 || len(a) < 2 {
		// One value resampled is that value again: a zero-width
		// interval that would claim certainty.
		out.Warnings = append(out.Warnings, "need >= 2 samples per arm for a bootstrap interval")
	} else {
		var dropped int
		out.Lo, out.Hi, dropped = bootstrapRatio(b, a, c.Confidence, c.Resamples, c.Seed)
		if dropped > 0 {
			out.Warnings = append(out.Warnings, fmt.Sprintf("%d of %d resamples had a base median of 0 and were dropped", dropped, c.Resamples))
		}
	}

	out.Significant = out.P < c.Alpha &&
		math.Abs(out.Ratio-1) >= c.MinEffect &&
		(out.Lo > 1 || out.Hi < 1)
	return out
}
