package stats

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// StallFloor is the least a round's difference must be off the others'
// (in log terms, about 10%) for the round to be trimmed as a stall: a
// stall costs a run a large share of its rate, while a change of mode of
// the host or the engine (a start that lands in a slower state, a few
// percent) is noise that must widen the interval, not be trimmed.
const StallFloor = 0.1

// CompareBlocks judges arm against ref round by round: each round is a
// block in which the arm's log value (the mean of its runs there) is
// compared with the reference's (the mean of the reference runs there: the
// baseline's, and the pooled controls' when there are some). The rounds'
// differences d_r carry each side's own noise, so the test allows each arm
// its own variance (Welch-type) without pooling; a step of the host, a
// drift common to the arms or noise that wanders slowly cancels within the
// round, where a trend across the campaign would not fit it.
//
// A round whose difference is far from the others' is trimmed as a stall:
// beyond TrimZ robust standard deviations of the differences, at least
// StallFloor off, and beyond the Bonferroni t quantile at TrimAlpha over
// the rounds when the fit of the other rounds tests it; at most a quarter
// of the rounds. When more than a quarter of the rounds are that far out,
// the stalls cannot be told from the arms' own levels (an arm whose median
// is itself stalled): Refused is set and the comparison decides nothing.
//
// Delta is the mean of the kept differences, SE its standard error, DF the
// kept rounds less one; Ratio is exp(Delta), the interval the t interval
// at Confidence and P the two-sided t-test, so the two never disagree.
// N1 and N2 are the kept rounds; Sigma is the differences' standard
// deviation over √2 (one run's noise were both sides alike), so that the
// MDE models read it as the regression's.
func CompareBlocks(ref, arm []Timed, c Config) Robust {
	return CompareRounds(ref, arm, c, TrimCascade)
}

// RoundTrim is how a comparison by round confirms the rounds that its
// robust scale found far out as stalls.
type RoundTrim int

const (
	// TrimCascade (rule robust-4) tests the candidates against the fit of
	// the rounds kept at the Bonferroni t quantile at TrimAlpha over the
	// rounds, putting back every candidate within it at once, until no
	// round moves; more than a quarter of the rounds far out on one side
	// refuses the comparison.
	TrimCascade RoundTrim = iota
	// TrimOneByOne (rule robust-5) starts with every candidate trimmed and
	// puts back, one at a time and the least far first, a candidate within
	// the same quantile of the fit of the rounds kept, until none is; the
	// comparison is refused when more than a quarter of the rounds, and
	// at least three, are far out on one side.
	TrimOneByOne
	// TrimGoodRuns (rule robust-15) is TrimOneByOne that also refuses the
	// comparison when more than a quarter of the rounds, and at least two,
	// are far out on one side's better side of its own median (one good
	// run alone is noise's tail, not a stalled median; Config.StallSign gives
	// which side a stall falls on): a stall makes a run worse, so those
	// are that side's good runs, trimmed because its median is itself
	// stalled (an arm stalled in three of five rounds claimed -29%).
	TrimGoodRuns
)

// allowed is the most rounds of n that one side may have far out before
// the comparison is refused: a quarter under TrimCascade; a quarter and at
// least two under TrimOneByOne, since two stalls of six or ten rounds
// leave the median and the robust scale clean (their centre is refused
// only from three on: half of six), and a quiet host stalling one run in
// twenty meets two of six on one side of some comparison often enough to
// refuse one campaign in twenty.
func (how RoundTrim) allowed(n int) int {
	if how.oneByOne() {
		return max(n/4, 2)
	}
	return n / 4
}

// oneByOne reports a trim that puts far rounds back one at a time.
func (how RoundTrim) oneByOne() bool { return how == TrimOneByOne || how == TrimGoodRuns }

// CompareRounds is CompareBlocks with the given confirmation of stalls.
func CompareRounds(ref, arm []Timed, c Config, how RoundTrim) Robust {
	c = c.withDefaults()
	out := Robust{Result: Result{Ratio: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), Confidence: c.Confidence, P: 1,
		Method: "round blocks: the arm against its reference within each round, stalled rounds trimmed; t-test and t interval"},
		Delta: math.NaN(), SE: math.NaN(), DF: math.NaN(), Sigma: math.NaN()}
	rounds := pairRounds(ref, arm)
	out.Blocks = len(rounds)
	if len(rounds) < 2 {
		out.Warnings = append(out.Warnings, "need at least 2 rounds with a run of each side")
		return out
	}
	d := make([]float64, len(rounds))
	for i, r := range rounds {
		d[i] = r.d
	}
	slow := make([]bool, len(rounds))
	for i, r := range rounds {
		slow[i] = r.armSlow
	}
	keep, farRef, farArm := trimRounds(d, slow, how)
	far := farRef + farArm
	goodRef, goodArm := 0, 0
	if how == TrimGoodRuns {
		goodRef, goodArm = goodFar(rounds, d, c.StallSign)
	}
	goodRefused := goodRef > max(len(d)/4, 1) || goodArm > max(len(d)/4, 1)
	if goodRefused {
		for i := range keep {
			keep[i] = true
		}
	}
	n := 0
	for _, k := range keep {
		if k {
			n++
		}
	}
	out.N1, out.N2 = n, n
	trimmed := len(d) - n
	out.Trimmed1, out.Trimmed2 = trimmedSides(rounds, keep)
	out.Refused = farRef > how.allowed(len(d)) || farArm > how.allowed(len(d)) || goodRefused
	switch {
	case goodRefused:
		out.Warnings = append(out.Warnings, fmt.Sprintf("%d of %d rounds are far out on the better side of a side's own median (%d the reference's, %d the arm's): trimming them would take a side's good runs for stalls, its median being itself stalled", goodRef+goodArm, len(d), goodRef, goodArm))
	case out.Refused:
		out.Warnings = append(out.Warnings, fmt.Sprintf("%d of %d rounds are far out (%d the reference's, %d the arm's): stalls cannot be told from the arms' levels", far, len(d), farRef, farArm))
	}
	mean, sd := meanSD(d, keep)
	out.Stalls = blockStalls(d, keep, len(rounds), trimmed)
	if n < 2 || math.IsNaN(sd) {
		out.Warnings = append(out.Warnings, "need at least 2 rounds kept")
		return out
	}
	out.Delta, out.DF = mean, float64(n-1)
	out.SE = sd / math.Sqrt(float64(n))
	out.Sigma = sd / math.Sqrt2
	out.Ratio = math.Exp(mean)
	if out.SE == 0 {
		out.Lo, out.Hi = out.Ratio, out.Ratio
		if mean != 0 {
			out.P = 0
		}
	} else {
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: out.DF}
		q := t.Quantile(1 - (1-c.Confidence)/2)
		out.Lo, out.Hi = math.Exp(mean-q*out.SE), math.Exp(mean+q*out.SE)
		out.P = math.Min(1, 2*t.Survival(math.Abs(mean)/out.SE))
	}
	out.Significant = !out.Refused && out.P < c.Alpha && math.Abs(out.Ratio-1) >= c.MinEffect
	return out
}

// round is one round's difference between the sides, with the mean
// position of its runs and which side's run is farther from that side's
// own median (for the count of stalls per side).
type round struct {
	d, pos   float64
	armSlow  bool
	ref, arm float64
	// stray is the stray side's run's log distance from that side's own
	// median (signed).
	stray float64
}

// pairRounds are the rounds with a valid run of each side, in order.
func pairRounds(ref, arm []Timed) []round {
	type side struct {
		sum, pos float64
		n        int
	}
	collect := func(xs []Timed) map[int]*side {
		m := map[int]*side{}
		for _, x := range xs {
			if !(x.Value > 0) || math.IsInf(x.Value, 0) || math.IsNaN(x.Pos) {
				continue
			}
			s := m[x.Block]
			if s == nil {
				s = &side{}
				m[x.Block] = s
			}
			s.sum += math.Log(x.Value)
			s.pos += x.Pos
			s.n++
		}
		return m
	}
	rs, as := collect(ref), collect(arm)
	var blocks []int
	for b := range as {
		if rs[b] != nil {
			blocks = append(blocks, b)
		}
	}
	slices.Sort(blocks)
	out := make([]round, 0, len(blocks))
	for _, b := range blocks {
		r, a := rs[b], as[b]
		lr, la := r.sum/float64(r.n), a.sum/float64(a.n)
		out = append(out, round{d: la - lr, pos: (r.pos + a.pos) / float64(r.n+a.n), ref: lr, arm: la})
	}
	// Which side strayed in each round: the one farther from its own
	// median.
	var lr, la []float64
	for _, r := range out {
		lr, la = append(lr, r.ref), append(la, r.arm)
	}
	mr, ma := Median(lr), Median(la)
	for i := range out {
		out[i].armSlow = math.Abs(out[i].arm-ma) > math.Abs(out[i].ref-mr)
		out[i].stray = out[i].ref - mr
		if out[i].armSlow {
			out[i].stray = out[i].arm - ma
		}
	}
	return out
}

// meanSD is the mean and standard deviation of the kept values.
func meanSD(xs []float64, keep []bool) (mean, sd float64) {
	n := 0
	for i, x := range xs {
		if keep[i] {
			mean += x
			n++
		}
	}
	if n < 2 {
		return math.NaN(), math.NaN()
	}
	mean /= float64(n)
	for i, x := range xs {
		if keep[i] {
			sd += (x - mean) * (x - mean)
		}
	}
	return mean, math.Sqrt(sd / float64(n-1))
}

// blockStalls is what the rounds saw of stalls, for the MDE: in the
// regression's terms, each round a pair of runs.
func blockStalls(d []float64, keep []bool, rounds, trimmed int) Stalls {
	s := Stalls{Runs1: rounds, Runs2: rounds, Trimmed: trimmed}
	med := Median(d)
	clean := notFar(d)
	for i, x := range d {
		a := math.Abs(x - med)
		if !clean[i] {
			s.Far = append(s.Far, a)
		}
		if !clean[i] && keep[i] {
			s.Kept++
			s.Shift += a
			s.RMS += a * a
		}
	}
	n := float64(rounds)
	s.TrimRate, s.KeptRate = float64(trimmed)/n, float64(s.Kept)/n
	if s.Kept > 0 {
		s.Shift /= float64(s.Kept)
		s.RMS = math.Sqrt(s.RMS / float64(s.Kept))
	}
	_, sd := meanSD(d, clean)
	s.Sigma, s.DF = sd/math.Sqrt2, float64(countTrue(clean)-1)
	s.diffs = d
	return s
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
