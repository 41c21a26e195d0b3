package stats

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// PutBackChance runs the trimming on draws of round differences; the
// comparison runs it on rounds of runs. Comparisons of runs with f stalled
// rounds, through CompareRounds, keep all of them in as often as it says
// (within 0.08: its 400 draws and these 1,000 comparisons), on quiet and
// noisy hosts, few rounds and many, stalls that the trimming mostly takes
// and mostly puts back.
func TestPutBackChanceMatchesTheTrimming(t *testing.T) {
	t.Parallel()
	cases := []struct {
		sd   float64 // one run's noise (log)
		n, f int
		size float64 // the stall (log)
	}{
		{0.02, 6, 1, 0.357},
		{0.02, 6, 2, 0.357},
		{0.02, 6, 1, 0.178},
		{0.06, 10, 1, 0.357},
		{0.02, 10, 1, 0.178},
		{0.06, 30, 2, 0.357},
	}
	const comparisons = 1000
	for _, c := range cases {
		rng := rand.New(rand.NewPCG(uint64(c.n), uint64(1000*c.sd)))
		kept, ok := 0, 0
		for range comparisons {
			ref, arm, _ := stalledComparison(rng, c.sd, c.n, c.f, c.size)
			out := CompareRounds(ref, arm, DefaultConfig(), TrimOneByOne)
			if out.Refused {
				continue
			}
			ok++
			if out.N1 == c.n {
				kept++
			}
		}
		got := float64(kept) / float64(ok)
		drawn := PutBackChance([]float64{c.size}, c.sd*math.Sqrt2, c.n, c.f)
		t.Logf("run noise %.0f%%, %d of %d rounds %.0f%% off: kept in %.3f of comparisons, PutBackChance %.3f", 100*c.sd, c.f, c.n, 100*c.size, got, drawn)
		if math.Abs(got-drawn) > 0.08 {
			t.Errorf("run noise %.0f%%, %d of %d rounds far: PutBackChance %.3f, the trimming kept them in %.3f", 100*c.sd, c.f, c.n, drawn, got)
		}
	}
	if PutBackChance(nil, 0.03, 10, 1) != 0 || PutBackChance([]float64{0.3}, 0.03, 10, 0) != 0 {
		t.Error("PutBackChance without a size or a far round: want 0")
	}
}

// stalledComparison draws a comparison of n rounds of runs of noise sd
// whose first f rounds have one side's run slowed by size (either side
// alike), and the other rounds' differences.
func stalledComparison(rng *rand.Rand, sd float64, n, f int, size float64) (ref, arm []Timed, clean []float64) {
	for r := range n {
		a, b := sd*rng.NormFloat64(), sd*rng.NormFloat64()
		if r < f { // a stall slows one side's run of the round
			if rng.IntN(2) == 0 {
				a -= size
			} else {
				b -= size
			}
		} else {
			clean = append(clean, b-a)
		}
		ref = append(ref, Timed{Pos: float64(r), Value: 100 * math.Exp(a), Block: r})
		arm = append(arm, Timed{Pos: float64(r), Value: 100 * math.Exp(b), Block: r})
	}
	return ref, arm, clean
}

// Where the trimming takes every far round (stalls of 50% at 1% noise),
// the put-back model keeps none in and states robust-5's MDE with every
// far round trimmed: the state without far rounds keeps its weight (a
// first version gave it the chance that "all" of none stayed in, 0, and
// stated MDEs far above these).
func TestMDERoundsKeptKeepsTheCleanState(t *testing.T) {
	t.Parallel()
	for _, n := range []int{6, 10, 30} {
		sd := 0.01
		r := Robust{Result: Result{N1: n, N2: n}, Blocks: n, DF: float64(n - 1), SE: sd / math.Sqrt(float64(n)), Sigma: sd / math.Sqrt2,
			Stalls: Stalls{Sigma: sd / math.Sqrt2, DF: float64(n - 1)}}
		all := []Stalls{{Runs1: n, Runs2: n, Trimmed: 1, Far: []float64{0.5}}, {Runs1: n, Runs2: n}}
		seen, _ := MDERoundsKept(r, all, 0.05, 0.8, 0.001, Design{}, KeptAsSeen)
		put, _ := MDERoundsKept(r, all, 0.05, 0.8, 0.001, Design{}, KeptByPutBack)
		t.Logf("%d: put %.5f seen %.5f", n, put, seen)
		if math.Abs(put/seen-1) > 0.01 {
			t.Errorf("%d rounds, every stall trimmed: put-back MDE %.4f, as seen %.4f", n, put, seen)
		}
	}
}

// putBackDrawsCached answers as putBackDraws does, whether the answer is
// drawn or kept from before, and a caller's later change to its sizes
// changes no kept answer.
func TestPutBackCacheAnswersAsTheDraws(t *testing.T) {
	sizes := []float64{0.31, 0.27, 0.4, 0.35}
	for _, c := range []struct {
		sd   float64
		n, f int
	}{{0.05, 10, 2}, {0.05, 10, 3}, {0.08, 10, 2}, {0.05, 30, 2}} {
		want := putBackDraws(sizes, c.sd, c.n, c.f)
		for range 2 { // drawn, then kept
			if got := putBackDrawsCached(sizes, c.sd, c.n, c.f); !reflect.DeepEqual(got, want) {
				t.Fatalf("sd %g, n %d, f %d: cached %+v, drawn %+v", c.sd, c.n, c.f, got, want)
			}
		}
	}
	kept := putBackDrawsCached(sizes, 0.05, 10, 2)
	sizes[0] = 0.9
	if got, want := putBackDrawsCached(sizes, 0.05, 10, 2), putBackDraws(sizes, 0.05, 10, 2); !reflect.DeepEqual(got, want) || reflect.DeepEqual(got, kept) {
		t.Fatalf("other sizes: cached %+v, drawn %+v (before the change %+v)", got, want, kept)
	}
}

// The trimming puts a far round back where the comparison's clean rounds
// happen to be noisy and trims it where they are quiet: comparisons of runs
// through CompareRounds that trimmed their f stalled rounds have clean
// rounds whose sample variance is below the noise's, those that kept them
// above, as the put-back's draws say (keptFar.rho, which KeptBySelection
// gives each state's error), within 0.15 of the noise's variance.
func TestPutBackDrawsSeeTheCleanNoiseTheTrimmingKeepsWith(t *testing.T) {
	t.Parallel()
	cases := []struct {
		sd   float64
		n, f int
		size float64
	}{
		{0.02, 6, 1, 0.178},
		{0.02, 6, 1, 0.15},
		{0.02, 10, 1, 0.15},
		{0.06, 10, 1, 0.357},
	}
	const comparisons = 2000
	for _, c := range cases {
		rng := rand.New(rand.NewPCG(uint64(c.n), uint64(1000*c.sd)))
		var v [2]float64 // the clean rounds' mean sample variance: trimmed, kept
		var count [2]int
		for range comparisons {
			ref, arm, clean := stalledComparison(rng, c.sd, c.n, c.f, c.size)
			out := CompareRounds(ref, arm, DefaultConfig(), TrimOneByOne)
			if out.Refused || out.N1 != c.n && out.N1 != c.n-c.f {
				continue
			}
			all := make([]bool, len(clean))
			for i := range all {
				all[i] = true
			}
			_, s := meanSD(clean, all)
			i := 0
			if out.N1 == c.n {
				i = 1
			}
			v[i] += s * s / (2 * c.sd * c.sd)
			count[i]++
		}
		kf := putBackDraws([]float64{c.size}, c.sd*math.Sqrt2, c.n, c.f)
		for i, k := range []int{0, c.f} {
			if count[i] < 100 {
				continue
			}
			got := v[i] / float64(count[i])
			t.Logf("run noise %.0f%%, %d of %d rounds %.1f%% off, %d kept: clean variance %.3f of the noise's in %d comparisons, the draws %.3f", 100*c.sd, c.f, c.n, 100*c.size, k, got, count[i], kf.rho[k])
			if math.Abs(got-kf.rho[k]) > 0.15 {
				t.Errorf("run noise %.0f%%, %d of %d rounds far, %d kept: the draws' clean variance %.3f of the noise's, the trimming's %.3f", 100*c.sd, c.f, c.n, k, kf.rho[k], got)
			}
		}
	}
	kf := putBackDraws([]float64{0.178}, 0.02*math.Sqrt2, 6, 1)
	if !(kf.rho[0] < 0.7 && kf.rho[1] > 1.1) {
		t.Errorf("six rounds of 2%% noise, one 17.8%% off: the clean variance %.3f where it is trimmed, %.3f where kept; want below and above the noise's", kf.rho[0], kf.rho[1])
	}
}

// A clean noise so small that its square underflows (a forged record's)
// gives the draws a finite clean variance and the MDE at least min_effect
// (a first version divided by sd², 0: the variance NaN, the MDE 1e-18).
func TestKeptBySelectionAtATinyNoise(t *testing.T) {
	const sd, n = 1e-300, 6
	kf := putBackDraws([]float64{0.178}, sd, n, 1)
	for k, r := range kf.rho {
		if math.IsNaN(r) || math.IsInf(r, 0) {
			t.Errorf("%d kept: the clean variance %v of the noise's", k, r)
		}
	}
	r := Robust{Result: Result{N1: n, N2: n}, Blocks: n, DF: n - 1, SE: sd / math.Sqrt(n), Sigma: sd / math.Sqrt2,
		Stalls: Stalls{Sigma: sd / math.Sqrt2, DF: n - 1, Far: []float64{0.178}, Trimmed: 1, Runs1: n, Runs2: n}}
	all := []Stalls{r.Stalls}
	if up, down := MDERoundsKept(r, all, 0.05, 0.8, 0.01, Design{}, KeptBySelection); up < 0.01 || down < 0.01 {
		t.Errorf("MDE %g / %g at a noise of %g: want at least min_effect 0.01", up, down, sd)
	}
}
