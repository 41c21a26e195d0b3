package stats

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"
)

// Summary is the location and dispersion of one sample. The analysis
// stores it as a schema.Summary, whose fields are the same.
type Summary struct {
	N int
	// Median, Q1 and Q3 are type-7 quantiles (Quantile).
	Median float64
	// MAD is the raw median absolute deviation from the median (not scaled
	// by 1.4826).
	MAD      float64
	Q1, Q3   float64
	Min, Max float64
	// Mean and StdDev are the sample mean and standard deviation (n−1);
	// StdDev is 0 for one value.
	Mean, StdDev float64
	// CV is the coefficient of variation, StdDev/|Mean|; 0 when Mean is 0.
	CV float64
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

// Median is the median of xs, in any order: the middle value, or the mean
// of the two middle values; NaN for none. (Quantile(sorted, 0.5) is the
// same value but for rounding in its last bit.)
func Median(xs []float64) float64 {
	n := len(xs)
	if n == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	if slices.ContainsFunc(s, math.IsNaN) {
		slices.Sort(s)
		if n%2 == 1 {
			return s[n/2]
		}
		return (s[n/2-1] + s[n/2]) / 2
	}
	// The middle values by selection, in linear time: the put-back
	// model (PutBackChance) takes two medians a draw, thousands of draws
	// a comparison.
	hi := selectNth(s, n/2)
	if n%2 == 1 {
		return hi
	}
	return (slices.Max(s[:n/2]) + hi) / 2
}

// selectNth reorders s (no NaN) so that s[k] is its k-th smallest value
// (from 0), those before it no larger and those after no smaller, and
// returns it: Hoare's selection with a median-of-three pivot.
func selectNth(s []float64, k int) float64 {
	lo, hi := 0, len(s)-1
	for hi > lo {
		mid := lo + (hi-lo)/2
		if s[mid] < s[lo] {
			s[mid], s[lo] = s[lo], s[mid]
		}
		if s[hi] < s[lo] {
			s[hi], s[lo] = s[lo], s[hi]
		}
		if s[hi] < s[mid] {
			s[hi], s[mid] = s[mid], s[hi]
		}
		pivot := s[mid]
		i, j := lo, hi
		for i <= j {
			for s[i] < pivot {
				i++
			}
			for pivot < s[j] {
				j--
			}
			if i <= j {
				s[i], s[j] = s[j], s[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return s[k]
		}
	}
	return s[k]
}

// Finite reports whether v is a number, neither NaN nor infinite.
func Finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
