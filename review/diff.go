package review

import (
	"fmt"

	"github.com/decodebench/decodebench/scenarios"
	"github.com/decodebench/decodebench/schema"
	"github.com/decodebench/decodebench/stats"
)

// Diff is what differs between two records: first the conditions that make
// the comparison suspect, then per arm and metric what moved.
type Diff struct {
	Old string `json:"old"`
	New string `json:"new"`
	// Conditions lists every difference in how the two were measured.
	Conditions []Condition `json:"conditions"`
	// Refused is set when a side's verdict makes its numbers unfit to
	// compare (and --force was not given); Metrics is then empty.
	Refused []string     `json:"refused,omitempty"`
	Metrics []MetricDiff `json:"metrics,omitempty"`
	// Ratios compares each arm's ratio to its own baseline.
	Ratios []RatioDiff `json:"ratios,omitempty"`
	// Threshold is the smallest change that counts.
	Threshold float64 `json:"threshold"`
	// Alpha is the level each metric's change is judged at (the larger
	// of the two records' alphas), its interval at 1 − Alpha.
	Alpha float64 `json:"alpha,omitempty"`
	// Family is how the ratios that --fail-on-regression gates on keep
	// their family-wise error; nil without ratios.
	Family *RatioFamily `json:"family,omitempty"`
}

// RatioFamily is the Bonferroni correction over the arm ratios a diff
// gates on: with Comparisons of them, each interval is at
// 1 − Alpha/Comparisons, so the chance that any of them shows a change
// that is not there is at most Alpha.
type RatioFamily struct {
	Alpha       float64 `json:"alpha"`
	Comparisons int     `json:"comparisons"`
	Confidence  float64 `json:"confidence"`
}

// Condition is one difference in the conditions of measurement.
type Condition struct {
	What string `json:"what"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// MetricDiff is one arm's metric in both records.
type MetricDiff struct {
	Arm            string  `json:"arm"`
	Metric         string  `json:"metric"`
	Unit           string  `json:"unit"`
	HigherIsBetter bool    `json:"higher_is_better"`
	OldMedian      float64 `json:"old_median"`
	NewMedian      float64 `json:"new_median"`
	OldN           int     `json:"old_n"`
	NewN           int     `json:"new_n"`
	// Change is new/old − 1, with its interval at Confidence (1 − the new
	// record's alpha) and P, both from one percentile bootstrap of the
	// ratio of medians: P < alpha exactly when the interval excludes 0.
	Change     float64 `json:"change"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	Confidence float64 `json:"confidence"`
	P          float64 `json:"p"`
	Verdict    Change  `json:"verdict"`
}

// RatioDiff is an arm's ratio to its baseline in both records.
type RatioDiff struct {
	Arm      string  `json:"arm"`
	Baseline string  `json:"baseline"`
	Metric   string  `json:"metric"`
	Old      float64 `json:"old"`
	New      float64 `json:"new"`
	// Change is New/Old − 1 with its bootstrap interval (at the family's
	// Confidence) and that bootstrap's p.
	Change  float64 `json:"change"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	P       float64 `json:"p"`
	Verdict Change  `json:"verdict"`
	// runs are the runs compared: the baseline's and the arm's in the
	// old record, then in the new.
	runs [4]int
}

// Untested says, for each arm whose ratio to its baseline no test
// compared because a side of it has one run in a record (no interval),
// why: a gate on it would pass a regression unseen. A side without runs
// (a record of no finished runs) is the records' verdicts' to refuse, and
// is not named.
func (d Diff) Untested() []string {
	var out []string
	for _, r := range d.Ratios {
		if r.Verdict != Unknown {
			continue
		}
		for i, side := range []struct{ record, arm string }{{"old", r.Baseline}, {"old", r.Arm}, {"new", r.Baseline}, {"new", r.Arm}} {
			if n := r.runs[i]; n == 1 {
				out = append(out, fmt.Sprintf("arm %s's ratio to %s has no interval: the %s record has %d run(s) of %s with %s, a test needs 2", r.Arm, r.Baseline, side.record, n, side.arm, r.Metric))
				break
			}
		}
	}
	return out
}

// Change is the verdict on a difference.
type Change string

// Verdicts of a difference.
const (
	Same     Change = "~"
	Better   Change = "better"
	Worse    Change = "worse"
	Unknown  Change = "no comparison"
	NotFound Change = "missing"
)

// DiffOptions adjusts Compare.
type DiffOptions struct {
	// Threshold is the smallest relative change that counts; 0 counts
	// every significant change (diff --threshold 0). DefaultThreshold is
	// diff's default.
	Threshold float64
	// Force compares records whose verdict says their numbers must not be
	// used, and records that fail check.
	Force bool
	// Problems are what Check found in the old and the new record: a
	// record that fails check is refused (a data block edited apart from
	// its stored scenario could name another primary metric, baseline or
	// alpha to gate on).
	Problems [2][]Problem
	// Today are why the old and the new record are unfit under today's
	// rule (UnfitToday): one that is is refused.
	Today [2]string
}

// DefaultThreshold is the smallest change diff counts unless told.
const DefaultThreshold = 0.02

// Compare diffs two records, both loaded with their runs.
func Compare(oldPath string, old *schema.Record, newPath string, nu *schema.Record, opt DiffOptions) Diff {
	d := Diff{Old: oldPath, New: newPath, Threshold: opt.Threshold}
	d.Conditions = conditions(oldPath, old, newPath, nu)
	if d.Refused = refusals(old, nu, opt); len(d.Refused) > 0 {
		return d
	}
	cfg := stats.Config{Confidence: nu.Method.Confidence, Alpha: nu.Method.Alpha, MinEffect: opt.Threshold, Resamples: scenarios.Resamples, Seed: 1}
	if !(cfg.Alpha > 0 && cfg.Alpha < 0.5 && cfg.Confidence > 0.5 && cfg.Confidence < 1) {
		// No scenario loads with these (--force does not reach here with
		// a record check refuses unless asked, and then a forged alpha
		// of −1 indexed a bootstrap's quantile out of range).
		d.Refused = append(d.Refused, fmt.Sprintf("the new record's alpha %g and confidence %g are not a test's levels (alpha in (0, 0.5), confidence in (0.5, 1))", cfg.Alpha, cfg.Confidence))
		return d
	}
	// The larger of the two records' alphas: a scenario that lowers its
	// alpha (a pull request's, say) cannot make the gate less sensitive
	// than the other record's. diff lists the change under conditions.
	if a, c := old.Method.Alpha, old.Method.Confidence; a > cfg.Alpha && a < 0.5 && c > 0.5 && c < 1 {
		cfg.Alpha, cfg.Confidence = a, c
	}
	d.Alpha = cfg.Alpha
	d.Metrics = metricDiffs(old, nu, cfg, opt.Threshold)
	if old.Scenario.Baseline == nu.Scenario.Baseline {
		d.Family, d.Ratios = ratioDiffs(old, nu, cfg, opt.Threshold)
	}
	return d
}

// refusals says which side's verdict makes its numbers unfit to compare;
// none with force.
func refusals(old, nu *schema.Record, opt DiffOptions) []string {
	force, problems := opt.Force, opt.Problems
	var out []string
	for i, side := range []struct {
		name string
		rec  *schema.Record
	}{{"old", old}, {"new", nu}} {
		if p := problems[i]; len(p) > 0 && !force {
			out = append(out, fmt.Sprintf("the %s record fails check (%d problem(s); the first: %s): decodebench check lists them (--force compares it anyway)", side.name, len(p), p[0]))
		}
		switch side.rec.Verdict {
		case schema.Valid, schema.Unverified:
		default:
			if !force {
				out = append(out, fmt.Sprintf("the %s record's verdict is %s: its numbers are not fit to compare (--force compares them anyway)", side.name, side.rec.Verdict))
			}
		}
		if why := opt.Today[i]; why != "" && !force {
			out = append(out, fmt.Sprintf("the %s record is not fit to compare: %s (--force compares it anyway)", side.name, why))
		}
	}
	return out
}

// Regressed reports whether an arm's ratio to its own baseline, measured
// interleaved within each record, got significantly worse: what a CI job
// gates on. Raw values between two campaigns are not: minutes apart, on
// one machine and one build, the host itself moves them (a classic arm's
// decode_tok_s −16% between two campaigns of the same binary), while each
// record's interleaved ratio cancels what the host did to both arms.
func (d Diff) Regressed() bool {
	for _, r := range d.Ratios {
		if r.Verdict == Worse {
			return true
		}
	}
	return false
}
