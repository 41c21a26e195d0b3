package review

import (
	"github.com/decodebench/decodebench/history"
	"github.com/decodebench/decodebench/schema"
)

// FailsCheck is the verdict the index and the site show for a record, or
// a bisect summary, that check finds a problem in. Its verdict, ratios
// and result are what the file claims, not what its data folder gives
// (a record whose JSON says VALID at 2.5× while its runs give FAILED at
// 0.77× is one), so none of them is shown, and none enters a row's
// latest record, its trend, the series, the regimes or a step's
// bisection.
const FailsCheck = "fails check"

// Checked reports whether check finds no problem in the record: only
// then are its verdict and numbers shown.
func (r FleetRecord) Checked() bool { return len(r.Problems) == 0 }

// ShownVerdict is the verdict the index and the site show: the record's
// own when it passes check, FailsCheck otherwise.
func (r FleetRecord) ShownVerdict() string {
	if !r.Checked() {
		return FailsCheck
	}
	return string(r.Rec.Verdict)
}

// ShownHeadline is the record's Headline when it passes check; none
// otherwise.
func (r FleetRecord) ShownHeadline() []schema.ArmVerdict {
	if !r.Checked() {
		return nil
	}
	return Headline(r.Rec)
}

// ShownTerms are the record's VerdictTerms when it passes check; none
// otherwise (the terms are the file's claim as much as its verdict).
func (r FleetRecord) ShownTerms() []string {
	if !r.Checked() {
		return nil
	}
	return VerdictTerms(r.Rec)
}

// Latest is the row's record the index and the site show: its newest
// that counts (passes check and is no other record's campaign again, as
// the series and the regimes count them), else its newest that passes
// check, or its newest when none does (shown as FailsCheck, with no
// numbers). A newer record that fails check is counted in WithProblems
// (FailingBeside).
func (r FleetRow) Latest() FleetRecord {
	for _, ok := range []func(FleetRecord) bool{FleetRecord.Counts, FleetRecord.Checked} {
		for _, e := range r.Records {
			if ok(e) {
				return e
			}
		}
	}
	return r.Records[0]
}

// FailingBeside is how many of a row's records fail check while its
// Latest passes, and the newest of them when it is newer than Latest
// (its stem; "" when every one is older). n is 0 when Latest itself
// fails check: its own problems are then what the row shows.
func (r FleetRow) FailingBeside() (n int, newer string) {
	if r.WithProblems == 0 || !r.Latest().Checked() {
		return 0, ""
	}
	if newest := r.Records[0]; !newest.Checked() {
		newer = newest.Stem
	}
	return r.WithProblems, newer
}

// FirstRatios is the first arm's ratio of a hardware's records that
// enter a series (FleetRecord.Counts and history.Counts), oldest first:
// what the index's trend shows. rs is newest first, as a FleetRow's.
func FirstRatios(rs []FleetRecord) []float64 {
	var xs []float64
	for i := len(rs) - 1; i >= 0; i-- {
		rec := rs[i].Rec
		if !rs[i].Counts() || !history.Counts(rec.Verdict) {
			continue
		}
		for _, v := range rec.Analysis.ArmVerdicts {
			if !v.Control && v.Comparison.Defined() {
				xs = append(xs, v.Comparison.Ratio)
				break
			}
		}
	}
	return xs
}

// ShownResult is a bisect summary's result and first bad commit as the
// index and the site show them: FailsCheck and none when check finds a
// problem in it.
func (b FleetBisect) ShownResult() (result, firstBad string) {
	if len(b.Problems) > 0 {
		return FailsCheck, ""
	}
	return string(b.Summary.Outcome.Result), b.Summary.Outcome.FirstBad
}
