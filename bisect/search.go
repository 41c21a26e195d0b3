package bisect

import (
	"github.com/decodebench/decodebench/analysis"
	"github.com/decodebench/decodebench/schema"
)

// nextCommit is the commit the search measures next: the bad revision
// first, then the untested commit nearest the middle of the range the
// first bad commit is still in. done when the outcome is decided.
func nextCommit(sum *schema.Bisect) (string, bool) {
	shas := commitIDs(sum.Commits)
	classes := classesOf(sum.Steps)
	bad := shas[len(shas)-1]
	if _, tested := classes[bad]; !tested {
		return bad, false
	}
	o := analysis.ConcludeBisect(shas, classes)
	sum.Outcome = o
	if o.Result != schema.Unfinished {
		return "", true
	}
	lo, hi := analysis.BisectRange(shas, classes)
	if i := pickNext(shas, classes, lo, hi); i >= 0 {
		return shas[i], false
	}
	return "", true
}

// pickNext picks the untested commit of [lo, hi) nearest the middle of
// [lo, hi], the lower one on a tie (-1 when every one is tested).
func pickNext(shas []string, classes map[string]schema.BisectClass, lo, hi int) int {
	mid := (lo + hi) / 2
	best := -1
	for i := lo; i < hi; i++ {
		if _, tested := classes[shas[i]]; tested {
			continue
		}
		if best < 0 || abs(i-mid) < abs(best-mid) {
			best = i
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func commitIDs(cs []schema.BisectCommit) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.SHA
	}
	return out
}

func classesOf(steps []schema.BisectStep) map[string]schema.BisectClass {
	m := map[string]schema.BisectClass{}
	for _, s := range steps {
		m[s.Commit] = s.Class
	}
	return m
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
