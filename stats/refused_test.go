package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The interval is the k-th smallest and k-th largest difference, k the
// largest whose two tails stay within 1 − conf; with too few rounds there
// is none.
func TestSignIntervalOrderStatistics(t *testing.T) {
	d := func(n int) []float64 { // n, n−1, …, 1: sorted inside
		out := make([]float64, n)
		for i := range out {
			out[i] = float64(n - i)
		}
		return out
	}
	for _, tc := range []struct {
		n      int
		conf   float64
		lo, hi float64
		ok     bool
	}{
		{10, 0.95, 2, 9, true}, // P(X ≤ 1) = 11/1024 ≤ 0.025 < P(X ≤ 2)
		{6, 0.95, 1, 6, true},  // 1/64
		{5, 0.95, 0, 0, false}, // 1/32 > 0.025
		{8, 0.99, 1, 8, true},  // 1/256 ≤ 0.005
		{7, 0.99, 0, 0, false}, // 1/128 > 0.005
		{30, 0.95, 10, 21, true},
	} {
		lo, hi, ok := SignInterval(d(tc.n), tc.conf)
		if ok != tc.ok || (ok && (lo != tc.lo || hi != tc.hi)) {
			t.Errorf("n %d at %v: [%v, %v] %v, want [%v, %v] %v", tc.n, tc.conf, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
}

// Its confidence is at least the one asked and the next order statistic in
// would fall short of it, for every n from 6 to 60.
func TestSignIntervalLevel(t *testing.T) {
	for _, conf := range []float64{0.9, 0.95, 0.99} {
		for n := 6; n <= 60; n++ {
			d := make([]float64, n)
			for i := range d {
				d[i] = float64(i)
			}
			lo, _, ok := SignInterval(d, conf)
			if !ok {
				if conf < 0.99 || n >= 8 {
					t.Errorf("n %d at %v: no interval", n, conf)
				}
				continue
			}
			k := int(lo) + 1
			b := distuv.Binomial{N: float64(n), P: 0.5}
			if got := 1 - 2*b.CDF(float64(k-1)); got < conf-1e-12 {
				t.Errorf("n %d at %v: k %d covers %.4f", n, conf, k, got)
			}
			if 2*(k+1) <= n+1 && 1-2*b.CDF(float64(k)) >= conf {
				t.Errorf("n %d at %v: k %d is not the largest", n, conf, k)
			}
		}
	}
}

// The sign test rejects at 1 − conf exactly when 0 is outside the interval
// at conf, and HullP exactly when the hull of that interval and the t
// interval is, ties at 0 included: the p and the interval a refused
// comparison states never disagree.
func TestSignAndHullTestsMatchTheirIntervals(t *testing.T) {
	signTest := func(d []float64) float64 {
		up, down := signTails(d)
		return math.Min(1, 2*math.Min(up, down))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		n := 6 + rng.IntN(25)
		shift := 0.5 * rng.NormFloat64()
		d := make([]float64, n)
		for j := range d {
			d[j] = shift + rng.NormFloat64()
			if i%2 == 1 { // quantised: ties, some at 0
				d[j] = math.Round(2 * d[j])
			}
			if rng.IntN(6) == 0 { // a stall on one side
				d[j] -= 2
			}
		}
		mean, sd := 0.0, 0.0
		for _, x := range d {
			mean += x / float64(n)
		}
		for _, x := range d {
			sd += (x - mean) * (x - mean) / float64(n-1)
		}
		se := math.Sqrt(sd / float64(n))
		r := Robust{Delta: mean, SE: se, DF: float64(n - 1)}
		for _, conf := range []float64{0.9, 0.95, 0.99} {
			lo, hi, ok := SignInterval(d, conf)
			if !ok {
				continue
			}
			if rejects, outside := signTest(d) <= (1-conf)*(1+1e-9), lo > 0 || hi < 0; rejects != outside {
				t.Fatalf("n %d at %v: sign interval [%.3f, %.3f], sign p %.4f", n, conf, lo, hi, signTest(d))
			}
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: r.DF}.Quantile(1 - (1-conf)/2)
			hlo, hhi := math.Min(lo, mean-q*se), math.Max(hi, mean+q*se)
			if rejects, outside := HullP(r, d) <= (1-conf)*(1+1e-9), hlo > 0 || hhi < 0; rejects != outside {
				t.Fatalf("n %d at %v: hull [%.3f, %.3f], hull p %.4f", n, conf, hlo, hhi, HullP(r, d))
			}
		}
	}
	if p := signTest([]float64{0, 0, 0}); p != 1 {
		t.Errorf("all zero: p %v, want 1", p)
	}
	if p := signTest([]float64{1, 2, 3, 4, 5, 6}); math.Abs(p-2.0/64) > 1e-12 {
		t.Errorf("six of six positive: p %v, want 2/64", p)
	}
	// The review's case: three zeros of ten, seven positive; the interval
	// [0, …] holds 0, so the p may not reject.
	if p := signTest([]float64{0, 0, 0, 1, 1, 1, 1, 1, 1, 1}); p <= 0.05 {
		t.Errorf("three ties at 0 and seven positive: p %v rejects, though the interval holds 0", p)
	}
}

// A refused comparison is restated by the hull of its t interval and the
// median's interval, with HullP; its ratio stays the mean's. One with too
// few rounds for the median's interval at the level, one not refused and
// RefusedByT are left as they are.
func TestRestateRefused(t *testing.T) {
	rounds := func(n int, arm func(i int) float64) (ref, a []Timed) {
		for i := range n {
			ref = append(ref, Timed{Pos: float64(2 * i), Value: 100, Block: i + 1})
			a = append(a, Timed{Pos: float64(2*i + 1), Value: arm(i), Block: i + 1})
		}
		return ref, a
	}
	// Four rounds of ten stalled 40% on the arm's side, the rest +5%
	// with a little noise.
	stalled := func(i int) float64 {
		v := 105 * (1 + 0.003*float64(i%3-1))
		if i%5 == 1 || i%5 == 3 {
			v *= 0.6
		}
		return v
	}
	ref, arm := rounds(10, stalled)
	r := CompareRounds(ref, arm, Config{}, TrimOneByOne)
	if !r.Refused {
		t.Fatalf("not refused: %+v", r)
	}
	s := RefusedByHull.Restate(r, ref, arm, Config{})
	d := RoundDifferences(ref, arm)
	lo, hi, _ := SignInterval(d, 0.95)
	if s.Ratio != r.Ratio || s.Lo != math.Min(r.Lo, math.Exp(lo)) || s.Hi != math.Max(r.Hi, math.Exp(hi)) || s.P != HullP(r, d) || s.Significant {
		t.Errorf("restated %+v", s.Result)
	}
	if s.Lo > r.Lo || s.Hi < r.Hi || s.P < r.P {
		t.Errorf("narrower or more significant than the t statement: [%.3f, %.3f] p %.4f against [%.3f, %.3f] p %.4f", s.Lo, s.Hi, s.P, r.Lo, r.Hi, r.P)
	}
	if s.Delta != r.Delta || s.SE != r.SE || s.DF != r.DF || s.Sigma != r.Sigma {
		t.Error("the mean's Delta, SE, DF and Sigma changed")
	}
	if !(s.Lo <= 1.05 && 1.05 <= s.Hi) || r.Hi >= 1.05 {
		t.Errorf("the hull [%.3f, %.3f] should hold +5%%, where the mean's [%.3f, %.3f] does not", s.Lo, s.Hi, r.Lo, r.Hi)
	}
	if got := RefusedByT.Restate(r, ref, arm, Config{}); got.Ratio != r.Ratio || got.Lo != r.Lo || got.P != r.P {
		t.Error("RefusedByT changed the comparison")
	}
	// At 99.9% (a sequential look's level), ten rounds reach no
	// order-statistic interval: 2/1024 > 0.001.
	strict := Config{Confidence: 0.999, Alpha: 0.001}
	r9 := CompareRounds(ref, arm, strict, TrimOneByOne)
	if got := RefusedByHull.Restate(r9, ref, arm, strict); !r9.Refused || got.Ratio != r9.Ratio || got.Lo != r9.Lo || got.Hi != r9.Hi || got.P != r9.P {
		t.Error("at 99.9%: restated, though no order-statistic interval of ten rounds reaches it")
	}
	calm, calmArm := rounds(10, func(i int) float64 { return 105 * (1 + 0.01*float64(i%3-1)) })
	c := CompareRounds(calm, calmArm, Config{}, TrimOneByOne)
	if got := RefusedByHull.Restate(c, calm, calmArm, Config{}); c.Refused || got.Ratio != c.Ratio || got.Lo != c.Lo || got.P != c.P {
		t.Error("a comparison not refused was restated")
	}
}
