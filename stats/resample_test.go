package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// referenceMedian is the resample as bootstrapRatio drew it before the
// resampler: draw n values, sort, take Quantile's median.
func referenceMedian(sorted []float64, rng *rand.Rand) float64 {
	buf := make([]float64, len(sorted))
	for i := range buf {
		buf[i] = sorted[rng.IntN(len(sorted))]
	}
	slices.Sort(buf)
	return Quantile(buf, 0.5)
}

// The counting resampler gives bit-identical medians and leaves the
// generator where drawing and sorting does, on samples with ties, of one,
// two, odd and even sizes: committed records' intervals do not move.
func TestResamplerBitIdentical(t *testing.T) {
	gen := rand.New(rand.NewPCG(7, 11))
	for trial := range 400 {
		n := 1 + gen.IntN(60)
		xs := make([]float64, n)
		for i := range xs {
			if trial%3 == 0 {
				xs[i] = float64(gen.IntN(4)) // many ties
			} else {
				xs[i] = gen.NormFloat64()*10 + 100
			}
		}
		slices.Sort(xs)
		seed := gen.Uint64()
		a, b := rand.New(rand.NewPCG(seed, pcgStream)), rand.New(rand.NewPCG(seed, pcgStream))
		r := newResampler(xs)
		for k := range 50 {
			got, want := r.median(a), referenceMedian(xs, b)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("trial %d resample %d (n=%d): %v, want %v", trial, k, n, got, want)
			}
		}
		if a.Uint64() != b.Uint64() {
			t.Fatalf("trial %d: the generators drifted apart", trial)
		}
	}
}

// BenchmarkBootstrapRatio is the interval of one arm against its baseline
// at 10,000 resamples, for 10,000 runs an arm (a 20k-run campaign).
func BenchmarkBootstrapRatio(b *testing.B) {
	gen := rand.New(rand.NewPCG(1, 2))
	base, arm := make([]float64, 10000), make([]float64, 10000)
	for i := range base {
		base[i], arm[i] = 100+gen.NormFloat64(), 110+gen.NormFloat64()
	}
	slices.Sort(base)
	slices.Sort(arm)
	for b.Loop() {
		bootstrapRatio(base, arm, 0.95, 10000, 1)
	}
}

// The planned bootstrap gives bit-identical intervals and the same count
// of dropped resamples as drawing every resample, on samples with ties,
// zeros (dropped resamples, zero ratios), two to sixty values, several
// seeds, confidences and resample counts, and on a second call that
// reuses the plan.
func TestBootstrapPlanBitIdentical(t *testing.T) {
	gen := rand.New(rand.NewPCG(3, 5))
	sample := func(n, kind int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			switch kind {
			case 0:
				xs[i] = float64(gen.IntN(3)) // ties and zeros
			case 1:
				xs[i] = float64(gen.IntN(5) + 1)
			default:
				xs[i] = gen.NormFloat64()*5 + 100
			}
		}
		slices.Sort(xs)
		return xs
	}
	for trial := range 300 {
		nb, na := 2+gen.IntN(40), 2+gen.IntN(40)
		if trial%10 == 0 {
			nb, na = 2, 3
		}
		base, arm := sample(nb, trial%3), sample(na, (trial/3)%3)
		conf := []float64{0.95, 0.9, 0.99, 0.5}[trial%4]
		resamples := []int{10000, 1, 7, 999}[(trial/4)%4]
		seed := uint64(1 + trial%3)
		for pass := range 2 {
			lo, hi, d := bootstrapRatio(base, arm, conf, resamples, seed)
			wlo, whi, wd := bootstrapRatioDirect(base, arm, conf, resamples, seed)
			if math.Float64bits(lo) != math.Float64bits(wlo) || math.Float64bits(hi) != math.Float64bits(whi) || d != wd {
				t.Fatalf("trial %d pass %d (nb=%d na=%d conf=%v resamples=%d): [%v, %v] %d dropped, want [%v, %v] %d", trial, pass, nb, na, conf, resamples, lo, hi, d, wlo, whi, wd)
			}
		}
	}
}
