// Package stats summarizes the samples of a campaign: per-arm location and
// dispersion, and ratios between arms.
package stats

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Summary describes one arm's samples of one metric.
type Summary struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	// MAD is the raw median absolute deviation from the median (not scaled
	// by 1.4826).
	MAD    float64 `json:"mad"`
	Q1     float64 `json:"q1"`
	Q3     float64 `json:"q3"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stddev"`
	// CV is the coefficient of variation, StdDev/Mean.
	CV float64 `json:"cv"`
}

// Spread is the interquartile range relative to the median, (Q3−Q1)/median:
// the dispersion measure the publishability gate uses, because unlike the
// CV it is not inflated by a single outlier.
func (s Summary) Spread() float64 {
	if s.Median == 0 {
		return 0
	}
	return (s.Q3 - s.Q1) / math.Abs(s.Median)
}

// Summarize computes a Summary. NaN values are ignored.
func Summarize(xs []float64) Summary {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return Summary{}
	}
	sort.Float64s(v)
	s := Summary{N: len(v), Min: v[0], Max: v[len(v)-1]}
	s.Median = Quantile(v, 0.5)
	s.Q1 = Quantile(v, 0.25)
	s.Q3 = Quantile(v, 0.75)
	dev := make([]float64, len(v))
	for i, x := range v {
		dev[i] = math.Abs(x - s.Median)
	}
	sort.Float64s(dev)
	s.MAD = Quantile(dev, 0.5)
	if len(v) > 1 {
		s.Mean, s.StdDev = stat.MeanStdDev(v, nil)
	} else {
		s.Mean = v[0]
	}
	if s.Mean != 0 {
		s.CV = s.StdDev / math.Abs(s.Mean)
	}
	return s
}

// Quantile returns the p-quantile of sorted data by linear interpolation
// between order statistics (Hyndman and Fan's type 7, the default of R and
// NumPy), so that the median of an even-sized sample is the mean of the two
// middle values. gonum's stat.Quantile offers only the empirical inverse CDF
// (type 1) and type-4 interpolation, whose "median" of {1,2,3,4,5} is 2.5.
func Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return math.NaN()
	}
	h := p * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// Ratio is a / b, or NaN when b is 0.
func Ratio(a, b float64) float64 {
	if b == 0 {
		return math.NaN()
	}
	return a / b
}
