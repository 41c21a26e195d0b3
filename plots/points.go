package plots

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// point is a plottable run placed in a figure.
type point struct {
	run  Run
	arm  int     // index into the arm list
	x0   float64 // timeline: seconds since first start
	x1   float64
	xj   float64 // distributions: jittered x position
	hasT bool    // has a usable start time
}

// armOrder returns the arm order: Spec.Arms first, then arms only seen in runs,
// in order of first appearance by Seq.
func armOrder(runs []Run, s Spec) []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range s.Arms {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	sorted := sortedRuns(runs)
	for _, r := range sorted {
		if !seen[r.Arm] {
			seen[r.Arm] = true
			out = append(out, r.Arm)
		}
	}
	return out
}

func sortedRuns(runs []Run) []Run {
	out := append([]Run(nil), runs...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Seq != out[j].Seq {
			return out[i].Seq < out[j].Seq
		}
		return out[i].Start.Before(out[j].Start)
	})
	return out
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// prepare returns the plottable points (finite value) and the arm list.
func prepare(runs []Run, s Spec) ([]point, []string) {
	arms := armOrder(runs, s)
	idx := make(map[string]int, len(arms))
	for i, a := range arms {
		idx[a] = i
	}
	sorted := sortedRuns(runs)
	var t0 time.Time
	for _, r := range sorted {
		if !r.Start.IsZero() && (t0.IsZero() || r.Start.Before(t0)) {
			t0 = r.Start
		}
	}
	var pts []point
	for _, r := range sorted {
		if !finite(r.Value) {
			continue
		}
		p := point{run: r, arm: idx[r.Arm]}
		if !r.Start.IsZero() {
			p.hasT = true
			p.x0 = r.Start.Sub(t0).Seconds()
			p.x1 = p.x0
			if r.End.After(r.Start) {
				p.x1 = r.End.Sub(t0).Seconds()
			}
		}
		pts = append(pts, p)
	}
	return pts, arms
}

func noRunsErr(runs []Run, what string) error {
	return fmt.Errorf("%w: %d run(s) given, none %s", ErrNoPlottableRuns, len(runs), what)
}
