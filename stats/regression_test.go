package stats

import (
	"gonum.org/v1/gonum/stat/distuv"
	"math"
	"math/rand/v2"
	"testing"
)

// One stalled run, 30% slow, in the faster arm: the regression trims it
// and finds the 5% change that a median of six runs and the U test at
// their floor would veto.
func TestCompareRobustTrimsAStall(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var base, arm []Timed
	for i := range 6 {
		base = append(base, Timed{Pos: float64(2*i + 1), Value: 100 * math.Exp(0.02*rng.NormFloat64())})
		arm = append(arm, Timed{Pos: float64(2*i + 2), Value: 105 * math.Exp(0.02*rng.NormFloat64())})
	}
	arm[2].Value *= 0.7
	r := CompareRobust(base, arm, DefaultConfig())
	t.Logf("ratio %.4f [%.4f, %.4f] p=%.3g trimmed %d/%d", r.Ratio, r.Lo, r.Hi, r.P, r.Trimmed1, r.Trimmed2)
	if r.Trimmed2 != 1 || r.Trimmed1 != 0 {
		t.Errorf("trimmed %d base and %d arm runs, want 0 and 1", r.Trimmed1, r.Trimmed2)
	}
	if !r.Significant || r.Lo > 1.05 || r.Hi < 1.05 {
		t.Errorf("not significant or interval misses 1.05: %+v", r.Result)
	}
}

func TestCompareRobustManyStalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var base, arm []Timed
	for i := range 10 {
		base = append(base, Timed{Pos: float64(3*i + 1), Value: 100 * math.Exp(0.02*rng.NormFloat64())})
		arm = append(arm, Timed{Pos: float64(3*i + 2), Value: 110 * math.Exp(0.02*rng.NormFloat64())})
	}
	arm[2].Value *= 0.7
	arm[5].Value *= 0.7
	arm[7].Value *= 0.7
	base[1].Value *= 0.7
	base[8].Value *= 0.7
	r := CompareRobust(base, arm, DefaultConfig())
	t.Logf("ratio %.4f [%.4f, %.4f] p=%.3g trimmed %d/%d", r.Ratio, r.Lo, r.Hi, r.P, r.Trimmed1, r.Trimmed2)
	if r.Trimmed2 != 3 || r.Trimmed1 != 2 {
		t.Errorf("trimmed %d base and %d arm runs, want 2 and 3", r.Trimmed1, r.Trimmed2)
	}
}

// On normal runs (nothing to trim) the t interval holds the true ratio
// 95% of the time at 6 runs an arm; trimming, which looks for stalls in
// every campaign, may cost at most a point of that. Measured: 94.6%
// (trimmed in 1.1% of campaigns); without trimming 95.2%.
func TestCompareRobustCoverage(t *testing.T) {
	t.Parallel() // a seeded simulation with its own generators: runs beside the others
	rng := rand.New(rand.NewPCG(7, 8))
	cov, trims := 0, 0
	const n = 4000
	for range n {
		var base, arm []Timed
		for i := range 6 {
			base = append(base, Timed{Pos: float64(3*i + 1), Value: 100 * math.Exp(0.09*rng.NormFloat64())})
			arm = append(arm, Timed{Pos: float64(3*i + 2), Value: 100 * math.Exp(0.09*rng.NormFloat64())})
		}
		r := CompareRobust(base, arm, DefaultConfig())
		if r.Lo <= 1 && 1 <= r.Hi {
			cov++
		}
		if r.Trimmed1+r.Trimmed2 > 0 {
			trims++
		}
	}
	c := float64(cov) / n
	t.Logf("coverage %.3f, trimmed in %.3f", c, float64(trims)/n)
	if c < 0.935 || c > 0.965 {
		t.Errorf("coverage %.3f, want 95%% ± 1.5 points", c)
	}
	if float64(trims)/n > 2*TrimAlpha {
		t.Errorf("trimmed normal runs in %.3f of campaigns, more than twice TrimAlpha", float64(trims)/n)
	}
}

// A trend common to both arms (a host warming up) moves neither the
// ratio nor its interval: the regression takes it out.
func TestCompareRobustCommonTrend(t *testing.T) {
	t.Parallel() // a seeded simulation with its own generators: runs beside the others
	rng := rand.New(rand.NewPCG(9, 10))
	var base, arm []Timed
	for i := range 10 {
		pb, pa := float64(2*i+1), float64(2*i+2)
		base = append(base, Timed{Pos: pb, Value: 100 * (1 + 0.01*pb) * math.Exp(0.005*rng.NormFloat64())})
		arm = append(arm, Timed{Pos: pa, Value: 100 * (1 + 0.01*pa) * math.Exp(0.005*rng.NormFloat64())})
	}
	r := CompareRobust(base, arm, DefaultConfig())
	t.Logf("20%% common trend, no effect: ratio %.4f [%.4f, %.4f]", r.Ratio, r.Lo, r.Hi)
	if r.Lo > 1 || r.Hi < 1 || r.Hi-r.Lo > 0.02 {
		t.Errorf("ratio %.4f [%.4f, %.4f]: a common trend leaked into the comparison", r.Ratio, r.Lo, r.Hi)
	}
	// The arm alone drifting: its trend relative to the baseline's is
	// found, with the size over the campaign.
	for i := range arm {
		arm[i].Value *= 1 + 0.004*arm[i].Pos
	}
	tr := TrendDifference(base, arm)
	t.Logf("arm drifting +8%%: relative trend %+.3f, p=%.3g", tr.Change, tr.P)
	if tr.P > 0.01 || tr.Change < 0.05 || tr.Change > 0.1 {
		t.Errorf("relative trend %+.3f p=%.3g, want about +7.6%% and significant", tr.Change, tr.P)
	}
}

// robustOf is a comparison of n runs an arm with residual σ sigma and
// the standard error of a two-group design.
func robustOf(n int, sigma float64) Robust {
	r := Robust{Sigma: sigma, DF: float64(2*n - 3), SE: sigma * math.Sqrt(2/float64(n))}
	r.N1, r.N2 = n, n
	r.Stalls = Stalls{Runs1: n, Runs2: n, Sigma: sigma, DF: r.DF}
	return r
}

// MDERobust for a decrease is 1−e^(−δ), smaller than the increase
// e^δ−1, and at least min_effect plus its margin; without runs far out and
// with one look it is the textbook (t(1−α/2) + t(power))·SE/c4.
func TestMDERobust(t *testing.T) {
	t.Parallel() // a seeded simulation with its own generators: runs beside the others
	r := robustOf(10, 0.045)
	up, down := MDERobust(r, 0.05, 0.8, 0.01, nil, StallRateSeen)
	if !(down < up) || math.Abs(math.Log1p(up)+math.Log1p(-down)) > 1e-9 {
		t.Errorf("up %.4f down %.4f: want the same log effect both ways", up, down)
	}
	tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}
	want := (tq.Quantile(0.975) + tq.Quantile(0.8)) * r.SE / c4(r.DF+1)
	if got := math.Log1p(up); math.Abs(got-want) > 1e-6 {
		t.Errorf("log MDE %.6f, want the textbook %.6f", got, want)
	}
	up, down = MDERobust(robustOf(10, 1e-6), 0.05, 0.8, 0.01, nil, StallRateSeen)
	if up < 0.01 || down < 0.01 {
		t.Errorf("MDE %.4f/%.4f below min_effect with no noise", up, down)
	}
}

// Runs far out widen the MDE (a stall kept in the faster arm costs power;
// one trimmed costs a run), more for a stall the trimming missed (4 σ out
// on a host of 9% noise) than for one it caught (18 σ on one of 2%);
// looks taken before the last narrow it (the plan can decide at any).
func TestMDERobustStallsAndLooks(t *testing.T) {
	t.Parallel() // a seeded simulation with its own generators: runs beside the others
	clean, _ := MDERobust(robustOf(10, 0.09), 0.05, 0.8, 0.01, nil, StallRateSeen)
	stalled := func(sigma, trimmed float64) float64 {
		r := robustOf(10, sigma)
		r.Stalls.TrimRate, r.Stalls.KeptRate = 0.05*trimmed, 0.05*(1-trimmed)
		r.Stalls.Shift, r.Stalls.RMS = math.Log(0.7), -math.Log(0.7)
		up, _ := MDERobust(r, 0.05, 0.8, 0.01, nil, StallRateSeen)
		base, _ := MDERobust(robustOf(10, sigma), 0.05, 0.8, 0.01, nil, StallRateSeen)
		return up / base
	}
	noisy, quiet := stalled(0.09, 0), stalled(0.02, 1)
	t.Logf("clean MDE %.4f; one stall of 20 runs widens it ×%.3f at σ 9%%, ×%.3f at σ 2%%", clean, noisy, quiet)
	if !(noisy > 1.05 && quiet > 1 && quiet < noisy) {
		t.Errorf("stall widening ×%.3f (σ 9%%) ×%.3f (σ 2%%): want > 1, larger where stalls stay in", noisy, quiet)
	}
	seq, _ := MDERobust(robustOf(30, 0.09), 0.05/6, 0.8, 0.01, []int{5, 10, 15, 20, 25, 30}, StallRateSeen)
	last, _ := MDERobust(robustOf(30, 0.09), 0.05/6, 0.8, 0.01, []int{30}, StallRateSeen)
	t.Logf("six looks: %.4f against the last look alone %.4f", seq, last)
	if !(seq < last && seq > 0.85*last) {
		t.Errorf("six looks %.4f, last look %.4f: want a little below", seq, last)
	}
}

// Under rule robust-3 the kept stalls are averaged over their rate's
// uncertainty: a campaign that kept one stall in twenty runs may meet two
// or three, so its MDE is wider than at the rate seen; without kept
// stalls the two agree, and the wider the more the stalls stay in.
func TestMDERobustUncertainStallRate(t *testing.T) {
	for _, sigma := range []float64{0.02, 0.09} {
		r := robustOf(10, sigma)
		seen, _ := MDERobust(r, 0.05, 0.8, 0.01, nil, StallRateSeen)
		unc, _ := MDERobust(r, 0.05, 0.8, 0.01, nil, StallRateUncertain)
		if seen != unc {
			t.Errorf("σ %.2f, no stalls: %.5f seen, %.5f uncertain: want equal", sigma, seen, unc)
		}
		r.Stalls.KeptRate = 0.05
		r.Stalls.Shift, r.Stalls.RMS = math.Log(0.7), -math.Log(0.7)
		seen, _ = MDERobust(r, 0.05, 0.8, 0.01, nil, StallRateSeen)
		unc, _ = MDERobust(r, 0.05, 0.8, 0.01, nil, StallRateUncertain)
		t.Logf("σ %.2f, one kept stall in 20 runs: MDE %.4f at the rate seen, %.4f with its uncertainty", sigma, seen, unc)
		if !(unc > seen) {
			t.Errorf("σ %.2f: uncertain-rate MDE %.4f not above the seen-rate %.4f", sigma, unc, seen)
		}
	}
}
