package stats

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// robustKeep marks the valid runs that fitOf's regression keeps: those
// whose studentized residual is within the Bonferroni t quantile at
// TrimAlpha over the runs, within trim's limits.
func robustKeep(ys []float64, isArm, valid []bool, fitOf func(keep []bool) fit) []bool {
	// The candidates are far from their arm's median, which stalls
	// cannot move as they move a least-squares fit; the fit of the runs
	// kept then tests every run, until no run moves in or out.
	keep := trim(robustZ(medianResiduals(ys, isArm, valid), valid), TrimZ, valid, isArm)
	var f fit
	for range 10 {
		f = fitOf(keep)
		if !f.ok || f.sigma == 0 {
			break
		}
		n := 0
		z := make([]float64, len(ys))
		for i, v := range valid {
			if !v {
				continue
			}
			n++
			// Leverage enters as 1−h for a run in the fit and 1+h for a
			// run left out (the prediction's variance).
			h := 1 - f.lev[i]
			if !keep[i] {
				h = 1 + f.lev[i]
			}
			z[i] = math.Abs(f.resid[i]) / (f.sigma * math.Sqrt(math.Max(h, 1e-9)))
		}
		crit := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: f.df}.Quantile(1 - TrimAlpha/(2*float64(n)))
		next := trim(z, crit, valid, isArm)
		if slices.Equal(next, keep) {
			break
		}
		keep = next
	}
	return keep
}

// robustZ is |r|/(1.4826·MAD(r)) over the valid runs; 0 everywhere when
// the MAD is 0.
func robustZ(resid []float64, valid []bool) []float64 {
	var abs []float64
	for i, v := range valid {
		if v {
			abs = append(abs, math.Abs(resid[i]))
		}
	}
	slices.Sort(abs)
	scale := 1.4826 * Quantile(abs, 0.5)
	z := make([]float64, len(resid))
	if scale == 0 {
		return z
	}
	for i, v := range valid {
		if v {
			z[i] = math.Abs(resid[i]) / scale
		}
	}
	return z
}

// trim keeps the valid runs whose score z is at most crit, never leaving
// an arm with fewer than three runs (two if it had fewer) nor trimming
// more than a quarter of the runs: a host that disturbs more than that is
// noisy, not stalled, and its noise must widen the interval.
func trim(z []float64, crit float64, valid, isArm []bool) []bool {
	keep := slices.Clone(valid)
	type cand struct {
		i int
		z float64
	}
	var cs []cand
	per := map[bool]int{}
	n := 0
	for i, v := range valid {
		if !v {
			continue
		}
		n++
		per[isArm[i]]++
		if z[i] > crit {
			cs = append(cs, cand{i, z[i]})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		switch {
		case a.z > b.z:
			return -1
		case a.z < b.z:
			return 1
		}
		return a.i - b.i
	})
	budget := n / 4
	for _, c := range cs {
		a := isArm[c.i]
		floor := min(3, per[a])
		if budget == 0 || per[a]-1 < floor {
			continue
		}
		keep[c.i] = false
		per[a]--
		budget--
	}
	return keep
}

// medianResiduals are the log values less their arm's median.
func medianResiduals(ys []float64, isArm, valid []bool) []float64 {
	med := map[bool]float64{}
	for _, a := range []bool{false, true} {
		var v []float64
		for i, y := range ys {
			if valid[i] && isArm[i] == a {
				v = append(v, y)
			}
		}
		slices.Sort(v)
		med[a] = Quantile(v, 0.5)
	}
	out := make([]float64, len(ys))
	for i, y := range ys {
		out[i] = y - med[isArm[i]]
	}
	return out
}
