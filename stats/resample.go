package stats

import "math/rand/v2"

// resampler draws bootstrap resamples of a sorted sample and returns their
// median without building or sorting them: it counts how often each
// position is drawn and walks the counts to the middle order statistics.
// It consumes the generator exactly as drawing len(sorted) values with
// IntN and sorting them does, and computes the median with Quantile's own
// interpolation, so intervals are bit-identical to that (and committed
// records still check), in O(n) a resample instead of O(n log n).
type resampler struct {
	sorted []float64
	counts []int32
}

func newResampler(sorted []float64) *resampler {
	return &resampler{sorted: sorted, counts: make([]int32, len(sorted))}
}

// median draws one resample with replacement and returns its median, as
// Quantile(sort(resample), 0.5) would.
func (r *resampler) median(rng *rand.Rand) float64 {
	i, j := r.medianAt(rng)
	return medianOf(r.sorted, i, j)
}

// medianAt draws one resample and returns the positions (in sorted) of
// the two order statistics its median interpolates between (i == j when
// one suffices). They depend on the draws alone, never on the values:
// medianOf turns them into the median of any sample of the same size.
func (r *resampler) medianAt(rng *rand.Rand) (i, j int32) {
	n := len(r.sorted)
	clear(r.counts)
	for range n {
		r.counts[rng.IntN(n)]++
	}
	// Quantile's type-7 position for p = 0.5.
	h := 0.5 * float64(n-1)
	lo := int(h) // h ≥ 0, so the floor
	if lo >= n-1 {
		k := r.nth(n - 1)
		return k, k
	}
	return r.pair(lo)
}

// medianOf is the median whose order statistics medianAt placed at i and
// j of a sorted sample: Quantile's interpolation, operation for operation.
func medianOf(sorted []float64, i, j int32) float64 {
	n := len(sorted)
	h := 0.5 * float64(n-1)
	lo := int(h)
	if lo >= n-1 {
		return sorted[i]
	}
	a, b := sorted[i], sorted[j]
	return a + (h-float64(lo))*(b-a)
}

// nth is the position of the k-th order statistic (0-based) of the
// resample.
func (r *resampler) nth(k int) int32 {
	seen := 0
	for i, c := range r.counts {
		seen += int(c)
		if seen > k {
			return int32(i)
		}
	}
	return int32(len(r.sorted) - 1)
}

// pair is the positions of the k-th and (k+1)-th order statistics of the
// resample.
func (r *resampler) pair(k int) (int32, int32) {
	seen := 0
	for i, c := range r.counts {
		seen += int(c)
		if seen > k {
			if seen > k+1 {
				return int32(i), int32(i)
			}
			for j := i + 1; j < len(r.counts); j++ {
				if r.counts[j] > 0 {
					return int32(i), int32(j)
				}
			}
			return int32(i), int32(i)
		}
	}
	last := int32(len(r.sorted) - 1)
	return last, last
}
