package stats

import (
	"math"
	"slices"
)

// OutlierThreshold is Iglewicz and Hoaglin's recommended cut-off for the
// modified z-score: a value whose |z| exceeds 3.5 is a potential outlier.
const OutlierThreshold = 3.5

// Outliers marks the values of xs whose modified z-score
//
//	z = 0.6745·(x − median)/MAD
//
// exceeds threshold in absolute value (Iglewicz and Hoaglin, "How to Detect
// and Handle Outliers", 1993). 0.6745 is the normal quantile at 0.75, so z
// is on the scale of a standard deviation for normal data; median and MAD
// are used instead of mean and standard deviation so that the outliers
// being looked for cannot hide themselves by inflating the scale. A
// threshold ≤ 0 means OutlierThreshold. NaN values are never outliers and
// are left out of the median and MAD.
//
// MAD is 0 when more than half the values are equal, common with quantized
// metrics (whole milliseconds, token counts). Calling every other value an
// outlier would then flag ordinary quantization steps, and calling none
// would hide a real outlier. Instead, as IBM's implementation of the
// score does, the scale falls back to the mean absolute deviation from
// the median: z = (x − median)/(1.253314·MeanAD), 1.253314 = √(π/2)
// making it, like MAD/0.6745, estimate σ for normal data. If that too is
// 0, all values are equal and none is an outlier.
func Outliers(xs []float64, threshold float64) []bool {
	if threshold <= 0 {
		threshold = OutlierThreshold
	}
	out := make([]bool, len(xs))
	v := sorted(xs)
	if len(v) == 0 {
		return out
	}
	med := Quantile(v, 0.5)
	dev := make([]float64, len(v))
	for i, x := range v {
		dev[i] = math.Abs(x - med)
	}
	slices.Sort(dev)
	scale := Quantile(dev, 0.5) / 0.6745
	if scale == 0 {
		var sum float64
		for _, d := range dev {
			sum += d
		}
		scale = 1.253314 * sum / float64(len(dev))
	}
	if scale == 0 {
		return out
	}
	for i, x := range xs {
		out[i] = !math.IsNaN(x) && math.Abs(x-med)/scale > threshold
	}
	return out
}
