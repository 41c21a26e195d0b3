package review

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/decodebench/decodebench/recorder"
	"github.com/decodebench/decodebench/schema"
)

// Every line diff writes states one test: its p is below alpha exactly
// when its interval excludes no change, and a verdict of better or worse
// needs both. Checked over every pair of real records of one feature (the
// committed spec-draft records and history/testdata/layers), where diff
// used to print a U test's p beside a bootstrap interval (issue 34:
// ttft_ms +46.4% [-1.3%, +77.1%] p=0.015 ~).
func TestDiffLinesAreOneTest(t *testing.T) {
	var groups [][]string
	for _, glob := range []string{"../docs/benchmark_results/spec-draft-*.md", "../history/testdata/layers/*.md"} {
		names, err := filepath.Glob(glob)
		if err != nil || len(names) < 2 {
			t.Fatalf("%s: %v", glob, err)
		}
		groups = append(groups, names)
	}
	lines := 0
	for _, names := range groups {
		recs := map[string]*schema.Record{}
		for _, n := range names {
			r, err := recorder.Load(n)
			if err != nil {
				t.Fatal(err)
			}
			recs[n] = r
		}
		for i, a := range names {
			for _, b := range names[i+1:] {
				d := Compare(a, recs[a], b, recs[b], DiffOptions{Threshold: DefaultThreshold, Force: true})
				alpha := recs[b].Method.Alpha
				for _, m := range d.Metrics {
					if m.Verdict == NotFound || m.Verdict == Unknown || (m.Lo == 0 && m.Hi == 0) {
						continue
					}
					lines++
					if math.Abs(m.Confidence-(1-alpha)) > 1e-12 {
						t.Errorf("%s → %s, %s %s: interval at %g, alpha %g", filepath.Base(a), filepath.Base(b), m.Arm, m.Metric, m.Confidence, alpha)
					}
					oneTest(t, filepath.Base(a)+" → "+filepath.Base(b)+", "+m.Arm+" "+m.Metric, m.P, alpha, m.Lo, m.Hi, m.Verdict)
				}
				for _, r := range d.Ratios {
					if r.Verdict == Unknown || (r.Lo == 0 && r.Hi == 0) {
						continue
					}
					lines++
					oneTest(t, filepath.Base(a)+" → "+filepath.Base(b)+", "+r.Arm+" / "+r.Baseline, r.P, 1-d.Family.Confidence, r.Lo, r.Hi, r.Verdict)
				}
			}
		}
	}
	if lines < 500 {
		t.Fatalf("only %d lines checked", lines)
	}
}

func oneTest(t *testing.T, what string, p, alpha, lo, hi float64, v Change) {
	t.Helper()
	pSig, ciSig := p < alpha, lo > 0 || hi < 0
	if pSig != ciSig && math.Abs(p-alpha) > 1e-9 {
		t.Errorf("%s: p=%.3g at alpha %g beside [%+.1f%%, %+.1f%%] (%s)", what, p, alpha, 100*lo, 100*hi, v)
	}
	if (v == Better || v == Worse) && !(pSig && ciSig) {
		t.Errorf("%s: %s with p=%.3g beside [%+.1f%%, %+.1f%%]", what, v, p, 100*lo, 100*hi)
	}
}

// A threshold of 0 counts every significant change (diff --threshold 0):
// it was read as "unset" and replaced by 2%, so a significant 1.5%
// regression passed a gate asked to count any.
func TestDiffThresholdZeroCountsAnyChange(t *testing.T) {
	h := sessionHost{CV: 0.002, Rounds: 10}
	old, nu := h.campaignOf(rand.New(rand.NewPCG(1, 1)), 1), h.campaignOf(rand.New(rand.NewPCG(2, 1)), 0.985)
	if d := Compare("old.md", old, "new.md", nu, DiffOptions{Threshold: DefaultThreshold}); d.Regressed() {
		t.Fatalf("1.5%% counted under a 2%% threshold: %+v", d.Ratios)
	}
	d := Compare("old.md", old, "new.md", nu, DiffOptions{})
	if d.Threshold != 0 || !d.Regressed() {
		t.Errorf("threshold 0: stated %v, regressed %v: %+v", d.Threshold, d.Regressed(), d.Ratios)
	}
}
