package website

import (
	"math"
	"strconv"
	"time"
)

// A plot's geometry, in the SVG's own units (its viewBox): the page
// scales it to its width.
const (
	plotW, plotH                        = 960.0, 220.0
	marginL, marginR, marginT, marginB  = 64.0, 40.0, 12.0, 26.0
	innerW                              = plotW - marginL - marginR
	innerH                              = plotH - marginT - marginB
	markerR, denseMarkerR, denseAbove   = 3.6, 2.2, 200
	sparkW, sparkH, sparkPad, sparkCols = 120.0, 26.0, 2.0, 120
)

// scale maps a value range onto a pixel range.
type scale struct{ d0, d1, p0, p1 float64 }

func (s scale) at(v float64) float64 {
	if s.d1 == s.d0 {
		return (s.p0 + s.p1) / 2
	}
	return s.p0 + (v-s.d0)/(s.d1-s.d0)*(s.p1-s.p0)
}

// clamp is v within the scale's domain.
func (s scale) clamp(v float64) float64 {
	lo, hi := min(s.d0, s.d1), max(s.d0, s.d1)
	return max(lo, min(hi, v))
}

// yRange is the y domain of a plot: its values with a margin, widened to
// take in the intervals, but never by more than the values' own span on
// either side (an interval reaching further is clipped at the edge), and
// taking in ref (the 1× line of a ratio) when it lies that close.
func yRange(values, los, his []float64, ref float64) (float64, float64) {
	vlo, vhi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		vlo, vhi = min(vlo, v), max(vhi, v)
	}
	if math.IsInf(vlo, 0) {
		return 0, 1
	}
	span := max(vhi-vlo, 0.02*math.Abs(vhi), 1e-9)
	lo, hi := vlo-0.08*span, vhi+0.08*span
	for _, v := range los {
		lo = min(lo, max(v, vlo-span))
	}
	for _, v := range his {
		hi = max(hi, min(v, vhi+span))
	}
	if !math.IsNaN(ref) && ref >= vlo-span && ref <= vhi+span {
		lo, hi = min(lo, ref), max(hi, ref)
	}
	return lo, hi
}

// yTicks are round values across [lo, hi], about five, with the
// decimals their step needs.
func yTicks(lo, hi float64) ([]float64, int) {
	step := niceStep((hi - lo) / 4)
	decimals := max(0, int(-math.Floor(math.Log10(step))))
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out, decimals
}

// niceStep is 1, 2 or 5 times a power of ten, the smallest not under x.
func niceStep(x float64) float64 {
	if x <= 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

func tickText(v float64, decimals int) string {
	return strconv.FormatFloat(v, 'f', decimals, 64)
}

// dayNumber is a record's date as days since 1970-01-01; ok false for a
// date that does not parse (recorder.CheckName refuses those already).
func dayNumber(date string) (float64, bool) {
	t, err := time.Parse("2006-01-02", date)
	if err != nil {
		return 0, false
	}
	return float64(t.Unix() / 86400), true
}

// dayTicks are the days labelled on the x axis between day d0 and d1
// (d1 excluded: a date's records stand within [day, day+1)): every 1, 2,
// 7, 14, 30, 60, 90, 180 or 365 days, at most eight.
func dayTicks(d0, d1 float64) []float64 {
	first, last := math.Ceil(d0), math.Ceil(d1)-1
	step := 1.0
	for _, s := range []float64{1, 2, 7, 14, 30, 60, 90, 180, 365} {
		step = s
		if (last-first+1)/s <= 8 {
			break
		}
	}
	var out []float64
	for d := first; d <= last; d += step {
		out = append(out, d)
	}
	return out
}

func dayText(d float64) string {
	return time.Unix(int64(d)*86400, 0).UTC().Format("2006-01-02")
}
