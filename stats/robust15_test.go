package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/decodebench/decodebench/internal/workers"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// An arm whose median is itself stalled (three of five rounds 30% slow)
// has its good rounds far out: TrimOneByOne trimmed them and claimed the
// stalled level as the arm's (-29%); TrimGoodRuns refuses, for a rate and
// for a time alike, and still trims an ordinary stall.
func TestTrimGoodRunsRefusesAStalledMedian(t *testing.T) {
	var rng *rand.Rand
	side := func(stalled map[int]bool, factor float64, n int) []stats.Timed {
		var out []stats.Timed
		for r := range n {
			v := 100 * math.Exp(0.01*rng.NormFloat64())
			if stalled[r] {
				v *= factor
			}
			out = append(out, stats.Timed{Value: v, Block: r, Pos: float64(r) / float64(n)})
		}
		return out
	}
	for _, c := range []struct {
		name   string
		factor float64 // a stall's effect on the value
		sign   int
	}{
		{"a rate", 0.7, -1},
		{"a time", 1 / 0.7, 1},
	} {
		rng = rand.New(rand.NewPCG(15, 1)) // the same noise: the cases mirror each other
		ref := side(nil, 1, 5)
		arm := side(map[int]bool{0: true, 2: true, 3: true}, c.factor, 5)
		cfg := stats.Config{Confidence: 0.95, Alpha: 0.05, MinEffect: 0.01, StallSign: c.sign}
		old := stats.CompareRounds(ref, arm, cfg, stats.TrimOneByOne)
		if old.Refused || !old.Significant {
			t.Fatalf("%s: TrimOneByOne no longer claims the stalled level (refused %v, significant %v): the test shows nothing", c.name, old.Refused, old.Significant)
		}
		got := stats.CompareRounds(ref, arm, cfg, stats.TrimGoodRuns)
		if !got.Refused || got.Significant {
			t.Errorf("%s: TrimGoodRuns: refused %v, significant %v (ratio %.3f), want refused", c.name, got.Refused, got.Significant, got.Ratio)
		}
		// One ordinary stall of six: trimmed, not refused.
		ref6, arm6 := side(nil, 1, 6), side(map[int]bool{4: true}, c.factor, 6)
		one := stats.CompareRounds(ref6, arm6, cfg, stats.TrimGoodRuns)
		if one.Refused || one.N1 != 5 {
			t.Errorf("%s: one stall of six: refused %v, %d rounds kept, want 5 kept", c.name, one.Refused, one.N1)
		}
		// Two stalls of six on the arm's side: a third of its runs, as
		// robust-5 allows, trimmed.
		two := stats.CompareRounds(side(nil, 1, 6), side(map[int]bool{1: true, 4: true}, c.factor, 6), cfg, stats.TrimGoodRuns)
		if two.Refused || two.N1 != 4 {
			t.Errorf("%s: two stalls of six: refused %v, %d rounds kept, want 4 kept", c.name, two.Refused, two.N1)
		}
	}
}

// Drift that means something, each arm its own noise: A/A campaigns one
// of whose arms is four times as noisy as the other (CV 6% against 1.5%,
// either way round; no stalls, no drift of its own). Robust-14's pooled
// fit trimmed the noisy arm's tail on a scale shared with the quiet one
// and took one noise for both; robust-15 fits each arm its own line and
// noise (stats.TrendWelch). TestDriftFlagCalibration holds its power on
// an arm that drifts alone.
func TestRobust15DriftAllowsEachArmItsNoise(t *testing.T) {
	t.Parallel() // a seeded simulation with its own generators
	if testing.Short() {
		t.Skip("simulation")
	}
	const campaigns = 1000
	p := simPolicy(t, 10, "")
	h := host{drift: 0.03}
	for _, noisy := range []string{"test", "base"} {
		value := func(rng *rand.Rand, arm string, center float64) float64 {
			cv := 0.015
			if arm == noisy {
				cv = 0.06
			}
			return center * math.Exp(cv*rng.NormFloat64())
		}
		rate := func(rule schema.Rule) float64 {
			flagged := make([]bool, campaigns)
			workers.ForEach(campaigns, func(i int) {
				a := simulate(t, campaignSpec{policy: p, host: h, rule: rule, value: value}, 1500*100000+uint64(i))
				for _, r := range a.Flags {
					if d, ok := r.(schema.RelativeDrift); ok && d.Arm == "test" {
						flagged[i] = true
					}
				}
			})
			n := 0
			for _, f := range flagged {
				if f {
					n++
				}
			}
			return float64(n) / campaigns
		}
		before, after := rate(schema.RuleRobust14), rate(schema.RuleRobust15)
		t.Logf("A/A, the %s arm of CV 6%% and the other of 1.5%%, 10 rounds, %d campaigns: the test arm flagged for drift in %.1f%% under robust-14, %.1f%% under robust-15", noisy, campaigns, 100*before, 100*after)
		bound := 0.05 + 3*math.Sqrt(0.05*0.95/campaigns)
		if after > bound {
			t.Errorf("noisy %s: robust-15 flags %.3f of A/A arms for drift, above %.3f", noisy, after, bound)
		}
		if before <= bound {
			t.Errorf("noisy %s: robust-14 flags only %.3f: the model no longer shows the pooled fit's fault", noisy, before)
		}
	}
}

// A test arm's comparison with the negative control is judged at the
// level the arm was judged at: robust-14 judged it at the whole alpha and
// said "separates from noise" of an arm judged at 2.5% or at an early
// look's boundary on a p above that level.
func TestRobust15JudgesVsControlAtTheArmsLevel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("simulation")
	}
	const campaigns = 150
	for _, sched := range []string{"10", "{min: 5, max: 30, every: 5}"} {
		p := simPolicyRounds(t, sched, "")
		p.Arms = append(p.Arms, p.Arms[2])
		p.Arms[3].Name = "test2"
		eff := map[string]float64{"test": 1.03, "test2": 1.02}
		count := func(rule schema.Rule) int {
			n := 0
			for i := range campaigns {
				a := simulate(t, campaignSpec{policy: p, host: quietHost, rule: rule, effects: eff}, 300000+uint64(i))
				for _, v := range a.ArmVerdicts {
					if v.Control || v.VsControl == nil || v.Comparison.Level == 0 {
						continue
					}
					if v.SeparatesFromNoise && v.VsControl.P >= v.Comparison.Level {
						n++
					}
				}
			}
			return n
		}
		before, after := count(schema.RuleRobust14), count(schema.RuleRobust15)
		t.Logf("schedule %s, two test arms, %d campaigns: separates from noise on a p at or above the arm's level: %d under robust-14, %d under robust-15", sched, campaigns, before, after)
		if after > 0 {
			t.Errorf("schedule %s: robust-15 says an arm separates from noise on a p at or above its level %d time(s)", sched, after)
		}
		if before == 0 {
			t.Errorf("schedule %s: robust-14 never did either: the test shows nothing", sched)
		}
	}
}

// A refused comparison steps down Holm's order last: refused first by its
// small p, it stopped the procedure and held the next arm at alpha/m, so
// that the record said "no significant difference" of an arm whose p was
// below its level and whose interval excluded 1 (two of 3,000 campaigns
// of a host that stalls one run in four, found by a seeded search).
func TestRobust15HolmTakesRefusedArmsLast(t *testing.T) {
	p := simPolicyRounds(t, "10", "")
	p.Arms = append(p.Arms, p.Arms[2])
	p.Arms[3].Name = "test2"
	h := host{cv: 0.02, drift: 0.03, stall: 0.25, stallCost: 0.3}
	eff := map[string]float64{"test": 1.04, "test2": 1.03}
	for _, seed := range []uint64{501831, 502066} {
		judged := func(rule schema.Rule) (refused bool, c schema.Comparison) {
			a := simulate(t, campaignSpec{policy: p, host: h, rule: rule, effects: eff}, seed)
			for _, r := range a.Reasons {
				if s, ok := r.(schema.TooManyStalls); ok && s.Arm == "test" {
					refused = true
				}
			}
			for _, v := range a.ArmVerdicts {
				if v.Arm == "test2" {
					c = v.Comparison
				}
			}
			return refused, c
		}
		ref14, c14 := judged(schema.RuleRobust14)
		ref15, c15 := judged(schema.RuleRobust15)
		if !ref14 || c14.Significant || !(c14.P < c14.Level) {
			t.Fatalf("seed %d: under robust-14 the case is gone (test refused %v; test2 p %.4g at level %.4g, significant %v)", seed, ref14, c14.P, c14.Level, c14.Significant)
		}
		if !ref15 || !c15.Significant || !(c15.P < c15.Level) {
			t.Errorf("seed %d: under robust-15 test refused %v; test2 p %.4g at level %.4g [%.3f, %.3f], significant %v: want significant", seed, ref15, c15.P, c15.Level, c15.Lo, c15.Hi, c15.Significant)
		}
	}
}

// Two arms of constant values fit their lines exactly: their slopes
// differ by round-off, which TrendWelch does not test as a drift (it
// gave p = 0 in 29 of 600 such cases).
func TestTrendWelchOfExactLines(t *testing.T) {
	for n := 3; n <= 40; n++ {
		var base, arm []stats.Timed
		for i := range n {
			pos := float64(i) / float64(n)
			base = append(base, stats.Timed{Value: 123.45, Pos: pos})
			arm = append(arm, stats.Timed{Value: 98.76, Pos: pos + 0.5/float64(n)})
		}
		if got := stats.TrendWelch(base, arm); !math.IsNaN(got.P) {
			t.Errorf("%d runs of constant arms: p %v, want none (NaN)", n, got.P)
		}
	}
}
