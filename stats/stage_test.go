package stats

import (
	"math"
	"testing"
)

// timedRounds are a reference and an arm of one run a round, the arm's
// value ratio[i] times the reference's 100 in round i+1.
func timedRounds(ratio []float64) (ref, arm []Timed) {
	for i, q := range ratio {
		ref = append(ref, Timed{Pos: float64(2 * i), Value: 100, Block: i + 1})
		arm = append(arm, Timed{Pos: float64(2*i + 1), Value: 100 * q, Block: i + 1})
	}
	return ref, arm
}

// Under StageStein a comparison takes the first stage's noise, every one
// of its rounds, at its degrees of freedom; a first stage without noise
// (every difference equal) leaves the comparison as it was, where its
// t-test would have claimed any mean at p = 0; StageNone is the
// identity.
func TestStageRestate(t *testing.T) {
	c := Config{Alpha: 0.05, Confidence: 0.95, MinEffect: 0.01}
	ref, arm := timedRounds([]float64{1.01, 1.01, 1.01, 1.01, 1.01, 0.90, 1.22, 0.93, 1.18, 0.95, 1.12, 0.97})
	r := CompareRounds(ref, arm, c, TrimOneByOne)
	if got := StageStein.Restate(r, ref, arm, c, 5); got.Significant || got.Staged || got.Lo != r.Lo {
		t.Errorf("a first stage without noise: %+v, want the comparison as it was (%v, [%v, %v])", got.Result, r.Significant, r.Lo, r.Hi)
	}
	ref, arm = timedRounds([]float64{1.00, 1.02, 0.99, 1.03, 0.98, 1.05, 1.01, 1.04, 0.97, 1.02})
	r = CompareRounds(ref, arm, c, TrimOneByOne)
	if got := StageNone.Restate(r, ref, arm, c, 5); got.Lo != r.Lo || got.Hi != r.Hi || got.P != r.P || got.Staged {
		t.Errorf("StageNone changed the comparison: %+v against %+v", got.Result, r.Result)
	}
	got := StageStein.Restate(r, ref, arm, c, 5)
	_, sd0 := meanSD([]float64{0, math.Log(1.02), math.Log(0.99), math.Log(1.03), math.Log(0.98)}, []bool{true, true, true, true, true})
	if !got.Staged || got.DF != 4 || math.Abs(got.SE-sd0/math.Sqrt(float64(r.N1))) > 1e-12 || got.Delta != r.Delta {
		t.Errorf("staged: df %v, se %v (want 4, %v), delta %v against %v", got.DF, got.SE, sd0/math.Sqrt(float64(r.N1)), got.Delta, r.Delta)
	}
	// The first stage alone (a campaign that stops at min) is staged too,
	// as its plan was: every round's noise at its degrees of freedom.
	ref5, arm5 := timedRounds([]float64{1.00, 1.01, 0.99, 1.005, 1.6})
	r5 := CompareRounds(ref5, arm5, c, TrimOneByOne)
	if got := StageStein.Restate(r5, ref5, arm5, c, 5); !got.Staged || got.DF != 4 || got.Hi-got.Lo <= r5.Hi-r5.Lo {
		t.Errorf("the first stage alone: staged %v, df %v, interval [%v, %v] against [%v, %v]", got.Staged, got.DF, got.Lo, got.Hi, r5.Lo, r5.Hi)
	}
}
