package analysis

import "github.com/decodebench/decodebench/schema"

// LostCountShare bounds the runs of an arm that may fail for a lost count
// (Run.LostCount): at most one in LostCountShare of the arm's attempts,
// and one whatever their number.
//
// A command engine's run whose output lacks a count its arm's expectation
// needs fails rather than reading 0, so that on_failure: retry runs it
// again: llama.cpp's CLIs now and then exit before their log thread writes
// the last lines, the counter lines among them. That race is rare and
// independent from run to run. An engine whose feature engages on some
// runs only, and prints no counter line on the others, fails the same
// way, and on_failure: continue drops those runs, retry runs them again
// until one engages: the campaign would be judged on the runs that
// engaged. One lost count is allowed in any arm, so that a short campaign
// that met the race once is not rejected for it; from two on, they must
// be at most one in ten of the arm's attempts, which a rare race keeps
// below (at a 2% rate, an arm of 20 attempts loses more than 2 with a
// chance under 1%) and an engine that fails to engage on more than one
// run in ten, over enough runs, does not. A second lost count in a row for one slot is not bounded on
// its own: in a campaign of a hundred slots an honest race at a few
// percent does that now and then, and two in a short arm exceed the
// share anyway.
const LostCountShare = 10

// lostCounts bounds each arm's runs that failed for a lost count: beyond
// the bound, a reason per counter the arm lacked rejects the campaign;
// within it, a warning per counter says the runs failed for it (and were
// retried or excluded). In the order the runs first lacked them.
func lostCounts(in Input) (reject, warn []schema.Reason) {
	type key struct{ arm, counter string }
	attempts, lost, per := map[string]int{}, map[string]int{}, map[key]int{}
	var order []key
	for _, r := range in.Runs {
		attempts[r.Arm]++
		if r.OK() || r.LostCount == "" {
			continue
		}
		k := key{r.Arm, r.LostCount}
		if per[k] == 0 {
			order = append(order, k)
		}
		lost[r.Arm]++
		per[k]++
	}
	for _, k := range order {
		lc := schema.LostCounts{Arm: k.arm, Counter: k.counter, Lost: per[k], Attempts: attempts[k.arm]}
		if tooManyLost(lost[k.arm], attempts[k.arm]) {
			reject = append(reject, schema.TooManyLostCounts(lc))
		} else {
			warn = append(warn, lc)
		}
	}
	return reject, warn
}

// tooManyLost reports whether lost of an arm's attempts failing for a lost
// count exceed the bound (LostCountShare).
func tooManyLost(lost, attempts int) bool {
	return lost > 1 && lost*LostCountShare > attempts
}
