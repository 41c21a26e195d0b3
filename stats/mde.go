package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MDERobust is the minimum detectable effect of CompareRobust at the
// given power and two-sided level alpha, from its standard error and
// degrees of freedom, for an increase (up, as new/old − 1) and for a
// decrease (down, as 1 − new/old):
//
//	δ = max((t(1−α/2, ν) + t(power, ν)) · SE, m + t(power, ν) · SE)
//
// where m is log(1+minEffect) for an increase and −log(1−minEffect) for a
// decrease: an effect must also clear min_effect, which the first term
// alone ignores. SE is unbiased for σ by c4(ν+1), since a standard
// deviation from few runs is on average below σ. Up is exp(δ)−1, down
// 1−exp(−δ). The SE comes from the runs the fit kept, so runs lost to
// stalls widen it. NaN when SE is undefined.
func MDERobust(se, df, alpha, power, minEffect float64) (up, down float64) {
	if math.IsNaN(se) || df < 1 || alpha <= 0 || alpha >= 1 || power <= 0 || power >= 1 {
		return math.NaN(), math.NaN()
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
	se /= c4(df + 1)
	ta, tb := t.Quantile(1-alpha/2), t.Quantile(power)
	dUp := math.Max((ta+tb)*se, math.Log1p(minEffect)+tb*se)
	dDown := math.Max((ta+tb)*se, -math.Log1p(-minEffect)+tb*se)
	return math.Expm1(dUp), -math.Expm1(-dDown)
}

// c4 is E[s]/σ for a sample of n normal values.
func c4(n float64) float64 {
	lg1, _ := math.Lgamma(n / 2)
	lg2, _ := math.Lgamma((n - 1) / 2)
	return math.Sqrt(2/(n-1)) * math.Exp(lg1-lg2)
}
