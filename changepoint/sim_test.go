package changepoint

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// simulate runs reps seeded histories of n records with one step of size
// step (relative) at n/2 under Gaussian relative noise, and returns the
// share of histories where Detect found it (within ±5 records, with its
// sign) and the other steps it reported per 100 records.
func simulate(seed uint64, n, reps int, step, noise float64) (detected, falsePer100 float64) {
	const tol = 5
	rng := rand.New(rand.NewPCG(seed, 17))
	hits, false_ := 0, 0
	for range reps {
		xs := make([]float64, n)
		for i := range xs {
			level := 100.0
			if i >= n/2 {
				level *= 1 + step
			}
			xs[i] = level * (1 + noise*rng.NormFloat64())
		}
		found := false
		for _, s := range Detect(xs, Defaults) {
			if step != 0 && !found && s.Index >= n/2-tol && s.Index <= n/2+tol && (s.Change > 0) == (step > 0) {
				found = true
				continue
			}
			false_++
		}
		if found {
			hits++
		}
	}
	return float64(hits) / float64(reps), 100 * float64(false_) / float64(reps*n)
}

// The detection table of the closing note: steps of 2%, 5% and 10% in
// histories of 100 records with 1%, 2% and 5% noise per record, and no
// step at all. The assertions are the properties the index relies on.
func TestDetectionRates(t *testing.T) {
	const n, reps = 100, 200
	var tab strings.Builder
	fmt.Fprintf(&tab, "\n%s; alpha %g, min step %g%%, min segment %d; %d histories of %d records each\n",
		Method, Defaults.Alpha, 100*Defaults.MinStep, Defaults.MinSegment, reps, n)
	fmt.Fprintf(&tab, "| noise | step | detected | false steps / 100 records |\n|---|---|---|---|\n")
	type cell struct{ det, fp float64 }
	got := map[[2]float64]cell{}
	for _, noise := range []float64{0.01, 0.02, 0.05} {
		for _, step := range []float64{0, 0.02, 0.05, 0.10} {
			det, fp := simulate(uint64(1000*noise+100*step), n, reps, step, noise)
			got[[2]float64{noise, step}] = cell{det, fp}
			d := fmt.Sprintf("%.1f%%", 100*det)
			if step == 0 {
				d = "—"
			}
			fmt.Fprintf(&tab, "| %g%% | %g%% | %s | %.3f |\n", 100*noise, 100*step, d, fp)
		}
	}
	t.Log(tab.String())
	// Steps well above the noise are found; steps below the minimum
	// size never are; few steps are invented.
	for _, c := range [][2]float64{{0.01, 0.02}, {0.01, 0.05}, {0.01, 0.10}, {0.02, 0.05}, {0.02, 0.10}, {0.05, 0.10}} {
		if d := got[c].det; d < 0.95 {
			t.Errorf("noise %g, step %g: detected in %.1f%% of histories, want ≥ 95%%", c[0], c[1], 100*d)
		}
	}
	// A false step is one where there is none, or one reported more
	// than 5 records from the planted one.
	for k, c := range got {
		limit := 0.5
		if k[1] == 0 {
			limit = 0.05
		}
		if c.fp > limit {
			t.Errorf("noise %g, step %g: %.3f false steps per 100 records, want ≤ %g", k[0], k[1], c.fp, limit)
		}
	}
}

func TestDetectSeveralSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var xs []float64
	for i := range 150 {
		level := 100.0
		switch {
		case i >= 100:
			level = 90
		case i >= 40:
			level = 105
		}
		xs = append(xs, level*(1+0.01*rng.NormFloat64()))
	}
	steps := Detect(xs, Defaults)
	if len(steps) != 2 || steps[0].Index != 40 || steps[1].Index != 100 {
		t.Fatalf("steps %+v, want at 40 (+5%%) and 100 (−14%%)", steps)
	}
	if steps[0].Change < 0.03 || steps[1].Change > -0.1 {
		t.Errorf("changes %+.3f and %+.3f, want about +0.05 and −0.143", steps[0].Change, steps[1].Change)
	}
}

func TestDetectSmallStepsAndShortSeries(t *testing.T) {
	flat := []float64{100, 100, 100, 100, 101, 101, 101, 101, 101}
	if s := Detect(flat, Defaults); len(s) != 0 {
		t.Errorf("a 1%% step (below the minimum of 1.5%%) was reported: %+v", s)
	}
	if s := Detect([]float64{100, 110, 120}, Defaults); len(s) != 0 {
		t.Errorf("three points gave steps: %+v", s)
	}
	exact := []float64{100, 100, 100, 100, 110, 110, 110, 110}
	if s := Detect(exact, Defaults); len(s) != 1 || s[0].Index != 4 || s[0].P != 0 {
		t.Errorf("a noiseless 10%% step: %+v", s)
	}
}

// Strongest names the split a series without a step came closest to, with
// the test that failed it, and nothing where the series is too short.
func TestStrongest(t *testing.T) {
	if s, ok := Strongest([]float64{100, 110, 120}, Defaults); ok {
		t.Errorf("three points gave a split: %+v", s)
	}
	if n := Defaults.Need(); n != 8 {
		t.Errorf("Need = %d, want 8", n)
	}
	flat := []float64{100, 100, 100, 100, 101, 101, 101, 101, 101}
	s, ok := Strongest(flat, Defaults)
	if !ok || s.Index != 4 || s.Change < 0.009 || s.Change > 0.011 {
		t.Errorf("a 1%% step: %+v %v, want the split at 4, +1%%", s, ok)
	}
	noisy := []float64{100, 103, 99, 101, 102, 98, 100, 104}
	if s, ok := Strongest(noisy, Defaults); !ok || s.P < Defaults.Alpha || len(Detect(noisy, Defaults)) != 0 {
		t.Errorf("noise: %+v %v, want a split whose p is above alpha and no step", s, ok)
	}
}
