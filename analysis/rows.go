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
	// RowsAsJudged states, in the primary metric's rows, what the verdict
	// judged: an arm whose reference is the baseline alone has its
	// verdict's comparison; an arm judged against a pooled reference
	// (stats.pool_control) is compared with the baseline alone at its
	// verdict's level, and is significant only where its verdict is
	// too. The other metrics are compared at the whole alpha, as before.
	RowsAsJudged
)

// fill makes the primary metric's rows of results state the verdicts'
// comparisons, where the rule says so.
func (l RowsLevel) fill(in Input, s samples, results []schema.MetricResult, verdicts []schema.ArmVerdict) {
	if l != RowsAsJudged {
		return
	}
	p, rule := in.Policy, in.Campaign.Rule
	_, pooled := reference(p, rule)
	for _, mr := range results {
		if !mr.Primary {
			continue
		}
		for k := range mr.Arms {
			row := &mr.Arms[k]
			v, ok := verdictOf(verdicts, row.Arm)
			if !ok || row.Comparison == nil {
				continue
			}
			c := v.Comparison
			if len(pooled) > 0 && !v.Control && c.Level > 0 {
				r := rule.Comparison.compare(in, s, []string{p.Baseline}, row.Arm, p.Primary, c.Level, 1-c.Level)
				alone := rule.Comparison.store(r, c.Level, p.Stats.MinEffect)
				alone.Level = c.Level
				alone.Significant = alone.Significant && v.Comparison.Significant
				c = alone
			}
			row.Comparison = &c
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
