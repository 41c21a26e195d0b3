package changepoint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// naiveRows sums every pair: the definition rowDistances computes faster.
func naiveRows(xs []float64) (rowL, rowR []float64) {
	n := len(xs)
	rowL, rowR = make([]float64, n), make([]float64, n)
	for k := range n {
		for i := range k {
			d := math.Abs(xs[i] - xs[k])
			rowL[k] += d
			rowR[i] += d
		}
	}
	return rowL, rowR
}

// series draws the shapes a history has: noise around a level, steps, a
// drift, repeated values (a metric rounded in the record) and outliers.
func series(rng *rand.Rand, n int) []float64 {
	xs := make([]float64, n)
	level := 50 + 100*rng.Float64()
	for i := range xs {
		if rng.IntN(20) == 0 {
			level *= 1 + 0.1*rng.NormFloat64()
		}
		x := level * (1 + 0.02*rng.NormFloat64())
		switch rng.IntN(6) {
		case 0:
			x = math.Round(x)
		case 1:
			x *= 3
		}
		xs[i] = x
	}
	return xs
}

// The pairwise sums by rank equal the pairwise sums by definition, and so
// the split chosen is the same, on seeded series of every length from the
// shortest split up.
func TestRowDistancesMatchThePairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for trial := range 400 {
		n := 2 + trial%120
		xs := series(rng, n)
		gl, gr := rowDistances(xs)
		wl, wr := naiveRows(xs)
		for k := range n {
			if !near(gl[k], wl[k]) || !near(gr[k], wr[k]) {
				t.Fatalf("trial %d, n %d, k %d: rows %g, %g, want %g, %g", trial, n, k, gl[k], gr[k], wl[k], wr[k])
			}
		}
		m := 2 + trial%4
		got, ok := bestSplit(xs, m)
		want, wantOK := naiveSplit(xs, m)
		if ok != wantOK || got != want {
			t.Fatalf("trial %d, n %d: split %d (%v), want %d (%v)", trial, n, got, ok, want, wantOK)
		}
	}
}

func near(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// naiveSplit is bestSplit over naiveRows.
func naiveSplit(xs []float64, m int) (int, bool) {
	n := len(xs)
	if n < 2*m {
		return 0, false
	}
	rowL, rowR := naiveRows(xs)
	return scan(rowL, rowR, m), true
}

// A long crafted history: a staircase of 2% steps every MinSegment
// records, which binary segmentation splits as deep as it can. Before the
// sums went by rank this took minutes at 20,000 records.
func BenchmarkDetectStaircase(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = 100 * math.Pow(1.02, float64(i/Defaults.MinSegment%50))
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				Detect(xs, Defaults)
			}
		})
	}
}
