package bisect

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// simulate runs the search over n commits whose first bad one is at index
// firstBad, with skip deciding which commits are skipped (undecided), and
// returns the outcome and the number of steps.
func simulate(n, firstBad int, skip func(int) bool) (schema.BisectOutcome, int) {
	sum := &schema.Bisect{}
	idx := map[string]int{}
	for i := range n {
		sha := fmt.Sprintf("c%d", i)
		idx[sha] = i
		sum.Commits = append(sum.Commits, schema.BisectCommit{SHA: sha})
	}
	for steps := 0; ; steps++ {
		next, done := nextCommit(sum)
		if done {
			return sum.Outcome, steps
		}
		i := idx[next]
		class := schema.ClassGood
		switch {
		case skip(i):
			class = schema.ClassUndecided
		case i >= firstBad:
			class = schema.ClassBad
		}
		sum.Steps = append(sum.Steps, schema.BisectStep{N: steps + 1, Commit: next, Class: class})
		if steps > n+1 {
			panic("the search does not end")
		}
	}
}

// Without skips, the search names the first bad commit, wherever it is,
// in at most ceil(log2 n)+1 steps (the bad revision first, then halving).
func TestSearchFindsFirstBadWithinBound(t *testing.T) {
	for n := 1; n <= 64; n++ {
		limit := int(math.Ceil(math.Log2(float64(n)))) + 1
		for fb := range n {
			o, steps := simulate(n, fb, func(int) bool { return false })
			if o.Result != schema.FoundFirstBad || o.FirstBad != fmt.Sprintf("c%d", fb) {
				t.Fatalf("n=%d first bad %d: outcome %+v", n, fb, o)
			}
			if steps > limit {
				t.Errorf("n=%d first bad %d: %d steps, want at most %d", n, fb, steps, limit)
			}
		}
	}
}

// With commits skipped at random (seeded), the search never names a wrong
// commit: it names the first bad one, or a list of candidates that holds
// it, all but the last of them skipped.
func TestSearchWithSkips(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		n := 2 + r.IntN(40)
		fb := r.IntN(n - 1) // the bad revision itself measures bad
		skipped := map[int]bool{}
		for i := range n - 1 {
			skipped[i] = r.Float64() < 0.3
		}
		o, _ := simulate(n, fb, func(i int) bool { return skipped[i] })
		want := fmt.Sprintf("c%d", fb)
		switch o.Result {
		case schema.FoundFirstBad:
			if o.FirstBad != want {
				t.Fatalf("n=%d fb=%d skipped=%v: found %s", n, fb, skipped, o.FirstBad)
			}
		case schema.AmbiguousSkipped:
			found := false
			for j, c := range o.Among {
				found = found || c == want
				i, _ := strconv.Atoi(strings.TrimPrefix(c, "c"))
				if j < len(o.Among)-1 && !skipped[i] {
					t.Fatalf("candidate %d was not skipped", i)
				}
			}
			if !found {
				t.Fatalf("n=%d fb=%d: %s not among %v", n, fb, want, o.Among)
			}
		default:
			t.Fatalf("n=%d fb=%d: outcome %s", n, fb, o.Result)
		}
	}
}

// A bad revision that is not slower ends the search at once.
func TestSearchBadNotSlower(t *testing.T) {
	o, steps := simulate(10, 10, func(int) bool { return false })
	if o.Result != schema.BadNotBad || steps != 1 {
		t.Errorf("outcome %s after %d steps, want %s after 1", o.Result, steps, schema.BadNotBad)
	}
	if o := analysis.ConcludeBisect(nil, nil); o.Result != schema.BadNotBad {
		t.Errorf("empty range: %s", o.Result)
	}
}
