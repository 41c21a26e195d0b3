package analysis

import "github.com/decodebench/decodebench/schema"

// ClassifyStep judges one bisect campaign from its record: the candidate
// arm against the reference arm on the primary metric, with the bisect's
// threshold (a fraction of the reference's median).
//
//   - bad: the change is significant (the record's own rule: p, interval
//     and min_effect) and slower by at least the threshold;
//   - good: the interval's slow end is within the threshold (a slowdown
//     past it is ruled out; a significant speed-up is good too);
//   - undecided otherwise, or when the record shows no results to trust
//     (FAILED, REJECTED, INCOMPLETE) or no comparison of the two arms.
//
// INCONCLUSIVE and UNVERIFIED records are classified: the bisect's rule
// is the interval against the threshold, whatever the publishing gates
// said. It fills in everything of the campaign but its record's path.
func ClassifyStep(rec *schema.Record, reference, candidate string, threshold float64) schema.BisectCampaign {
	out := schema.BisectCampaign{Verdict: rec.Verdict, Class: schema.ClassUndecided}
	switch rec.Verdict {
	case schema.Valid, schema.Inconclusive, schema.Unverified:
	default:
		out.Why = schema.WhyVerdict
		return out
	}
	if rec.Scenario.Baseline != reference {
		out.Why = schema.WhyNoComparison
		return out
	}
	var cmp *schema.Comparison
	for _, m := range rec.Analysis.Results {
		if !m.Primary {
			continue
		}
		out.Metric, out.HigherIsBetter = m.Metric, m.HigherIsBetter
		for _, a := range m.Arms {
			if a.Arm == candidate && a.Comparison != nil {
				cmp = a.Comparison
			}
		}
	}
	if cmp == nil || !cmp.Defined() || !cmp.HasInterval() {
		out.Why = schema.WhyNoComparison
		return out
	}
	out.Ratio, out.Lo, out.Hi, out.Confidence, out.P, out.Significant = cmp.Ratio, cmp.Lo, cmp.Hi, cmp.Confidence, cmp.P, cmp.Significant
	slower, worst := Slowdown(out)
	switch {
	case cmp.Significant && slower >= threshold:
		out.Class = schema.ClassBad
	case worst <= threshold:
		out.Class = schema.ClassGood
	default:
		out.Why = schema.WhyWide
	}
	return out
}

// Slowdown is the candidate's slowdown against the reference as a
// fraction of the reference (negative when faster), at the ratio and at
// the slow end of its interval.
func Slowdown(c schema.BisectCampaign) (point, worst float64) {
	if c.HigherIsBetter {
		return 1 - c.Ratio, 1 - c.Lo
	}
	return c.Ratio - 1, c.Hi - 1
}

// ConcludeBisect says where the steps' classes leave the search over
// commits (oldest first, the bad revision last). Until the bad revision is
// measured the search is unfinished, among every commit; it must be bad,
// else the search has nothing to search from: it is not slower (good),
// did not build, or stayed undecided, each its own outcome. Then the first bad commit lies
// after the last good one before the earliest bad one and at or before
// that bad one; it is found when no commit is left between them, and
// among several when only skipped commits are. Otherwise the search is
// unfinished (the caller may know why: out of time).
func ConcludeBisect(commits []string, classes map[string]schema.BisectClass) schema.BisectOutcome {
	n := len(commits)
	if n == 0 {
		return schema.BisectOutcome{Result: schema.BadNotBad}
	}
	if _, tested := classes[commits[n-1]]; !tested {
		return schema.BisectOutcome{Result: schema.Unfinished, Among: append([]string{}, commits...)}
	}
	switch classes[commits[n-1]] {
	case schema.ClassBad:
	case schema.ClassBuildFailed:
		return schema.BisectOutcome{Result: schema.BadBuildFailed}
	case schema.ClassUndecided:
		return schema.BisectOutcome{Result: schema.BadUndecided}
	default:
		return schema.BisectOutcome{Result: schema.BadNotBad}
	}
	lo, hi := BisectRange(commits, classes)
	among := append([]string{}, commits[lo:hi+1]...)
	if lo == hi {
		return schema.BisectOutcome{Result: schema.FoundFirstBad, FirstBad: commits[hi], Among: among}
	}
	for _, c := range commits[lo:hi] {
		if _, tested := classes[c]; !tested {
			return schema.BisectOutcome{Result: schema.Unfinished, Among: among}
		}
	}
	return schema.BisectOutcome{Result: schema.AmbiguousSkipped, Among: among}
}

// BisectRange returns the indices [lo, hi] the first bad commit lies in:
// hi is the earliest bad commit, lo follows the last good commit before
// it (0 when none). The bad revision (the last commit) must be bad.
func BisectRange(commits []string, classes map[string]schema.BisectClass) (lo, hi int) {
	hi = len(commits) - 1
	for i, c := range commits {
		if classes[c] == schema.ClassBad {
			hi = i
			break
		}
	}
	for i := hi - 1; i >= 0; i-- {
		if classes[commits[i]] == schema.ClassGood {
			return i + 1, hi
		}
	}
	return 0, hi
}

// NextBisectCommit is the commit the search measures next, given the
// classes of the commits measured so far (commits oldest first, the bad
// revision last): the bad revision first, then the untested commit of the
// range the first bad commit is still in (BisectRange) nearest its middle,
// the lower one on a tie. done when ConcludeBisect decides the outcome or
// no untested commit is left in the range.
func NextBisectCommit(commits []string, classes map[string]schema.BisectClass) (next string, done bool) {
	n := len(commits)
	if n == 0 {
		return "", true
	}
	if _, tested := classes[commits[n-1]]; !tested {
		return commits[n-1], false
	}
	if ConcludeBisect(commits, classes).Result != schema.Unfinished {
		return "", true
	}
	lo, hi := BisectRange(commits, classes)
	mid := (lo + hi) / 2
	best := -1
	for i := lo; i < hi; i++ {
		if _, tested := classes[commits[i]]; tested {
			continue
		}
		if best < 0 || abs(i-mid) < abs(best-mid) {
			best = i
		}
	}
	if best < 0 {
		return "", true
	}
	return commits[best], false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
