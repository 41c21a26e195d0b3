package history

import (
	"cmp"
	"slices"

	"github.com/decodebench/decodebench/schema"
)

// Row is one record × arm × metric of a history, as export writes it.
type Row struct {
	Record       string
	Date         string
	Feature      string
	Hardware     string
	Verdict      schema.Verdict
	ScenarioHash string
	Arm          string
	Baseline     string
	IsBaseline   bool
	Control      bool
	Metric       string
	Unit         string
	Primary      bool
	HigherBetter bool
	N            int
	Median       float64
	MedianLo     float64
	MedianHi     float64
	// HasRatio is false for the baseline's rows and where no ratio was
	// defined; the ratio's fields are then zero.
	HasRatio        bool
	Ratio           float64
	RatioLo         float64
	RatioHi         float64
	RatioConfidence float64
	P               float64
	Significant     bool
	EngineVersion   string
	EngineSHA256    string
	SourceCommit    string
	Decodebench     string // decodebench's version that wrote the record
	// Rule is the statistical rule the record was judged by
	// (method.rule, "median-U" for the first): what its ratio and p are.
	Rule string
}

// Rows lists every record's per-arm, per-metric results, records by
// date (then -N suffix and name), metrics and arms in the record's order.
// Records without results give no rows.
func Rows(recs []Record) []Row {
	sorted := slices.Clone(recs)
	slices.SortStableFunc(sorted, func(a, b Record) int {
		return cmp.Or(cmp.Compare(a.Rec.Date, b.Rec.Date), cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.Stem, b.Stem))
	})
	var out []Row
	for _, r := range sorted {
		rec := r.Rec
		control := map[string]bool{}
		for _, a := range rec.Scenario.Arms {
			control[a.Name] = a.Control
		}
		// The primary metric's comparisons as the verdict judged them
		// (at the arm's level: a sequential look's, Holm's step), which
		// history --json reads too; the results' are at 1 − alpha.
		judged := map[string]schema.Comparison{}
		for _, v := range rec.Analysis.ArmVerdicts {
			if v.Comparison.Defined() {
				judged[v.Arm] = v.Comparison
			}
		}
		for _, mr := range rec.Analysis.Results {
			for _, a := range mr.Arms {
				eng := rec.EngineOf(a.Arm)
				row := Row{Record: r.Stem, Date: rec.Date, Feature: rec.Feature, Hardware: rec.Hardware, Verdict: rec.Verdict,
					ScenarioHash: rec.Scenario.Hash, Arm: a.Arm, Baseline: rec.Scenario.Baseline, IsBaseline: a.Arm == rec.Scenario.Baseline,
					Control: control[a.Arm], Metric: mr.Metric, Unit: mr.Unit, Primary: mr.Primary, HigherBetter: mr.HigherIsBetter,
					N: a.N, Median: a.Median, MedianLo: a.MedianLo, MedianHi: a.MedianHi,
					EngineVersion: firstLine(eng.Version), EngineSHA256: eng.SHA256, SourceCommit: eng.SourceCommit, Decodebench: rec.Method.Version, Rule: ruleName(rec.Method.Rule)}
				c := a.Comparison
				if j, ok := judged[a.Arm]; ok && mr.Primary {
					c = &j
				}
				if c != nil && c.Defined() {
					row.HasRatio, row.Ratio, row.RatioLo, row.RatioHi, row.RatioConfidence = true, c.Ratio, c.Lo, c.Hi, c.Confidence
					row.P, row.Significant = c.P, c.Significant
				}
				out = append(out, row)
			}
		}
	}
	return out
}

// ruleName is a record's rule as a history row names it: the first rule,
// which records name by leaving method.rule out, as "median-U".
func ruleName(r schema.Rule) string {
	if r == schema.RuleMedianU {
		return "median-U"
	}
	return string(r)
}
