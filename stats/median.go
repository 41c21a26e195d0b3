package stats

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"
)

// MedianCI is a sample median with a distribution-free confidence interval.
type MedianCI struct {
	Median float64
	// Lo and Hi bound the interval. They are ±Inf when no finite
	// interval exists (fewer than two samples).
	Lo, Hi float64
	// Confidence is the level the interval actually has, which differs
	// from the requested one: above it when the binomial order statistics
	// overshoot, below it when n is too small to reach it (see
	// MedianInterval).
	Confidence float64
	Warnings   []string
}

// MedianInterval returns the median of xs (NaNs ignored) and its
// confidence interval from order statistics (the binomial, sign-test
// interval, which assumes nothing about the distribution), as
// benchmath.AssumeNothing computes it.
//
// benchmath answers ±∞ with confidence 1 when n is too small for the
// requested level (n < 6 at 95%). A campaign of five runs still deserves an
// interval, so in that case this function reports the widest finite one,
// [min, max], at the level it really has, 1 − 2·0.5ⁿ (93.75% for n = 5),
// and says in a warning that it is below the level requested. Readers thus
// always see the level they get, never the one they asked for.
//
// The median itself is the type-7 Quantile used by Summarize; for p = 0.5
// it equals benchmath's type-8 median, but computing it the same way as
// Summary.Median avoids rounding differences between the two reports.
func MedianInterval(xs []float64, confidence float64) MedianCI {
	v := sorted(xs)
	n := len(v)
	if n == 0 {
		return MedianCI{Median: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Warnings: []string{"no samples"}}
	}
	s := benchmath.AssumeNothing.Summary(benchmath.NewSample(v, &benchmath.DefaultThresholds), confidence)
	m := MedianCI{
		Median:     Quantile(v, 0.5),
		Lo:         s.Lo,
		Hi:         s.Hi,
		Confidence: s.Confidence,
		Warnings:   errStrings(s.Warnings),
	}
	if n >= 2 && (math.IsInf(s.Lo, 0) || math.IsInf(s.Hi, 0)) {
		m.Lo, m.Hi = v[0], v[n-1]
		// P(x(1) < median < x(n)) = 1 − P(all above) − P(all below).
		m.Confidence = 1 - math.Ldexp(1, 1-n)
		m.Warnings = append(m.Warnings, fmt.Sprintf(
			"reporting [min, max] at %.2f%% confidence, below the %.4g%% requested", 100*m.Confidence, 100*confidence))
	}
	return m
}
