package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// blocksCampaign is ten rounds of a reference and an arm of true ratio
// effect, log-normal noise of sd each, with f changing a run's value.
func blocksCampaign(seed uint64, rounds int, effect, sdRef, sdArm float64, f func(round int, arm bool, v float64) float64) (ref, arm []Timed) {
	rng := rand.New(rand.NewPCG(seed, 3))
	for r := 1; r <= rounds; r++ {
		a := 100 * math.Exp(sdRef*rng.NormFloat64())
		b := 100 * effect * math.Exp(sdArm*rng.NormFloat64())
		if f != nil {
			a, b = f(r, false, a), f(r, true, b)
		}
		ref = append(ref, Timed{Pos: float64(2*r - 1), Value: a, Block: r})
		arm = append(arm, Timed{Pos: float64(2 * r), Value: b, Block: r})
	}
	return ref, arm
}

// A step of the host in the middle of a campaign cancels within the
// rounds; the regression's common trend cannot fit it.
func TestCompareBlocksCancelsAStep(t *testing.T) {
	step := func(r int, _ bool, v float64) float64 {
		if r > 5 {
			return v * 0.85
		}
		return v
	}
	ref, arm := blocksCampaign(1, 10, 1.05, 0.01, 0.01, step)
	b := CompareBlocks(ref, arm, DefaultConfig())
	if math.Abs(b.Ratio-1.05) > 0.01 || b.Hi-b.Lo > 0.03 || !b.Significant {
		t.Errorf("blocks: ratio %.4f [%.4f, %.4f], significant %v", b.Ratio, b.Lo, b.Hi, b.Significant)
	}
	if r := CompareRobust(ref, arm, DefaultConfig()); r.Hi-r.Lo < 2*(b.Hi-b.Lo) {
		t.Errorf("the regression fits a step as well as the rounds: %.4f against %.4f wide", r.Hi-r.Lo, b.Hi-b.Lo)
	}
}

// A stalled run costs its round and is said on its side; a mode a few
// percent off (a start that lands in a slower state) is noise, kept.
func TestCompareBlocksTrimsAStallNotAMode(t *testing.T) {
	stall := func(r int, arm bool, v float64) float64 {
		if r == 4 && !arm {
			return v * 0.7
		}
		return v
	}
	ref, arm := blocksCampaign(2, 10, 1.0, 0.01, 0.01, stall)
	b := CompareBlocks(ref, arm, DefaultConfig())
	if b.Trimmed1 != 1 || b.Trimmed2 != 0 || b.N1 != 9 || b.Significant {
		t.Errorf("a stall: trimmed %d/%d, kept %d, ratio %.4f, significant %v", b.Trimmed1, b.Trimmed2, b.N1, b.Ratio, b.Significant)
	}
	mode := func(r int, arm bool, v float64) float64 {
		if r%3 == 0 && arm {
			return v * 0.93
		}
		return v
	}
	ref, arm = blocksCampaign(3, 10, 1.0, 0.005, 0.005, mode)
	if b := CompareBlocks(ref, arm, DefaultConfig()); b.Trimmed1+b.Trimmed2 != 0 {
		t.Errorf("a mode 7%% off was trimmed as a stall: %d", b.Trimmed1+b.Trimmed2)
	}
}

// An arm whose median is itself stalled (most of its runs slow) is not
// compared by its good runs trimmed as stalls: the comparison is refused.
func TestCompareBlocksRefusesAStalledMedian(t *testing.T) {
	stalled := func(r int, arm bool, v float64) float64 {
		if arm && r <= 7 {
			return v * 0.6
		}
		return v
	}
	ref, arm := blocksCampaign(4, 10, 1.1, 0.01, 0.01, stalled)
	b := CompareBlocks(ref, arm, DefaultConfig())
	if !b.Refused || b.Significant {
		t.Errorf("refused %v, significant %v, ratio %.3f", b.Refused, b.Significant, b.Ratio)
	}
}

// Each arm keeps its own noise: with one arm four times as noisy as the
// other the interval covers the truth at its level (Welch-type), where a
// test on a pooled, trimmed scale claimed too often.
func TestCompareBlocksCoverageWithUnequalNoise(t *testing.T) {
	const n = 2000
	covered, claims := 0, 0
	for i := range n {
		ref, arm := blocksCampaign(uint64(100+i), 10, 1.0, 0.015, 0.06, nil)
		b := CompareBlocks(ref, arm, DefaultConfig())
		if b.Lo <= 1 && 1 <= b.Hi {
			covered++
		}
		if b.Significant {
			claims++
		}
	}
	if c := float64(covered) / n; c < 0.94 || c > 0.96 {
		t.Errorf("coverage %.3f, want 0.95", c)
	}
	if c := float64(claims) / n; c > 0.05+2*math.Sqrt(0.05*0.95/n) {
		t.Errorf("false claims %.3f", c)
	}
}

// With no stalls and one look, the MDE is the textbook effect of the t
// test (its quantiles at the rounds kept, the noise unbiased).
func TestMDEBlocksTextbook(t *testing.T) {
	ref, arm := blocksCampaign(5, 10, 1.0, 0.02, 0.02, nil)
	b := CompareBlocks(ref, arm, DefaultConfig())
	up, down := MDEBlocks(b, []Stalls{b.Stalls}, 0, true, 0.05, 0.8, 0.01, Design{})
	want := (2.262 + 0.883) * b.SE / c4(b.DF+1)
	if math.Abs(math.Log1p(up)-want) > 0.002 || math.Abs(-math.Log1p(-down)-want) > 0.002 {
		t.Errorf("MDE up %.4f down %.4f, want %.4f in log", up, down, want)
	}
	// A design of looks detects less at its last look than one look does.
	d := Design{Spending: SpendOBF, Ts: []float64{1.0 / 3, 2.0 / 3, 1}, Ns: []int{5, 10, 15}}
	if s, _ := MDEBlocks(b, []Stalls{b.Stalls}, 0, true, 0.05, 0.8, 0.01, d); s <= up {
		t.Errorf("three looks: MDE %.4f, one: %.4f", s, up)
	}
}

// Two stalls in six rounds on the arm's side, on a host with 1% noise:
// rule robust-4 refuses the comparison (more than a quarter of the rounds
// far out on one side); robust-5 trims both (the median and the robust
// scale of six rounds are clean with two far out) and decides. Three far
// rounds of ten on one side refuse it under both.
func TestCompareRoundsTrimsTwoStallsOfSix(t *testing.T) {
	two := func(r int, arm bool, v float64) float64 {
		if arm && (r == 2 || r == 5) {
			return v * 0.7
		}
		return v
	}
	for seed := uint64(1); seed <= 20; seed++ {
		ref, arm := blocksCampaign(seed, 6, 1.06, 0.01, 0.01, two)
		b := CompareRounds(ref, arm, DefaultConfig(), TrimOneByOne)
		if b.Trimmed2 != 2 || b.N1 != 4 || b.Refused || !b.Significant || math.Abs(b.Ratio-1.06) > 0.03 {
			t.Errorf("seed %d, robust-5: trimmed %d/%d, kept %d, refused %v, ratio %.4f", seed, b.Trimmed1, b.Trimmed2, b.N1, b.Refused, b.Ratio)
		}
		if b := CompareRounds(ref, arm, DefaultConfig(), TrimCascade); !b.Refused || b.Significant {
			t.Errorf("seed %d: robust-4 (its records re-derive by it) no longer refuses two far rounds of six: %+v", seed, b)
		}
	}
	three := func(r int, arm bool, v float64) float64 {
		if arm && (r == 2 || r == 5 || r == 8) {
			return v * 0.7
		}
		return v
	}
	ref, arm := blocksCampaign(4, 10, 1.0, 0.01, 0.01, three)
	for _, how := range []RoundTrim{TrimCascade, TrimOneByOne} {
		if b := CompareRounds(ref, arm, DefaultConfig(), how); !b.Refused || b.Significant {
			t.Errorf("trim %d: three stalled rounds of ten on one side: refused %v, significant %v", how, b.Refused, b.Significant)
		}
	}
}
