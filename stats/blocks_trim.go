package stats

import (
	"math"
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// goodFar counts the rounds far out whose stray run is on the better side
// of its side's own median, by side: a stall moves a value by sign (−1: a
// rate falls), so these are good runs. 0, 0 where sign is 0 (unknown).
func goodFar(rounds []round, d []float64, sign int) (ref, arm int) {
	if sign == 0 {
		return 0, 0
	}
	for i, clean := range notFar(d) {
		if clean || rounds[i].stray*float64(sign) >= 0 {
			continue
		}
		if rounds[i].armSlow {
			arm++
		} else {
			ref++
		}
	}
	return ref, arm
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
	if how.oneByOne() {
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
