package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// cleanDF is never more than chi-square's degrees of freedom; where
// stalls fall near the bound of the clean rounds (the calibration's CV 9%
// host: a round's difference of sd 0.127, a run 30% slower on either side in
// one run in twenty) it is far less, as the clean sd spreads there; on
// normal noise without stalls it stays near chi-square's. What it does
// to the power at the stated MDE is the calibration's to show
// (docs/reference/statistics.md, rule robust-13).
func TestCleanDFFollowsTheSpread(t *testing.T) {
	const n, samples = 30, 2000
	for _, c := range []struct {
		name   string
		stalls bool
	}{{"stalls near the bound", true}, {"normal, no stalls", false}} {
		rng := rand.New(rand.NewPCG(7, 13))
		var share, sds []float64
		for range samples {
			d := make([]float64, n)
			for i := range d {
				d[i] = 0.127 * rng.NormFloat64()
				if c.stalls {
					if rng.IntN(20) == 0 {
						d[i] -= math.Log(1 / 0.7)
					}
					if rng.IntN(20) == 0 {
						d[i] += math.Log(1 / 0.7)
					}
				}
			}
			clean := notFar(d)
			_, sd := meanSD(d, clean)
			df := float64(countTrue(clean) - 1)
			e := cleanDF(d, df)
			if e > df || e < 1 {
				t.Fatalf("%s: cleanDF %.2f outside 1 to chi-square's %.0f", c.name, e, df)
			}
			share = append(share, e/df)
			sds = append(sds, sd*sd)
		}
		slices.Sort(share)
		// The spread cleanDF stands for: the clean variance's own, over
		// the samples, as degrees of freedom (2/CV²).
		var m, v float64
		for _, x := range sds {
			m += x / samples
		}
		for _, x := range sds {
			v += (x - m) * (x - m) / (samples - 1)
		}
		t.Logf("%s: cleanDF's median share of chi-square's %.2f; the clean variance's spread as degrees of freedom %.1f of %d", c.name, share[samples/2], 2*m*m/v, n-1)
		if c.stalls && share[samples/2] > 0.93 {
			t.Errorf("%s: cleanDF's median share %.2f: the spread of the choice is not seen", c.name, share[samples/2])
		}
		if !c.stalls && share[samples/2] < 0.95 {
			t.Errorf("%s: cleanDF's median share %.2f: normal noise taken as spread", c.name, share[samples/2])
		}
	}
}
