package review

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/stats"
)

// ConfirmRule is how a second session confirms the alarm of a first: a
// value, so that the simulation (confirm_sim_test.go) compares rules
// through the code the gate runs.
type ConfirmRule struct {
	// HeterogeneityAlpha: when Cochran's Q between the sessions has p
	// below it, they disagree beyond chance and the alarm is not raised.
	HeterogeneityAlpha float64 `json:"heterogeneity_alpha"`
	// Agreement is what each session must show on its own.
	Agreement Agreement `json:"agreement"`
	// EachSignificantOverrides keeps a significant Q from vetoing when
	// every session on its own is a significant regression (one-sided,
	// at the family's alpha over its arms): the sessions then disagree
	// on how much, not on whether.
	EachSignificantOverrides bool `json:"each_significant_overrides,omitempty"`
	// OneSidedVeto: Q vetoes only where a later session shows less of a
	// regression than the first: a rerun that sees a larger one confirms
	// it, however far apart the two are.
	OneSidedVeto bool `json:"one_sided_veto,omitempty"`
}

// Agreement is what a confirmation asks of each session on its own,
// beside the combined change.
type Agreement string

// Agreements a rule can ask for.
const (
	// SameDirection: every session's own estimate points towards a
	// regression.
	SameDirection Agreement = "same-direction"
	// SecondSignificant: the second session alone is a significant
	// regression, one-sided at the family's alpha over its arms.
	SecondSignificant Agreement = "second-significant"
)

// DefaultConfirmRule is the rule `diff --confirm` applies: the second
// session on its own is a significant regression, and Cochran's Q below p
// 0.10 (the usual level for a test this weak) vetoes where the second
// session shows less of a regression than the first, unless every session
// on its own is a significant regression.
// The simulation chose it (confirm_sim_test.go,
// docs/reference/statistics.md): asking only that the sessions point the
// same way raised more false alarms than alpha when a session moves the
// ratio by 2%, and a veto by Q alone lost a third of the 10% regressions
// at CV 2%; a veto on either side dropped alarms whose rerun saw a larger
// regression than the first session (a review found a −39% rerun of a
// −2.5% alarm not raised).
var DefaultConfirmRule = ConfirmRule{HeterogeneityAlpha: 0.10, Agreement: SecondSignificant, EachSignificantOverrides: true, OneSidedVeto: true}

// recordRatio reads an arm's ratio to its baseline from one record: the
// ratio of medians and its percentile bootstrap interval at the record's
// own confidence (stats.Compare, as the record's secondary ratios), whose
// width on the log scale over 2·z gives the standard error; SE 0 when the
// record cannot give one.
func recordRatio(rec campaign, arm, base, metric string) RecordRatio {
	conf := rec.rec.Method.Confidence
	if !(conf > 0 && conf < 1) {
		conf = 0.95
	}
	out := RecordRatio{Record: rec.path}
	c := stats.Compare(samples(rec.rec, base, metric), samples(rec.rec, arm, metric), stats.Config{Confidence: conf, Resamples: scenarios.Resamples, Seed: 1})
	if !(c.Ratio > 0) || math.IsInf(c.Ratio, 0) {
		return out
	}
	out.Ratio, out.Log = c.Ratio, math.Log(c.Ratio)
	if c.Lo > 0 && c.Hi > 0 && !math.IsInf(c.Hi, 0) {
		out.SE = (math.Log(c.Hi) - math.Log(c.Lo)) / (2 * zQuantile(0.5+conf/2))
	}
	return out
}

// combine fills the arm's session estimates, their combination and
// Cochran's Q. Session i's estimate is d_i = y(new_i) − y(old_i); two
// sessions that share a record share its variance, so the estimates'
// covariance V has V_ij = Σ over the records both use of ± var (+ when the
// record is on the same side in both). The combination is the generalised
// least squares mean μ = 1ᵀV⁻¹d / 1ᵀV⁻¹1 with variance 1/1ᵀV⁻¹1: with
// independent sessions, plain inverse-variance weighting (a fixed-effect
// meta-analysis); with a shared old record, each new record weighted by
// its own inverse variance and the old record's variance added whole.
// Q = (d − μ)ᵀV⁻¹(d − μ) on k − 1 degrees of freedom: for two sessions,
// (d₁ − d₂)² over the variance of their difference, where what they share
// cancels.
func (a *ArmConfirmation) combine(sessions [][2]int, f *RatioFamily) {
	k := len(sessions)
	a.DF = k - 1
	a.Sessions = make([]Estimate, k)
	a.Q, a.QP, a.I2, a.Combined = 0, 0, 0, Estimate{}
	for _, r := range a.Records {
		if !(r.SE > 0) {
			return
		}
	}
	d := make([]float64, k)
	for i, s := range sessions {
		d[i] = a.Records[s[1]].Log - a.Records[s[0]].Log
	}
	v := covariance(sessions, a.Records)
	mu, varMu, q, ok := gls(d, v)
	if !ok {
		return
	}
	for i := range d {
		a.Sessions[i] = estimate(d[i], math.Sqrt(v[i][i]), f, a.HigherIsBetter)
	}
	a.Combined = estimate(mu, math.Sqrt(varMu), f, a.HigherIsBetter)
	// Ratios that no float holds (a record of values 1e300 apart) are no
	// estimate either: the JSON could not carry them.
	for _, e := range append([]Estimate{a.Combined}, a.Sessions...) {
		if !e.finite() {
			a.Sessions, a.Combined = make([]Estimate, k), Estimate{}
			return
		}
	}
	a.Q, a.QP = q, 1
	if a.DF > 0 {
		a.QP = distuv.ChiSquared{K: float64(a.DF)}.Survival(q)
	}
	if q > 0 {
		a.I2 = math.Max(0, (q-float64(a.DF))/q)
	}
}

// gls is the generalised least squares mean of estimates d with covariance
// v, its variance, and Cochran's Q about it; ok false when v is singular.
func gls(d []float64, v [][]float64) (mu, varMu, q float64, ok bool) {
	w, ok1 := solve(v, ones(len(d)))
	vd, ok2 := solve(v, d)
	if !ok1 || !ok2 {
		return 0, 0, 0, false
	}
	sw, swd, dvd := 0.0, 0.0, 0.0
	for i := range d {
		sw += w[i]
		swd += vd[i]
		dvd += d[i] * vd[i]
	}
	if !(sw > 0) {
		return 0, 0, 0, false
	}
	mu = swd / sw
	return mu, 1 / sw, math.Max(0, dvd-mu*mu*sw), true
}

// covariance is the sessions' estimates' covariance matrix.
func covariance(sessions [][2]int, recs []RecordRatio) [][]float64 {
	v := make([][]float64, len(sessions))
	for i, s := range sessions {
		v[i] = make([]float64, len(sessions))
		for j, t := range sessions {
			v[i][j] = shared(s, t, recs)
		}
	}
	return v
}

// shared is the covariance of the estimates of sessions s and t: the
// variance of each record they both use, signed by its sides.
func shared(s, t [2]int, recs []RecordRatio) float64 {
	var c float64
	for _, i := range s {
		for _, j := range t {
			if i != j {
				continue
			}
			sign := 1.0
			if (i == s[0]) != (j == t[0]) {
				sign = -1
			}
			c += sign * recs[i].SE * recs[i].SE
		}
	}
	return c
}

// estimate is a log change with its standard error, its interval at the
// family's confidence and its p values.
func estimate(log, se float64, f *RatioFamily, higher bool) Estimate {
	z := zQuantile(0.5 + f.Confidence/2)
	return Estimate{
		Log: log, SE: se,
		Change: math.Expm1(log), Lo: math.Expm1(log - z*se), Hi: math.Expm1(log + z*se),
		P:      math.Erfc(math.Abs(log/se) / math.Sqrt2),
		PWorse: pWorse(log, se, higher),
	}
}

// finite reports whether every number of the estimate is finite.
func (e Estimate) finite() bool {
	for _, x := range []float64{e.Log, e.SE, e.Change, e.Lo, e.Hi, e.P, e.PWorse} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// decide is the rule's outcome for one arm, in order: no alarm, no
// estimate, sessions that disagree, a session that does not agree, a
// combined change that is not a significant regression at the family's
// alpha over its arms (Bonferroni, as the diff's own gate), or one below
// the threshold; else raised.
func (r ConfirmRule) decide(a ArmConfirmation, f *RatioFamily, threshold float64) ConfirmOutcome {
	level := f.Alpha / float64(f.Comparisons)
	c := a.Combined
	switch {
	case !a.Alarm:
		return NoAlarm
	case c.SE == 0:
		return NoEstimate
	case a.QP < r.HeterogeneityAlpha && r.vetoes(a, level):
		return SessionsDisagree
	case !r.agreed(a.Sessions, level, a.HigherIsBetter):
		return NotAgreed
	case !worse(c.Log, a.HigherIsBetter) || c.P >= level:
		return NotSignificant
	case math.Abs(c.Change) < threshold:
		return BelowThreshold
	}
	return Raised
}

// vetoes reports whether sessions that Q finds apart beyond chance leave
// the alarm unraised.
func (r ConfirmRule) vetoes(a ArmConfirmation, level float64) bool {
	if r.EachSignificantOverrides && eachSignificant(a.Sessions, level) {
		return false
	}
	if !r.OneSidedVeto {
		return true
	}
	first := a.Sessions[0].Log
	for _, s := range a.Sessions[1:] {
		if lessWorse(s.Log, first, a.HigherIsBetter) {
			return true
		}
	}
	return false
}

// lessWorse reports whether log change x is less of a regression than y.
func lessWorse(x, y float64, higher bool) bool {
	if higher {
		return x > y
	}
	return x < y
}

// eachSignificant reports whether every session on its own is a
// significant regression, one-sided at level.
func eachSignificant(s []Estimate, level float64) bool {
	for _, e := range s {
		if e.PWorse >= level {
			return false
		}
	}
	return true
}

// agreed reports whether the sessions show, each on its own, what the rule
// asks of them.
func (r ConfirmRule) agreed(s []Estimate, level float64, higher bool) bool {
	switch r.Agreement {
	case SecondSignificant:
		return eachSignificant(s[1:], level)
	default:
		for _, e := range s {
			if !worse(e.Log, higher) {
				return false
			}
		}
		return true
	}
}

// zQuantile is the standard normal's quantile.
func zQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

func ones(k int) []float64 {
	out := make([]float64, k)
	for i := range out {
		out[i] = 1
	}
	return out
}

// solve solves V x = b by Gaussian elimination with partial pivoting; ok
// false when V is singular.
func solve(v [][]float64, b []float64) ([]float64, bool) {
	k := len(b)
	m := make([][]float64, k)
	for i := range v {
		m[i] = append(append([]float64{}, v[i]...), b[i])
	}
	for col := range k {
		p := col
		for r := col + 1; r < k; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[p][col]) {
				p = r
			}
		}
		if m[p][col] == 0 || math.IsNaN(m[p][col]) {
			return nil, false
		}
		m[col], m[p] = m[p], m[col]
		for r := range k {
			if r == col {
				continue
			}
			f := m[r][col] / m[col][col]
			for c := col; c <= k; c++ {
				m[r][c] -= f * m[col][c]
			}
		}
	}
	x := make([]float64, k)
	for i := range x {
		x[i] = m[i][k] / m[i][i]
	}
	return x, true
}
