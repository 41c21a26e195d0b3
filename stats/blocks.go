package stats

import (
	"fmt"
	"math"
	"slices"
	"sync"

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
)

// allowed is the most rounds of n that one side may have far out before
// the comparison is refused: a quarter under TrimCascade; a quarter and at
// least two under TrimOneByOne, since two stalls of six or ten rounds
// leave the median and the robust scale clean (their centre is refused
// only from three on: half of six), and a quiet host stalling one run in
// twenty meets two of six on one side of some comparison often enough to
// refuse one campaign in twenty.
func (how RoundTrim) allowed(n int) int {
	if how == TrimOneByOne {
		return max(n/4, 2)
	}
	return n / 4
}

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
	n := 0
	for _, k := range keep {
		if k {
			n++
		}
	}
	out.N1, out.N2 = n, n
	trimmed := len(d) - n
	out.Trimmed1, out.Trimmed2 = trimmedSides(rounds, keep)
	out.Refused = farRef > how.allowed(len(d)) || farArm > how.allowed(len(d))
	if out.Refused {
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
	}
	return out
}

// trimRounds marks the rounds kept, and counts the rounds far out (beyond
// TrimZ robust standard deviations of the differences and StallFloor off
// their median) whose stray run was the reference's and the arm's
// (armSlow). When either side has more than a quarter of the rounds far
// out, nothing is trimmed: the comparison is refused.
func trimRounds(d []float64, armSlow []bool, how RoundTrim) (keep []bool, farRef, farArm int) {
	keep = make([]bool, len(d))
	for i := range keep {
		keep[i] = true
	}
	cand := notFar(d)
	for i, clean := range cand {
		cand[i] = !clean
		switch {
		case clean:
		case armSlow[i]:
			farArm++
		default:
			farRef++
		}
	}
	if farRef+farArm == 0 || farRef > how.allowed(len(d)) || farArm > how.allowed(len(d)) {
		return keep, farRef, farArm
	}
	for i, c := range cand {
		keep[i] = !c
	}
	if how == TrimOneByOne {
		oneByOne(d, keep)
		return keep, farRef, farArm
	}
	// The candidates are tested against the fit of the rounds kept, until
	// no round moves in or out.
	for range 10 {
		mean, sd := meanSD(d, keep)
		n := 0
		for _, k := range keep {
			if k {
				n++
			}
		}
		if n < 3 || !(sd > 0) {
			break
		}
		crit := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(1 - TrimAlpha/(2*float64(len(d))))
		next := make([]bool, len(d))
		for i, x := range d {
			h := 1 - 1/float64(n)
			if !keep[i] {
				h = 1 + 1/float64(n)
			}
			z := math.Abs(x-mean) / (sd * math.Sqrt(h))
			next[i] = !(cand[i] && z > crit && math.Abs(x-mean) >= StallFloor)
		}
		if slices.Equal(next, keep) {
			break
		}
		keep = next
	}
	return keep, farRef, farArm
}

// oneByOne puts back, the least far first and one at a time, each
// trimmed round within the Bonferroni t quantile at TrimAlpha over the
// rounds (or less than StallFloor off) of the fit of the rounds kept
// (TrimOneByOne); all of them when fewer than two rounds would be left to
// fit.
func oneByOne(d []float64, keep []bool) {
	for {
		mean, sd := meanSD(d, keep)
		n := countTrue(keep)
		if n < 2 || !(sd > 0) {
			for i := range keep {
				keep[i] = true
			}
			return
		}
		crit := roundCrit(n-1, len(d))
		back, least := -1, math.Inf(1)
		for i, x := range d {
			if keep[i] {
				continue
			}
			z := math.Abs(x-mean) / (sd * math.Sqrt(1+1/float64(n)))
			if (z <= crit || math.Abs(x-mean) < StallFloor) && z < least {
				back, least = i, z
			}
		}
		if back < 0 {
			return
		}
		keep[back] = true
	}
}

// roundCrit is the Bonferroni t quantile at TrimAlpha over rounds rounds
// at df degrees of freedom, remembered: PutBackChance runs the trimming
// thousands of times a comparison.
func roundCrit(df, rounds int) float64 {
	key := [2]int{df, rounds}
	if c, ok := critCache.Load(key); ok {
		return c.(float64)
	}
	c := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(1 - TrimAlpha/(2*float64(rounds)))
	critCache.Store(key, c)
	return c
}

var critCache sync.Map

// trimmedSides counts the trimmed rounds whose stray run was the
// reference's and the arm's.
func trimmedSides(rounds []round, keep []bool) (ref, arm int) {
	for i, r := range rounds {
		if keep[i] {
			continue
		}
		if r.armSlow {
			arm++
		} else {
			ref++
		}
	}
	return ref, arm
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
