package analysis

import "github.com/decodebench/decodebench/schema"

// RowsLevel is the level at which a record's results tables compare the
// primary metric: each arm's row states a ratio with its interval, a p
// and whether the change is significant, beside the arm's verdict.
type RowsLevel int

const (
	// RowsAtAlpha compares every metric, the primary included, at the
	// whole alpha (the rules before robust-10). The verdict is judged at
	// Holm's and the looks' levels, so a row's interval and significance
	// may differ from its verdict's: at an early look, or for the second
	// of two test arms, a row's interval may exclude 1 beside a verdict of
	// no significant difference.
	RowsAtAlpha RowsLevel = iota
	// RowsAsJudged states, in the primary metric's rows, the verdicts: an
	// arm's row is its verdict's comparison, against the verdict's
	// reference (the baseline, or the baseline pooled with the controls
	// under stats.pool_control) at the level it was judged at, and a
	// negative control's significance is its equivalence test's (a
	// difference beyond the margin). The other metrics are compared with
	// the baseline at the whole alpha, as before.
	RowsAsJudged
)

// fill makes the primary metric's rows of results state the verdicts'
// comparisons, where the rule says so.
func (l RowsLevel) fill(results []schema.MetricResult, verdicts []schema.ArmVerdict) {
	if l != RowsAsJudged {
		return
	}
	for _, mr := range results {
		if !mr.Primary {
			continue
		}
		for k := range mr.Arms {
			row := &mr.Arms[k]
			if v, ok := verdictOf(verdicts, row.Arm); ok && row.Comparison != nil {
				c := v.Comparison
				row.Comparison = &c
			}
		}
	}
}

// verdictOf is arm's verdict among verdicts.
func verdictOf(verdicts []schema.ArmVerdict, arm string) (schema.ArmVerdict, bool) {
	for _, v := range verdicts {
		if v.Arm == arm {
			return v, true
		}
	}
	return schema.ArmVerdict{}, false
}
