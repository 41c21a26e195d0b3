package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSignedRankPKnownValues(t *testing.T) {
	for _, tc := range []struct {
		d    []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4, 5, 6}, 2.0 / 64},            // all one sign
		{[]float64{-1, 2, 3, 4, 5, 6}, 4.0 / 64},           // W− = 1: sums 0 and 1
		{[]float64{0, 0, 0}, 1},                            // nothing but zeros
		{[]float64{-3, 1, 2}, 1},                           // W+ = W− = 3
		{[]float64{-1, -2, -3, -4, -5, -6, -7}, 2.0 / 128}, // negative side
	} {
		if got := SignedRankP(tc.d); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("SignedRankP(%v) = %g, want %g", tc.d, got, tc.want)
		}
	}
}

// The exact p-value with ties equals brute-force enumeration of the 2ⁿ
// sign assignments over the observed mid-ranks.
func TestSignedRankPMatchesEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		n := 1 + rng.IntN(10)
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(rng.IntN(7) - 3) // ties and zeros
		}
		got := SignedRankP(d)
		var nz []float64
		for _, x := range d {
			if x != 0 {
				nz = append(nz, x)
			}
		}
		if len(nz) == 0 {
			if got != 1 {
				t.Fatalf("all zeros: %g", got)
			}
			continue
		}
		rank := make([]float64, len(nz))
		for i, x := range nz {
			less, eq := 0, 0
			for _, y := range nz {
				switch {
				case math.Abs(y) < math.Abs(x):
					less++
				case math.Abs(y) == math.Abs(x):
					eq++
				}
			}
			rank[i] = float64(less) + float64(eq+1)/2
		}
		obs, total := 0.0, 0.0
		for i, x := range nz {
			total += rank[i]
			if x > 0 {
				obs += rank[i]
			}
		}
		dev := math.Abs(obs - total/2)
		extreme := 0
		for mask := 0; mask < 1<<len(nz); mask++ {
			w := 0.0
			for i := range nz {
				if mask&(1<<i) != 0 {
					w += rank[i]
				}
			}
			if math.Abs(w-total/2) >= dev-1e-9 {
				extreme++
			}
		}
		want := math.Min(1, float64(extreme)/float64(int(1)<<len(nz)))
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("SignedRankP(%v) = %g, enumeration %g", d, got, want)
		}
	}
}

func TestHolm(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03})
	want := []float64{0.03, 0.06, 0.06}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("Holm = %v, want %v", got, want)
		}
	}
	if g := Holm([]float64{0.2}); g[0] != 0.2 {
		t.Fatalf("one test is not adjusted: %v", g)
	}
}

func TestComparePairedCancelsDrift(t *testing.T) {
	// A 3% slowdown on a host that drifts by 20% over the campaign: the
	// rounds' pairs see the same host, the groups do not.
	var base, arm []float64
	for i := range 8 {
		host := 100 * (1 - 0.025*float64(i))
		base = append(base, host*(1+0.002*float64(i%2)))
		arm = append(arm, host*0.97)
	}
	p := ComparePaired(base, arm, DefaultConfig())
	if !p.Significant || p.Ratio > 0.975 || p.Ratio < 0.965 || !p.Paired {
		t.Fatalf("paired: %+v", p)
	}
	if u := Compare(base, arm, DefaultConfig()); u.Significant {
		t.Fatalf("unpaired should not see through the drift: %+v", u)
	}
}

func TestMDE(t *testing.T) {
	// Larger samples detect smaller effects; pairing with the same σ and
	// n rounds is not worse than two groups of n.
	a, b := MDE(0.05, 6, 6, 0.05, 0.8, false), MDE(0.05, 20, 20, 0.05, 0.8, false)
	if !(a > b && b > 0) {
		t.Fatalf("MDE n=6: %g, n=20: %g", a, b)
	}
	if !math.IsNaN(MDE(0.05, 1, 1, 0.05, 0.8, false)) {
		t.Fatal("MDE of one sample per arm should be undefined")
	}
}
