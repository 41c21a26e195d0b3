package stats

import (
	"math"
	"slices"
)

// sorted returns a sorted copy of xs without its NaN values. Every function
// in this package that takes raw samples goes through it, so that a failed
// run recorded as NaN is ignored the same way Summarize ignores it, and so
// that callers' slices are never reordered (benchmath.NewSample sorts its
// argument in place).
func sorted(xs []float64) []float64 {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	slices.Sort(v)
	return v
}

// errStrings turns benchmath's warnings, which are errors, into the plain
// strings this package reports.
func errStrings(errs []error) []string {
	var s []string
	for _, e := range errs {
		s = append(s, e.Error())
	}
	return s
}
