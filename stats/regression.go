package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Timed is one run's value and its position in the campaign (its place
// in the plan, or its start in seconds): the covariate that lets a
// comparison adjust for a trend of the host.
type Timed struct {
	Pos, Value float64
	// Block is the run's round, for comparisons by round (CompareBlocks).
	Block int
}

// TrimZ is the distance from its arm's median, in robust standard
// deviations (1.4826·MAD), beyond which a run is a candidate for trimming;
// TrimAlpha is the chance that a campaign of normal runs loses any run:
// a candidate is trimmed only when its studentized residual from the fit
// of the other runs is beyond the Bonferroni t quantile at TrimAlpha over
// the runs (the classical outlier test). A run 30% slow sits 18 standard
// deviations out on a host with 2% noise, 4 on one with 9%.
const (
	TrimZ     = 3.0
	TrimAlpha = 0.01
)

// Robust is CompareRobust's comparison: the Result every rule fills, and
// what the regression adds.
type Robust struct {
	Result
	// Delta is the arm's coefficient, log(Ratio); SE its standard error;
	// DF the residual degrees of freedom; Sigma the residual standard
	// deviation of log values.
	Delta, SE, DF, Sigma float64
	// Trimmed1 and Trimmed2 count the base's and the arm's runs trimmed.
	Trimmed1, Trimmed2 int
	// Kept marks, per input value (base then arm), the runs the fit used.
	Kept []bool
	// Stalls is what the comparison saw of runs far out, for MDERobust.
	Stalls Stalls
	// Blocks is the rounds with a run of each side, for a comparison by
	// round (CompareBlocks; 0 otherwise); Refused is set when more than a
	// quarter of them are far out, and the comparison decides nothing.
	Blocks  int
	Refused bool
	// Staged marks a comparison whose standard error is a first stage's
	// noise (WidthStage.Restate): its MDE is StagedMDE's.
	Staged bool
}

// CompareRobust judges arm against base by a regression of the log values
// on the arm and the position:
//
//	log v = a + δ·[arm] + β·(pos − mean pos) + ε
//
// fitted by least squares after trimming the runs whose residual exceeds
// TrimZ robust standard deviations (1.4826·MAD of the residuals), refitted
// until no run moves in or out. The trend β is common to both arms, so a
// drift of the host that interleaving does not cancel is taken out
// instead of widening the interval; a stalled run is left out instead of
// dragging a median. Ratio is exp(δ); the interval is the t interval of δ
// at Confidence with the fit's residual degrees of freedom; P the
// two-sided t-test of δ = 0, so the test and the interval never disagree.
// Significant is P < Alpha and |Ratio−1| ≥ MinEffect. Values that are
// NaN or not positive are ignored.
func CompareRobust(base, arm []Timed, c Config) Robust {
	c = c.withDefaults()
	out := Robust{Result: Result{Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: c.Confidence, P: 1,
		Method: fmt.Sprintf("regression of log values on arm and run position, runs beyond %.1f robust SD trimmed; t-test and t interval", TrimZ)},
		Delta: math.NaN(), SE: math.NaN(), DF: math.NaN(), Sigma: math.NaN()}
	var ys, ps []float64
	var isArm []bool
	var valid []bool
	add := func(xs []Timed, a bool) {
		for _, x := range xs {
			ok := x.Value > 0 && !math.IsNaN(x.Value) && !math.IsInf(x.Value, 0) && !math.IsNaN(x.Pos)
			valid = append(valid, ok)
			if !ok {
				ys, ps, isArm = append(ys, 0), append(ps, 0), append(isArm, a)
				continue
			}
			ys, ps, isArm = append(ys, math.Log(x.Value)), append(ps, x.Pos), append(isArm, a)
		}
	}
	add(base, false)
	add(arm, true)
	keep := slices.Clone(valid)
	out.Kept = keep
	count := func() (n1, n2 int) {
		for i, k := range keep {
			if k && isArm[i] {
				n2++
			} else if k {
				n1++
			}
		}
		return
	}
	out.N1, out.N2 = count()
	if out.N1 < 2 || out.N2 < 2 || out.N1+out.N2 < 4 {
		out.Warnings = append(out.Warnings, "need >= 2 runs per arm and 4 in all for the regression")
		return out
	}
	keep = robustKeep(ys, isArm, valid, func(keep []bool) fit { return fitTrend(ys, ps, isArm, keep) })
	f := fitTrend(ys, ps, isArm, keep)
	out.Kept = keep
	out.N1, out.N2 = count()
	for i, v := range valid {
		if v && !keep[i] {
			if isArm[i] {
				out.Trimmed2++
			} else {
				out.Trimmed1++
			}
		}
	}
	if !f.ok {
		out.Warnings = append(out.Warnings, "the regression cannot be fitted (every run at one position?)")
		return out
	}
	out.Delta, out.SE, out.DF, out.Sigma = f.delta, f.se, f.df, f.sigma
	out.Stalls = stallsOf(ys, ps, isArm, valid, keep, f)
	out.Ratio = math.Exp(f.delta)
	if f.se == 0 {
		// Every kept run fits exactly: certainty, as far as the data go.
		out.Lo, out.Hi = out.Ratio, out.Ratio
		if f.delta != 0 {
			out.P = 0
		}
	} else {
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: f.df}
		q := t.Quantile(1 - (1-c.Confidence)/2)
		out.Lo, out.Hi = math.Exp(f.delta-q*f.se), math.Exp(f.delta+q*f.se)
		out.P = math.Min(1, 2*t.Survival(math.Abs(f.delta)/f.se))
	}
	out.Significant = out.P < c.Alpha && math.Abs(out.Ratio-1) >= c.MinEffect
	return out
}

// stallsOf describes the runs trimmed and the runs far from their arm's
// median (beyond TrimZ robust standard deviations) but kept, and the fit
// without any run far out.
func stallsOf(ys, ps []float64, isArm, valid, keep []bool, f fit) Stalls {
	s := Stalls{Sigma: f.sigma, DF: f.df}
	resid := medianResiduals(ys, isArm, valid)
	z := robustZ(resid, valid)
	clean := slices.Clone(valid)
	for i, v := range valid {
		if !v {
			continue
		}
		if isArm[i] {
			s.Runs2++
		} else {
			s.Runs1++
		}
		if z[i] > TrimZ {
			clean[i] = false
			if !keep[i] {
				continue
			}
			s.Kept++
			s.Shift += resid[i]
			s.RMS += resid[i] * resid[i]
		}
	}
	for i, v := range valid {
		if v && !keep[i] {
			s.Trimmed++
		}
	}
	n := float64(s.Runs1 + s.Runs2)
	s.TrimRate, s.KeptRate = float64(s.Trimmed)/n, float64(s.Kept)/n
	if s.Kept > 0 {
		s.Shift /= float64(s.Kept)
		s.RMS = math.Sqrt(s.RMS / float64(s.Kept))
	}
	if slices.Equal(clean, valid) {
		return s
	}
	if g := fitTrend(ys, ps, isArm, clean); g.ok && g.sigma > 0 {
		s.Sigma, s.DF = g.sigma, g.df
	}
	return s
}
