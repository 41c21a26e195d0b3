package history

import (
	"cmp"
	"slices"

	"github.com/decodebench/decodebench/schema"
)

// LeftOut is a record whose numbers enter no series: an INCOMPLETE
// record's are partial, REJECTED and FAILED ones have none (Counts).
type LeftOut struct {
	Stem         string         `json:"record"`
	Date         string         `json:"date"`
	Hardware     string         `json:"hardware"`
	ScenarioHash string         `json:"scenario_hash"`
	Verdict      schema.Verdict `json:"verdict"`
}

// Left lists the records of recs that Build leaves out, oldest first.
func Left(recs []Record) []LeftOut {
	var out []LeftOut
	for _, r := range recs {
		if Counts(r.Rec.Verdict) {
			continue
		}
		out = append(out, LeftOut{Stem: r.Stem, Date: r.Rec.Date, Hardware: r.Rec.Hardware, ScenarioHash: r.Rec.Scenario.Hash, Verdict: r.Rec.Verdict})
	}
	slices.SortStableFunc(out, func(a, b LeftOut) int { return cmp.Or(cmp.Compare(a.Date, b.Date), cmp.Compare(a.Stem, b.Stem)) })
	return out
}
