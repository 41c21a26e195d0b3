package stats

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// bisectPower is solvePower as it was until 2026-12-04: the bisection
// evaluating pw at every midpoint. Records' MDEs are its answers.
func bisectPower(pw func(float64) float64, power float64) float64 {
	lo, hi := 0.0, 1.0
	for pw(hi) < power && hi < 64 {
		hi *= 2
	}
	for range 60 {
		mid := (lo + hi) / 2
		if pw(mid) < power {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// counted is pw counting its evaluations.
func counted(pw func(float64) float64, n *int) func(float64) float64 {
	return func(d float64) float64 { *n++; return pw(d) }
}

// TestSolvePowerIsTheBisection: on the power curves of the rounds model
// (random comparisons: rounds, noise, stalls seen and their sizes, both
// kept models, either direction, level, power, floor), of effectAtPower's
// states and of plain curves (crossings from 1e-5 to past 64, steps, a
// plateau below the power, NaN), solvePower returns the bisection's
// effect to the bit (check re-derives records' MDEs and compares their
// JSON), with fewer evaluations of the curve (41 and 42 a solve on the
// MDEs' curves against 61 on 2026-12-04; a step, which no MDE has, costs
// Brent's method more than the bisection).
func TestSolvePowerIsTheBisection(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(20261204, 1))
	type tally struct{ cases, fast, slow int }
	by := map[string]*tally{}
	same := func(what string, pw func(float64) float64, power float64) {
		t.Helper()
		var nf, ns int
		got, want := solvePower(counted(pw, &nf), power), bisectPower(counted(pw, &ns), power)
		if by[what] == nil {
			by[what] = &tally{}
		}
		c := by[what]
		c.cases, c.fast, c.slow = c.cases+1, c.fast+nf, c.slow+ns
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%s, power %v: solvePower %v, the bisection %v", what, power, got, want)
		}
	}
	alphas := []float64{0.05, 0.025, 0.05 / 3, 0.01, 0.001}
	powers := []float64{0.5, 0.8, 0.8 / 0.93, 0.9}
	for i := range 90 {
		n := 3 + rng.IntN(118)
		sd := 0.003 * math.Pow(40, rng.Float64())
		r := Robust{Result: Result{N1: n, N2: n}, Blocks: n, DF: float64(n - 1), SE: sd * math.Sqrt2 / math.Sqrt(float64(n)), Sigma: sd,
			Stalls: Stalls{Sigma: sd, DF: float64(n - 1)}}
		var all []Stalls
		for range 1 + rng.IntN(3) {
			s := Stalls{Runs1: n, Runs2: n}
			if rng.IntN(3) > 0 {
				s.Trimmed, s.Kept = rng.IntN(1+n/6), rng.IntN(1+n/10)
				for range s.Trimmed + s.Kept {
					s.Far = append(s.Far, 0.1+0.4*rng.Float64())
				}
				if s.Kept > 0 {
					s.KeptRate, s.Shift, s.RMS = float64(s.Kept)/float64(2*n), -0.2*rng.Float64(), 0.1+0.2*rng.Float64()
				}
				s.TrimRate = float64(s.Trimmed) / float64(2*n)
			}
			all = append(all, s)
		}
		kept := KeptAsSeen
		if i%6 == 0 {
			kept = KeptByPutBack
		}
		m := roundsModel(r, all, kept)
		states, ok := m.states()
		alpha, power := alphas[rng.IntN(len(alphas))], powers[rng.IntN(len(powers))]
		if power/ok >= 0.995 || len(states) == 0 {
			continue
		}
		floor := math.Log1p([]float64{0.001, 0.01, 0.05}[rng.IntN(3)])
		dir := []float64{1, -1}[rng.IntN(2)]
		same("rounds model", roundsPower(states, alpha, floor, dir, m.shift), power/ok)
	}
	for range 80 {
		df := 2 + rng.IntN(60)
		tt := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}
		var states []powerState
		for range 1 + rng.IntN(40) {
			states = append(states, powerState{w: rng.Float64(), shift: 0.05 * rng.NormFloat64(), se: 0.001 + 0.05*rng.Float64()})
		}
		alpha := alphas[rng.IntN(len(alphas))]
		c := tt.Quantile(1 - alpha/2)
		floor := math.Log1p(0.01)
		pw := func(d float64) float64 {
			var p, wsum float64
			for _, s := range states {
				p += s.w * tt.Survival((math.Max(c*s.se, floor)-d-s.shift)/s.se)
				wsum += s.w
			}
			return p / wsum
		}
		same("effectAtPower's states", pw, powers[rng.IntN(len(powers))])
	}
	for range 100 {
		root, scale := 1e-5*math.Pow(1e7, rng.Float64()), math.Pow(10, -4+3*rng.Float64())
		norm := distuv.UnitNormal
		same("a normal curve", func(d float64) float64 { return norm.CDF((d - root) / (scale * root)) }, 0.8)
		same("a step", func(d float64) float64 { return map[bool]float64{true: 0.9, false: 0.1}[d >= root] }, 0.8)
	}
	// Found by an adversarial search (2026-12-04): the crossing near one
	// state's centre, where t's tail rounds to a staircase, the other's
	// near |t| = 1, where it wobbles at df 84 and 110; the margin taken
	// from the bracket's slope alone (an inverted bracket, or a slope 600
	// times the true one) took midpoints past the crossing as short.
	for _, c := range []struct {
		df     float64
		states []powerState
		power  float64
	}{
		{84, []powerState{{.33439500896545327, .025475779896184905, .014752179044040532}, {.3818750551399829, .030998532857592673, .03824685156555942}}, 0.30926267777099736},
		{110, []powerState{{.3768440821348087, .016239094503775395, .008223440743752558}, {.9793475679413812, .03727958478391272, .03870938379785523}}, 0.2513294756927439},
	} {
		tt := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: c.df}
		k := tt.Quantile(1 - 0.05/2)
		same("effectAtPower's states", func(d float64) float64 {
			var p, wsum float64
			for _, s := range c.states {
				p += s.w * tt.Survival((math.Max(k*s.se, math.Log1p(0.01))-d-s.shift)/s.se)
				wsum += s.w
			}
			return p / wsum
		}, c.power)
	}
	same("a plateau", func(d float64) float64 { return 0.7 * (1 - math.Exp(-d)) }, 0.8)
	same("NaN past 0.3", func(d float64) float64 {
		if d > 0.3 {
			return math.NaN()
		}
		return d
	}, 0.8)
	same("NaN everywhere", func(float64) float64 { return math.NaN() }, 0.8)
	for what, c := range by {
		t.Logf("%s: %d curves, %.1f evaluations a solve, the bisection %.1f", what, c.cases, float64(c.fast)/float64(c.cases), float64(c.slow)/float64(c.cases))
	}
	// The MDEs' curves, where the time goes.
	for _, what := range []string{"rounds model", "effectAtPower's states"} {
		if c := by[what]; c.fast*10 > c.slow*7 {
			t.Errorf("%s: solvePower evaluated the curves %d times, the bisection %d: want at most 70%%", what, c.fast, c.slow)
		}
	}
}
