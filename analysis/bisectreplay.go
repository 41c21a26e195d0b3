package analysis

import "github.com/decodebench/decodebench/schema"

// BisectReplay follows a search step by step, as a reader of its summary
// replays it: Next is the commit NextBisectCommit gives after the steps
// measured so far (Measured), kept up in about constant time a step where
// NextBisectCommit reads every commit for every step (a summary of many
// skipped commits would take a check time quadratic in its size). It holds
// only for steps that measured the commit Next gave.
type BisectReplay struct {
	commits []string
	index   map[string]int
	// below and above find the untested commit nearest an index on
	// either side (disjoint sets, each tested commit joined to its
	// neighbour).
	below, above []int
	bad          bool // the bad revision measured bad
	done         bool
	lo, hi       int // the range the first bad commit is in, [lo, hi]
}

// NewBisectReplay starts a replay over commits (oldest first, the bad
// revision last).
func NewBisectReplay(commits []string) *BisectReplay {
	n := len(commits)
	r := &BisectReplay{commits: commits, index: make(map[string]int, n), below: make([]int, n+1), above: make([]int, n+1), hi: n - 1}
	for i, c := range commits {
		r.index[c] = i
	}
	for i := range n + 1 {
		r.below[i], r.above[i] = i, i
	}
	r.done = n == 0
	return r
}

// Next is the commit the search measures next; done when the outcome is
// decided.
func (r *BisectReplay) Next() (next string, done bool) {
	n := len(r.commits)
	switch {
	case r.done:
		return "", true
	case r.untested(n - 1):
		return r.commits[n-1], false
	case !r.bad || r.lo == r.hi:
		return "", true
	}
	mid := (r.lo + r.hi) / 2
	below, above := find(r.below, mid+1)-1, find(r.above, mid+1)
	if below >= r.lo && (above >= r.hi || mid-below <= above-mid) {
		return r.commits[below], false
	}
	if above < r.hi {
		return r.commits[above], false
	}
	return "", true
}

// Measured records the class of the commit Next gave.
func (r *BisectReplay) Measured(commit string, class schema.BisectClass) {
	i, ok := r.index[commit]
	if !ok || !r.untested(i) {
		r.done = true // not a step the search takes
		return
	}
	// Tested: joined to its neighbour below (for below) and above.
	r.below[i+1] = i
	r.above[i] = i + 1
	switch {
	case i == len(r.commits)-1:
		r.bad = class == schema.ClassBad
	case class == schema.ClassBad:
		r.hi = i
	case class == schema.ClassGood:
		r.lo = i + 1
	}
}

func (r *BisectReplay) untested(i int) bool { return find(r.above, i) == i }

// find is the representative of i in a disjoint-set forest, compressing
// the path: above[i] is the smallest untested commit at or after i (n
// when none), below[i+1]-1 the largest at or before i (-1 when none).
func find(parent []int, i int) int {
	root := i
	for parent[root] != root {
		root = parent[root]
	}
	for parent[i] != root {
		parent[i], i = root, parent[i]
	}
	return root
}
